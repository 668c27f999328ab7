"""The aod turn state (`state` in a scenario, aod.md section 3) as a typed view."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules.model.errors import InvalidActionError
from rules.model.state import GameState, Unit


@dataclass(frozen=True)
class AodTurn:
    orders_used: int = 0
    orders_available: int | None = None
    ordered: tuple[str, ...] = ()
    #: (unit id, action type or None when unknown), in the order given (AOD-D37).
    order_log: tuple[tuple[str, str | None], ...] = ()
    free_spin_pending: tuple[str, ...] = ()
    started_in_contact: tuple[str, ...] | None = None

    @classmethod
    def of(cls, turn: Mapping[str, Any]) -> AodTurn:
        ordered = tuple(turn.get("ordered", ()))
        if "order_log" in turn:
            log = tuple(
                (str(e[0]), None if len(e) < 2 or e[1] is None else str(e[1]))
                for e in turn["order_log"]
            )
        else:
            log = tuple((u, None) for u in ordered)
        sic = turn.get("started_in_contact")
        return cls(
            orders_used=int(turn.get("orders_used", 0)),
            orders_available=turn.get("orders_available"),
            ordered=ordered,
            order_log=log,
            free_spin_pending=tuple(turn.get("free_spin_pending", ())),
            started_in_contact=None if sic is None else tuple(sic),
        )


def turn_of(state: GameState) -> AodTurn:
    """The position's turn state, read once per position (the offers of every unit on
    the board ask it for each unit and each order type)."""
    return state.memo("aod_turn", lambda: AodTurn.of(state.turn))


def check_turn(turn: Mapping[str, Any], key: str = "state") -> None:
    for k, v in turn.items():
        if k in ("orders_used", "orders_available"):
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise InvalidActionError(f"{key}.{k}", "expected a non-negative integer")
        elif k in ("ordered", "free_spin_pending", "started_in_contact"):
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise InvalidActionError(f"{key}.{k}", "expected a list of unit ids")
        elif k == "order_log":
            if not isinstance(v, list) or not all(
                isinstance(e, list) and 1 <= len(e) <= 2 and isinstance(e[0], str) for e in v
            ):
                raise InvalidActionError(f"{key}.{k}", "expected [[unit id, action type], ...]")
        # Other keys are kept as given: the live table may store its own bookkeeping.


def order_given(
    state: GameState,
    unit_ids: tuple[str, ...],
    action_type: str,
    changed: list[Unit],
    free_spin_pending: list[str],
    removed: tuple[str, ...] = (),
) -> GameState:
    """The state after an order given to `unit_ids` (section 3): units replaced, the order
    spent, entitlements reset."""
    after = state.with_units(*changed)
    units = tuple(u for u in after.units if u.id not in removed) if removed else after.units
    t = turn_of(state)
    turn = {
        **state.turn,
        "orders_used": t.orders_used + 1,
        "ordered": list(t.ordered) + [u for u in unit_ids if u not in t.ordered],
        "order_log": [list(e) for e in t.order_log] + [[u, action_type] for u in unit_ids],
        # An entitlement lapses when the next order is resolved (AOD-D35).
        "free_spin_pending": free_spin_pending,
    }
    return replace(after, units=units, turn=turn)
