"""aod's turn structure (aod.md section 3): sides give their orders in turn, no phases.

The order bookkeeping in the position's `state` is per side's turn; `orders_available`
is the GM's setting and stays.
"""

from __future__ import annotations

from typing import ClassVar

from rules.engine.turns import Json, TurnStructure
from rules.engine.verdict import Violation


def _orders_left(position: Json) -> int | None:
    """Orders the acting side has left, where `state.orders_available` sets them."""
    state = position.get("state") or {}
    available = state.get("orders_available")
    if isinstance(available, bool) or not isinstance(available, int):
        return None
    return max(0, available - int(state.get("orders_used", 0)))


class AodTurnStructure(TurnStructure):
    reset_each_side: ClassVar[tuple[str, ...]] = (
        "orders_used", "ordered", "order_log", "free_spin_pending", "started_in_contact",
    )

    def refusal(self, turn: Json, position: Json, side: str,
                action: Json | None = None) -> Violation | None:
        refused = super().refusal(turn, position, side, action)
        if refused is not None:
            return refused
        # Every action but a free spin is an order (section 3, 000 FREE SPINS).
        if action is not None and action.get("type") == "free_spin":
            return None
        if _orders_left(position) == 0:
            available = position["state"]["orders_available"]
            return Violation("no_actions_left",
                             f"{side} has given all {available} orders this turn.",
                             cite="001 [13]")
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
        left = _orders_left(position)
        if left is None:
            return ""
        return f"{left} order{'' if left == 1 else 's'} left"
