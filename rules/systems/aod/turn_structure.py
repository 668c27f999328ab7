"""aod's turn structure (aod.md section 3): sides give their orders in turn, no phases.

The order bookkeeping in the position's `state` is per side's turn; `orders_available`
is the GM's setting and stays.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rules.engine.turns import Json, TurnStructure
from rules.engine.verdict import Violation
from rules.model.state import GameState


@dataclass(frozen=True)
class Orders:
    """What counts a side's orders: the position's `state`, the table's options, and each
    unit's (side, points); read from the table's JSON or from the engine's position."""

    state: Mapping[str, Any]
    options: Mapping[str, Any]
    #: Each unit's (side, points), read only where they count the orders: a GM's
    #: `orders_available` needs none, and the board's offers ask the turn's refusal,
    #: which counts them, for many units and types a move.
    points: Callable[[], Iterable[tuple[Any, Any]]]

    @classmethod
    def of_json(cls, position: Json) -> Orders:
        units = position.get("units", [])
        return cls(
            position.get("state") or {},
            (position.get("table") or {}).get("options") or {},
            lambda: [(u.get("side"), u.get("points")) for u in units],
        )

    @classmethod
    def of_state(cls, state: GameState) -> Orders:
        units = state.units
        return cls(
            state.turn, state.table.options, lambda: [(u.side, u.get("points")) for u in units]
        )

    def available(self, side: str | None) -> int | None:
        """The acting side's orders this turn: `state.orders_available`, else ceil(its
        units' points / 150) unless the table option turns that off (001 [13], AOD-D22);
        None where neither counts them (orders are then not limited)."""
        available = self.state.get("orders_available")
        if isinstance(available, int) and not isinstance(available, bool):
            return available
        if self.options.get("orders_from_points", True) is False or side is None:
            return None
        points = [
            p
            for s, p in self.points()
            if s == side and isinstance(p, int | float) and not isinstance(p, bool)
        ]
        return math.ceil(sum(points) / 150 - 1e-9) if points else None

    def left(self, side: str | None = None) -> int | None:
        """Orders the acting side has left, where they are counted (section 3)."""
        available = self.available(side)
        if available is None:
            return None
        return max(0, available - int(self.state.get("orders_used", 0)))


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
        orders = Orders.of_json(position)
        if orders.left(side) == 0:
            why = f"{side} has given all {orders.available(side)} orders this turn."
            return Violation("no_actions_left", why, cite="001 [13]")
        return None

    def refuses_every_action(self, turn: Json, position: Json, side: str) -> bool:
        """Not this side's turn: `refusal` gives the base's refusal first, for any action."""
        return super().refusal(turn, position, side) is not None

    def unit_may_take(self, position: GameState, unit_id: str, action_type: str) -> bool:
        """A free spin needs an entitlement (000 FREE SPINS); an order needs a unit not yet
        ordered this turn, but a Colossal may go on while it is the last one ordered
        (001 [CCURoW], AOD-D37)."""
        state = position.turn
        if action_type == "free_spin":
            return unit_id in state.get("free_spin_pending", ())
        if unit_id not in state.get("ordered", ()):
            return True
        unit = position.unit(unit_id)
        log = state.get("order_log") or []
        last = log[-1][0] if log and log[-1] else None
        return unit is not None and unit.type == "colossal_mech" and last == unit_id

    def budget(self, turn: Json, position: GameState) -> str:
        """ "1 order left" for the side to act, whether the GM set its orders or its
        points give them (001 [13], AOD-D22); nothing where orders are not limited."""
        side = turn.get("active_side")
        left = Orders.of_state(position).left(None if side is None else str(side))
        if left is None:
            return ""
        return f"{left} order{'' if left == 1 else 's'} left"
