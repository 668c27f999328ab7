"""What aod offers a unit now: the orders whose preconditions hold (aod.md sections 3, 8,
11 and 12), judged by the checks the handlers make before they look at the path.

`check_order` (orders left, one order a unit, Colossals, salvage, captors, who may be given
which order) is the judge's own; so are the free-spin entitlement, the start-contact rule,
the target, passenger, capture and formation checks, asked here of every candidate on the
table: an order is offered when at least one choice of its keys passes them. What depends
on the path (cost, terrain, bases met, the end) is judged when the player proposes one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from rules.engine.catalogue import ActionSpec
from rules.engine.verdict import Violation
from rules.model.actions import Action
from rules.model.state import GameState, Unit
from rules.systems.aod.capture import target_problem as capture_target_problem
from rules.systems.aod.contact import opposing_contacts
from rules.systems.aod.formation import formation_mates, member_problems, touching_groups
from rules.systems.aod.free_spin import spin_entitlement
from rules.systems.aod.moves import TARGETED, start_contact_problems, target_problems
from rules.systems.aod.orders import (
    captive_of,
    check_order,
    colossal_refusal,
    may_be_ordered,
    order_type_refusal,
    passengers,
    refused,
)
from rules.systems.aod.position import AodPosition, aod_position
from rules.systems.aod.transport import boarding_problem
from rules.systems.aod.turn import turn_of
from rules.systems.aod.units import is_captive

#: Formations have 3 to 5 members (000 [29]).
FORMATION_SIZE = (3, 5)


def offered(position: AodPosition, unit: Unit, specs: Iterable[ActionSpec]) -> tuple[str, ...]:
    """The types of `specs` whose `preconditions` hold for `unit`, in their order. A unit
    no order may be given whatever its type (`may_be_ordered`: aboard, a captive, ordered
    already, its side's orders spent) is asked only about a free spin; another is asked,
    type by type, only what `check_order` asks besides (who, salvage, captor, Colossal)."""
    state = position.state
    if not may_be_ordered(state, unit):
        return tuple(
            spec.type
            for spec in specs
            if spec.type == "free_spin" and not spin_entitlement(position, unit)
        )
    return tuple(
        spec.type
        for spec in specs
        if not (
            spin_entitlement(position, unit)
            if spec.type == "free_spin"
            else order_type_refusal(state, unit, spec.type)
            or colossal_refusal(state, unit, spec.type)
            or _beyond_the_order(position, unit, spec.type)
        )
    )


def preconditions(state: GameState, unit: Unit, action_type: str) -> list[Violation]:
    """Why `unit` may not be given `action_type` now, whatever its path and keys: [] when
    some proposal of that type may be legal."""
    return _problems(aod_position(state), unit, action_type)


def _problems(position: AodPosition, unit: Unit, action_type: str) -> list[Violation]:
    """`preconditions` in the position the system reads."""
    state = position.state
    if action_type == "free_spin":  # not an order (000 FREE SPINS)
        return spin_entitlement(position, unit)
    return check_order(state, unit, action_type) or _beyond_the_order(position, unit, action_type)


def _beyond_the_order(position: AodPosition, unit: Unit, action_type: str) -> list[Violation]:
    """The preconditions of an order `check_order` allows: the start-contact rule and a
    candidate for its keys (target, passenger, captive, formation mates)."""
    found = start_contact_problems(position, unit, action_type)
    if found:
        return found
    more = CANDIDATES.get(action_type)
    return [] if more is None else more(position, unit, action_type)


def _no(unit: Unit, why: str, cite: str) -> list[Violation]:
    return [refused(unit, why, cite)]


def _target(position: AodPosition, unit: Unit, action_type: str) -> list[Violation]:
    """Ram, charge, DFA, full-speed assault: some unit on the table it may target. Only
    an opposing unit can be one (`target_problems` refuses any other), so only those are
    asked: the other sides' units on the table, not captives (`opposing`), read once per
    position rather than the whole table scanned per unit and order."""
    for other in _opposing_on_table(position, unit):
        _, problems = target_problems(
            position, unit, Action(unit.id, action_type, params={"target": other.id})
        )
        if not problems:
            return []
    return _no(unit, f"no unit on the table it may {action_type}", "001 [27-28]")


def _opposing_on_table(position: AodPosition, unit: Unit) -> Iterator[Unit]:
    """The units on the table `opposing` `unit` (another side, neither a captive), in
    table order within each side."""
    if is_captive(unit):
        return
    for side, units in _free_by_side(position.state).items():
        if side != unit.side:
            yield from units


def _free_by_side(state: GameState) -> dict[str, tuple[Unit, ...]]:
    """{side: its units on the table that are not captives}, once per position."""

    def group() -> dict[str, tuple[Unit, ...]]:
        out: dict[str, list[Unit]] = {}
        for u in state.units:
            if u.on_table and not is_captive(u):
                out.setdefault(u.side, []).append(u)
        return {side: tuple(units) for side, units in out.items()}

    return state.memo("aod.offers.free_by_side", group)


def _board(position: AodPosition, unit: Unit, action_type: str) -> list[Violation]:
    """Some unit that may board it now: friendly, unordered, at its rear (001 [18])."""
    turn = turn_of(position.state)
    # Only a friendly unit may board (`boarding_problem`): its side's units are asked.
    if any(
        boarding_problem(position, unit, p, turn) is None
        for p in position.state.units
        if p.side == unit.side and p.id != unit.id and p.on_table
    ):
        return []
    return _no(unit, "no unit at its rear may board it now", "001 [18]")


def _disembark(position: AodPosition, unit: Unit, action_type: str) -> list[Violation]:
    if passengers(position.state, unit.id):
        return []
    return _no(unit, "has no passengers aboard", "001 [18-19]")


def _capture(position: AodPosition, unit: Unit, action_type: str) -> list[Violation]:
    """No captive yet, and an opposing unit in base contact it may take (001 [26-27])."""
    if captive_of(position.state, unit.id) is not None:
        return _no(unit, "a captor can have only 1 captive at a time", "001 [27]")
    # Only an opposing unit in base contact may be taken (`capture_target_problem`):
    # those are asked, not every unit on the table (each asked for the unit's contacts).
    contacts = opposing_contacts(position, unit)
    if any(
        capture_target_problem(position, unit, other) is None
        for other in contacts
        if other.id != unit.id and other.on_table
    ):
        return []
    return _no(unit, "no opposing unit in base contact it may capture", "001 [26]")


def _formation(position: AodPosition, unit: Unit, action_type: str) -> list[Violation]:
    """Mates enough for a formation it leads (000 [29], AOD-D12): 3 to 5 members of one
    faction, each touching another, none ordered this turn, none on the other side of an
    abrupt edge (000 [34])."""
    found = member_problems(position, unit)
    if found:
        return found
    if _formation_possible(position, unit):
        return []
    return [
        Violation(
            "formation_invalid",
            f"{unit.id}: no formation mates in base contact (3 to 5 touching units, 000 [29])",
            unit.position,
            "000 [29]",
        )
    ]


def _formation_possible(position: AodPosition, unit: Unit) -> bool:
    """Some 3 to 5 eligible units, `unit` among them, in which each touches another."""
    mates = formation_mates(position, unit)
    own = unit.get("faction")
    factions = (
        {own} if own not in (None, "Mercenary") else {m.get("faction") for m in mates} | {None}
    )
    for faction in factions:
        group = [unit] + [m for m in mates if m.get("faction") in (None, "Mercenary", faction)]
        if _groups_allow(group):
            return True
    return False


def _groups_allow(group: list[Unit]) -> bool:
    """Whether the touching groups of `group` (its first unit the leader) hold a formation
    with the leader in it and no member alone: the leader's group has 3 or more, or it
    has 2 and another group 2 or more (4 or 5 members, AOD-D12)."""
    leader, *others = [len(g) for g in touching_groups(group)]
    return leader >= FORMATION_SIZE[0] or (leader == 2 and any(s >= 2 for s in others))


Check = Callable[[AodPosition, Unit, str], list[Violation]]
CANDIDATES: dict[str, Check] = {
    **{t: _target for t in TARGETED},
    "board": _board,
    "disembark": _disembark,
    "capture": _capture,
    "formation_move": _formation,
}
