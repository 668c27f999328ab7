"""Orders: who may be given which order, and how many orders a side has
(aod.md sections 3 and 12; 001 [13], [CCURoW], [SEC])."""

from __future__ import annotations

from rules.engine.verdict import Violation
from rules.model.state import GameState, Unit
from rules.systems.aod.catalogue import ACTIONS
from rules.systems.aod.turn import AodTurn, turn_of
from rules.systems.aod.turn_structure import Orders
from rules.systems.aod.units import (
    infantry_mode,
    is_captive,
    is_salvage,
    is_vtol,
)

MOVE_ORDERS = frozenset({"move", "dfa", "board", "disembark"})
ASSAULT_ORDERS = frozenset({"assault_full", "assault_half"})
#: Orders a salvage unit may receive ("S" in the 001 orders table).
SALVAGE_ORDERS = frozenset({"move", "run", "ram", "charge", "disembark", "vent", "formation_move"})


#: Why a unit may not be given an order the catalogue (catalogue.py: the unit types and
#: keys of the 001 orders table) does not offer it, and the rule.
_NOT_OFFERED = {
    "run": ("only 'Mechs may run", "001 [17]"),
    "ram": ("only non-VTOL vehicles may ram", "001 [28]"),
    "charge": ("only 'Mechs may charge", "001 [27]"),
    "dfa": ("only 'Mechs with jump jets may make a DFA", "001 [28]"),
    **dict.fromkeys(
        ("board", "disembark"),
        ("only transports (capacity > 0) may board or disembark passengers", "001 [18]"),
    ),
    **{
        order: (f"only 'Mechs may be given {order.replace('_', ' ')}", "001 [22], 001 [27]")
        for order in ("assault_full", "assault_half", "vent")
    },
    "capture": ("only infantry in foot mode may attempt a capture", "001 [26]"),
    "formation_move": (
        "only infantry and non-VTOL vehicles move in formation",
        "000 [29], 000 [18]",
    ),
}
_SPECS = {spec.type: spec for spec in ACTIONS}


def _who(action: str, u: Unit) -> tuple[str, str] | None:
    """Why `u` may not be given `action` by the orders table, and the rule's citation
    (None = eligible)."""
    if action == "run" and u.type == "colossal_mech":
        return ("Colossal 'Mechs may not run", "001 [CCURoW]")
    if action == "ram" and is_vtol(u):
        return ("a VTOL may not ram", "001 [28], 000 [18]")
    spec = _SPECS.get(action)
    if spec is None or action not in _NOT_OFFERED:
        return None
    offered = spec.offered_to({"type": u.type, **{k: u.get(k) for k in spec.needs}})
    if offered and (action != "capture" or infantry_mode(u) == "foot"):
        return None
    return _NOT_OFFERED[action]


def captive_of(state: GameState, captor_id: str) -> Unit | None:
    """The captive a captor holds (001 [27]: only one at a time)."""
    captives = state.memo(
        "aod.captives",
        lambda: {
            str(u.get("captive_of")): u for u in state.units if u.get("captive_of") is not None
        },
    )
    return captives.get(captor_id)


def passengers(state: GameState, transport_id: str) -> list[Unit]:
    by_transport = state.memo("aod.aboard", lambda: _aboard(state))
    return by_transport.get(transport_id, [])


def _aboard(state: GameState) -> dict[str, list[Unit]]:
    out: dict[str, list[Unit]] = {}
    for u in state.units:
        if u.aboard is not None:
            out.setdefault(u.aboard, []).append(u)
    return out


def refused(unit: Unit, msg: str, cite: str, code: str = "order_not_allowed") -> Violation:
    """Why the order given to `unit` is refused, placed where it stands."""
    return Violation(code, f"{unit.id}: {msg}", unit.position, cite)


def check_order(
    state: GameState, unit: Unit, action: str, unit_ids: tuple[str, ...] = ()
) -> list[Violation]:
    """Everything about *whether* this order may be given (not the path)."""

    def no(msg: str, cite: str, code: str = "order_not_allowed") -> list[Violation]:
        return [refused(unit, msg, cite, code)]

    turn = turn_of(state)
    if unit.aboard is not None:
        return no(f"is aboard {unit.aboard}; passengers may not be given orders", "000 [18]")
    if is_captive(unit):
        return no("is a captive and may not be given orders", "001 [26]")
    why = order_type_refusal(state, unit, action)
    if why:
        return no(*why)
    for uid in unit_ids or (unit.id,):
        if already_ordered(state, turn, uid):
            return no(f"{uid} has already been given an order this turn", "001 [13]")
    problem = colossal_refusal(state, unit, action)
    if problem:
        return no(problem, "001 [CCURoW]")
    spent = orders_spent(state, turn, unit.side)
    if spent is not None:
        return no(
            f"no orders left this turn ({turn.orders_used} of {spent} used)",
            "001 [13]",
            "no_actions_left",
        )
    return []


def already_ordered(state: GameState, turn: AodTurn, uid: str) -> bool:
    """Given an order this turn, and not a Colossal (which may take more, 001 [CCURoW])."""
    member = state.unit(uid)
    return uid in turn.ordered and not (member is not None and member.type == "colossal_mech")


def orders_spent(state: GameState, turn: AodTurn, side: str) -> int | None:
    """The side's orders this turn where every one is used (001 [13]); None where some
    are left or the table counts none."""
    available = orders_available(state, side)
    return available if available is not None and turn.orders_used >= available else None


def order_type_refusal(state: GameState, unit: Unit, action: str) -> tuple[str, str] | None:
    """Why `unit` may not be given an order of this type (the orders table, salvage, a
    captor), and the rule's citation; None where it may."""
    why = _who(action, unit)
    if why:
        return why
    if is_salvage(unit):
        if action not in SALVAGE_ORDERS:
            return (f"a salvage unit may not be given {action}", "001 [SEC]")
        tokens = unit.get("order_tokens", 0)
        if isinstance(tokens, int | float) and tokens >= 1:
            return ("a salvage unit with an order token may not push", "001 [SEC], AOD-D15")
        if passengers(state, unit.id) and action != "disembark":
            return ("a salvage transport must disembark its passengers", "001 [19]")
    if captive_of(state, unit.id) is not None and action != "move":
        return ("a captor may be given only move orders", "001 [27]")
    return None


def colossal_refusal(state: GameState, unit: Unit, action: str) -> str | None:
    """Why a Colossal ordered already this turn may not be given this order next."""
    turn = turn_of(state)
    if unit.type == "colossal_mech" and unit.id in turn.ordered:
        return _colossal(turn, unit.id, action)
    return None


def orders_available(state: GameState, side: str) -> int | None:
    """The side's orders this turn, counted once per position and side: 150 points of
    force give 1 order (001 [13], AOD-D22), as the turn structure counts them."""
    return state.memo(
        f"aod.orders_available.{side}",
        lambda: state.memo("aod.orders", lambda: Orders.of_state(state)).available(side),
    )


def may_be_ordered(state: GameState, unit: Unit) -> bool:
    """False where `check_order` refuses `unit` every order whatever its type: aboard, a
    captive, already ordered this turn (not a Colossal, 001 [13]), or its side's orders
    spent. The board's offers ask it once per unit rather than once per order type."""
    if unit.aboard is not None or is_captive(unit):
        return False
    turn = turn_of(state)
    return (
        not already_ordered(state, turn, unit.id) and orders_spent(state, turn, unit.side) is None
    )


def _colossal(turn: AodTurn, uid: str, action: str) -> str | None:
    """Colossal 'Mech order limits (001 [CCURoW], AOD-D37)."""
    if not turn.order_log or turn.order_log[-1][0] != uid:
        return "a Colossal's orders must be consecutive"
    mine = [a for u, a in turn.order_log if u == uid]
    if "vent" in mine:
        return "a Colossal takes no order after a vent"
    if action in MOVE_ORDERS and any(a in MOVE_ORDERS for a in mine):
        return "a Colossal gets only one move order per turn"
    if action in ASSAULT_ORDERS and any(a in ASSAULT_ORDERS for a in mine):
        return "a Colossal gets only one assault order per turn"
    return None
