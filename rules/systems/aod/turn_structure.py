"""aod's turn structure (aod.md section 3): sides give their orders in turn, no phases.

The order bookkeeping in the position's `state` is per side's turn; `orders_available`
is the GM's setting and stays.
"""

from __future__ import annotations

import math
from typing import ClassVar

from rules.engine.turns import Json, TurnStructure
from rules.engine.verdict import Violation


def _orders_available(position: Json, side: str | None) -> int | None:
    """The acting side's orders this turn: `state.orders_available`, else ceil(its units'
    points / 150) unless the table option turns that off (001 [13], AOD-D22); None where
    neither counts them (orders are then not limited)."""
    state = position.get("state") or {}
    available = state.get("orders_available")
    if isinstance(available, int) and not isinstance(available, bool):
        return available
    options = (position.get("table") or {}).get("options") or {}
    if options.get("orders_from_points", True) is False or side is None:
        return None
    points = [
        u["points"]
        for u in position.get("units", [])
        if u.get("side") == side
        and isinstance(u.get("points"), int | float)
        and not isinstance(u["points"], bool)
    ]
    return math.ceil(sum(points) / 150 - 1e-9) if points else None


def _orders_left(position: Json, side: str | None = None) -> int | None:
    """Orders the acting side has left, where they are counted (section 3)."""
    available = _orders_available(position, side)
    if available is None:
        return None
    return max(0, available - int((position.get("state") or {}).get("orders_used", 0)))


class AodTurnStructure(TurnStructure):
    reset_each_side: ClassVar[tuple[str, ...]] = (
        "orders_used",
        "ordered",
        "order_log",
        "free_spin_pending",
        "started_in_contact",
    )

    def refusal(
        self, turn: Json, position: Json, side: str, action: Json | None = None
    ) -> Violation | None:
        refused = super().refusal(turn, position, side, action)
        if refused is not None:
            return refused
        # Every action but a free spin is an order (section 3, 000 FREE SPINS).
        if action is not None and action.get("type") == "free_spin":
            return None
        if _orders_left(position, side) == 0:
            available = _orders_available(position, side)
            return Violation(
                "no_actions_left",
                f"{side} has given all {available} orders this turn.",
                cite="001 [13]",
            )
        return None

    def unit_may_take(self, position: Json, unit_id: str, action_type: str) -> bool:
        """A free spin needs an entitlement (000 FREE SPINS); an order needs a unit not yet
        ordered this turn, but a Colossal may go on while it is the last one ordered
        (001 [CCURoW], AOD-D37)."""
        state = position.get("state") or {}
        if action_type == "free_spin":
            return unit_id in state.get("free_spin_pending", ())
        if unit_id not in state.get("ordered", ()):
            return True
        unit: Json = next((u for u in position.get("units", ()) if u.get("id") == unit_id), {})
        log = state.get("order_log") or []
        last = log[-1][0] if log and log[-1] else None
        return unit.get("type") == "colossal_mech" and last == unit_id

    def budget(self, turn: Json, position: Json) -> str:
        """ "1 order left" for the side to act, whether the GM set its orders or its
        points give them (001 [13], AOD-D22); nothing where orders are not limited."""
        side = turn.get("active_side")
        left = _orders_left(position, None if side is None else str(side))
        if left is None:
            return ""
        return f"{left} order{'' if left == 1 else 's'} left"
