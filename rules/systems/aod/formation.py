"""`formation_move` (000 MOVEMENT FORMATIONS [29], aod.md 11.1; AOD-D12, D24, D25, D43)."""

from __future__ import annotations

from dataclasses import replace

from rules.engine.allowance import Allowance
from rules.engine.dice import Dice
from rules.engine.judgement import Judgement, moved_event
from rules.engine.path_checks import track_for
from rules.engine.verdict import Verdict, Violation
from rules.geometry.bases import body_at
from rules.geometry.tolerance import CONTACT
from rules.model.actions import Action
from rules.model.state import GameState, Unit
from rules.systems.aod.contact import opposing_contacts
from rules.systems.aod.elevation import abrupt_at
from rules.systems.aod.movement import MoveRequest, check_move, halve_for_hindering
from rules.systems.aod.orders import check_order, refused
from rules.systems.aod.position import AodPosition, aod_position
from rules.systems.aod.transport import disembarked_events, placement_problems
from rules.systems.aod.turn import order_given, turn_of
from rules.systems.aod.units import is_captive, is_infantry, is_vehicle, is_vtol, matrix_row

CITE = "000 [29]"


def _bad(u: Unit, msg: str, cite: str = CITE, code: str = "formation_invalid") -> Violation:
    return refused(u, msg, cite, code)


def grouped(units: list[Unit]) -> list[Unit]:
    """Members whose base touches no other member's base (000 [29], AOD-D12)."""
    return [g[0] for g in touching_groups(units) if len(g) == 1]


def touching_groups(units: list[Unit]) -> list[list[Unit]]:
    """The units split into groups in which each base touches another, one after another
    (000 [29], AOD-D12): the first unit's group first."""
    bodies = [body_at(u.base, *u.position, u.facing) for u in units]
    seen = [False] * len(units)
    groups: list[list[Unit]] = []
    for start in range(len(units)):
        if seen[start]:
            continue
        seen[start], stack, group = True, [start], []
        while stack:
            i = stack.pop()
            group.append(units[i])
            for k in range(len(units)):
                if not seen[k] and bodies[i].distance(bodies[k]) <= CONTACT:
                    seen[k] = True
                    stack.append(k)
        groups.append(group)
    return groups


def formation_mates(position: AodPosition, unit: Unit) -> list[Unit]:
    """The units that may join a formation `unit` is given now: each may be a member
    (`member_problems`), none has had an order this turn, none is across an abrupt edge
    from it (000 [34])."""
    ordered = set(turn_of(position.state).ordered)
    level = abrupt_at(position, unit)
    return [
        m
        for m in position.state.units
        if m.id != unit.id
        and m.on_table
        and m.id not in ordered
        and not member_problems(position, m)
        and abrupt_at(position, m) == level
    ]


def member_problems(position: AodPosition, m: Unit) -> list[Violation]:
    """Why `m` may not be a member of any formation now (000 [29], [18], [26], [39];
    AOD-D16, AOD-D24): the checks on one unit, whoever else joins."""
    out: list[Violation] = []
    if is_captive(m) or m.aboard is not None:
        out.append(_bad(m, "passengers and captives cannot be formation members", "000 [18, 26]"))
    elif is_vtol(m):
        out.append(_bad(m, "VTOLs can never use formations", "000 [18]"))
    elif not (is_infantry(m) or is_vehicle(m)):
        out.append(_bad(m, "only infantry and vehicles form formations"))
    elif m.get("faction") == "Sea Fox":
        out.append(_bad(m, "Sea Fox units can't use formations", "000 [39], AOD-D16"))
    if opposing_contacts(position, m):
        why = "is in base contact with an opposing unit and must break away with its own order"
        out.append(_bad(m, why, "AOD-D24"))
    return out


def membership_problems(
    position: AodPosition, leader: Unit, members: list[Unit]
) -> list[Violation]:
    """Why these units may not form one formation led by `leader` (000 [29], [34])."""
    out: list[Violation] = []
    if not 3 <= len(members) <= 5:
        out.append(_bad(leader, f"a formation has 3 to 5 members, not {len(members)}"))
    factions: set[str] = set()
    for m in members:
        out += member_problems(position, m)
        if m.get("faction") not in (None, "Mercenary"):
            factions.add(str(m.get("faction")))
    if len(factions) > 1:
        why = f"members come from several factions {sorted(factions)}; Mercenaries join any"
        out.append(_bad(leader, why))
    if len({abrupt_at(position, m) for m in members}) > 1:
        why = "no formation between units on and off abrupt elevated terrain"
        out.append(_bad(leader, why, "000 [34]", "order_not_allowed"))
    return out


def formation_move(position: AodPosition, unit: Unit, action: Action, dice: Dice) -> Verdict:
    state = position.state
    judgement = Judgement(state)
    entries: tuple[Action, ...] = action.get("moves", ())
    ids = tuple(e.unit for e in entries)
    members = [state.unit(i) for i in ids]
    if any(m is None for m in members):
        return judgement.refuse(Violation("unknown_unit", "formation lists an unknown unit", None))
    ms = [m for m in members if m is not None]
    pre = check_order(state, unit, "formation_move", ids)
    if unit.id not in ids:
        pre.append(_bad(unit, "the unit given the order must be listed in moves"))
    if len(set(ids)) != len(ids):
        pre.append(_bad(unit, "a member is listed twice"))
    pre += membership_problems(position, unit, ms)
    for e in entries:
        member = state.units_by_id[e.unit]
        if e.unit != unit.id and (e.get("passengers") or e.get("unload")):
            pre.append(_bad(member, "only the transport given the order may unload"))
        if any(k in e.params for k in ("target", "altitude", "ranged_attack")):
            pre.append(_bad(member, "no ram in formation", "000 [28-29]"))
    pre += [_bad(m, "must touch another member before the move") for m in grouped(ms)]
    slowest = min(ms, key=lambda m: m.move) if ms else unit
    if pre:
        return judgement.refuse(*pre)
    return _move_members(position, judgement, unit, entries, slowest, dice)


def _move_members(
    position: AodPosition,
    judgement: Judgement,
    leader: Unit,
    entries: tuple[Action, ...],
    slowest: Unit,
    dice: Dice,
) -> Verdict:
    """Members move in the listed order, each against the others' current positions
    (AOD-D43), at the slowest member's move, each halved on its own (AOD-D25)."""
    state = position.state
    cur: GameState = state
    cost = 0.0
    allowance_shown = 0.0
    ids = tuple(e.unit for e in entries)
    for e in entries:
        c = aod_position(cur)
        m = cur.units_by_id[e.unit]
        track = track_for(m, e.path, e.facing)
        base = Allowance(slowest.move, f"the slowest member {slowest.id}'s move", "000 [29]")
        rows = (matrix_row(m),)
        allowance = halve_for_hindering(c, rows, [track], base)
        if e.unit == leader.id and e.get("passengers"):
            allowance = allowance.halve("formation transport unloading", "000 [29]")
        req = MoveRequest(
            unit=m, track=track, allowance=allowance, rows=rows, hindering_halves=False
        )
        res = check_move(c, req)
        judgement.reasons.extend(res.violations)
        cost = max(cost, res.cost)
        allowance_shown = res.allowance.value if e.unit == leader.id else allowance_shown
        moved = m.moved(res.end.xy, res.end.facing)
        cur = cur.with_units(moved)
        judgement.events.append(moved_event(moved))
    judgement.cost, judgement.allowance = cost, allowance_shown
    if judgement.reasons:
        judgement.events.clear()
        return judgement.verdict(None)
    final = [cur.units_by_id[i] for i in ids]
    if loose := grouped(final):
        return judgement.refuse(
            *[_bad(m, "must touch another member after the move") for m in loose]
        )
    lead_entry = next(e for e in entries if e.unit == leader.id)
    if lead_entry.get("passengers"):
        # Only the ordered transport unloads, by the disembark rules (000 [29], 11.2).
        cur, problems = _unload(cur, leader.id, lead_entry, judgement)
        if problems:
            return judgement.refuse(*problems)
    after = order_given(cur, ids, "formation_move", [], [])
    return judgement.verdict(after)


def _unload(
    cur: GameState, leader_id: str, entry: Action, judgement: Judgement
) -> tuple[GameState, list[Violation]]:
    leader = cur.units_by_id[leader_id]
    placed: list[Unit] = []
    for pl in entry.get("passengers", []):
        p = cur.unit(pl["unit"]) if isinstance(pl, dict) else None
        if p is None or p.aboard != leader_id:
            return cur, [
                _bad(leader, f"{pl!r} is not aboard {leader_id}", "001 [19]", "order_not_allowed")
            ]
        placed.append(
            replace(p.moved(tuple(pl["position"]), pl.get("facing", p.facing)), aboard=None)
        )
    problems = placement_problems(aod_position(cur), leader, placed)
    if not problems:
        judgement.events.extend(disembarked_events(leader, placed))
    return cur.with_units(*placed), problems
