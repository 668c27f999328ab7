"""`move`, `overrun` and `enter_board` (lasergrenadiers.md 2-8, 10, 11)."""

from __future__ import annotations

import math
from typing import Any

from shapely.geometry import LineString, Point

from rules.engine.allowance import needs_message
from rules.engine.judgement import who
from rules.engine.numbers import LENGTH_TOL, fmt
from rules.engine.verdict import Verdict
from rules.geometry.bases import body_at
from rules.geometry.direction import bearing
from rules.geometry.line_of_movement import stretches_inside
from rules.geometry.tolerance import CONTACT, OVERLAP
from rules.model.actions import Action
from rules.model.state import Unit
from rules.systems.lasergrenadiers.accounting import (
    coupling_breaches,
    damaged_transport_breach,
    moved,
    remaining,
    speed_band,
    transfers,
)
from rules.systems.lasergrenadiers.changes import after, placed
from rules.systems.lasergrenadiers.judgement import AFTER, SpeedBandJudgement, moved_event
from rules.systems.lasergrenadiers.path import Walked, walk
from rules.systems.lasergrenadiers.pieces import (
    allowance_of,
    altitude_limit,
    is_infantry_or_crew,
    is_vehicle,
)
from rules.systems.lasergrenadiers.terrain import LgPosition


def never_returns(judgement: SpeedBandJudgement, name: str) -> None:
    """A piece that left the board never returns (003 Leaving the board 1)."""
    message = f"{name} has left the board: it may not return"
    judgement.add("action_not_allowed", message, None, "003 Leaving the board 1")


def can_act(pos: LgPosition, judgement: SpeedBandJudgement, unit: Unit, action: Action) -> None:
    """A piece that left the board never returns; a piece aboard only unloads."""
    if unit.id in pos.state.turn.get("left_board", []):
        never_returns(judgement, who(unit))
    elif unit.aboard is not None and action.type != "unload":
        judgement.add(
            "action_not_allowed",
            f"{who(unit)} is aboard {unit.aboard}: it must unload first",
            None,
            "003 Transport",
        )


def charge_allowance(
    pos: LgPosition,
    judgement: SpeedBandJudgement,
    unit: Unit,
    walked: Walked,
    cost: float,
) -> None:
    """The cost against what is left; then the transport inequalities and damaged
    transports for everything this piece moved this turn (lasergrenadiers.md 2, 9)."""
    state = pos.state
    left = remaining(state, unit)
    judgement.cost, judgement.allowance = cost, left
    if cost > left + LENGTH_TOL:
        extra = cost - walked.cost  # what is paid besides the path (over an overrun's target)
        at, order = walked.price.where_exceeds(left - extra) or (walked.end.xy, AFTER)
        # Where the cost goes when turning is part of it (003 Turning 3: turning is paid
        # from the allowance); not split where more is paid besides the path.
        turning = walked.price.turning() if extra < LENGTH_TOL else (0.0, 0.0)
        full = allowance_of(unit)
        this_turn = "" if left >= full - LENGTH_TOL else f' left of {fmt(full)}" this turn'
        judgement.add(
            "speed_exceeded",
            needs_message(who(unit), cost, left, '"', turning, this_turn),
            at,
            "003 Turning 3",
            order,
        )
        return
    spent = moved(state, unit.id) + cost
    events = transfers(state)
    for vid, why in coupling_breaches(state, {unit.id: spent}, events):
        if vid == unit.id or any(
            e.get("vehicle") == vid and unit.id in e.get("pieces", []) for e in events
        ):
            judgement.add("speed_exceeded", why, unit.position, "003 Transport 4, LG-D26", AFTER)
            return
    if any(e.get("vehicle") == unit.id for e in events):
        breach = damaged_transport_breach(
            unit, spent, walked.translates or unit.id in state.turn.get("translated", [])
        )
        if breach:
            judgement.add("speed_exceeded", breach, walked.end.xy, "003 Transport 6, LG-D35", AFTER)


def move(pos: LgPosition, unit: Unit, action: Action) -> Verdict:
    judgement = SpeedBandJudgement(pos.state)
    return finish(pos, judgement, unit, walk(pos, judgement, unit, action))


def finish(
    pos: LgPosition,
    judgement: SpeedBandJudgement,
    unit: Unit,
    walked: Walked,
    extra_events: list[dict[str, object]] | None = None,
    removed: tuple[str, ...] = (),
    cost: float | None = None,
) -> Verdict:
    """Allowance, speed band, and the state after a legal move-like action."""
    state = pos.state
    cost = walked.cost if cost is None else cost
    before = moved(state, unit.id)
    charge_allowance(pos, judgement, unit, walked, cost)
    judgement.speed_band = speed_band(unit, before + cost)
    if not judgement.legal:
        return judgement.verdict()
    mover = placed(unit, walked.end, walked.end_z)
    spent = {unit.id: before + cost}
    if walked.leaves_board:
        judgement.events.append({"type": "left_board", "unit": unit.id})
        new = after(state, spent=spent, left_board=[unit.id], removed=removed)
        return judgement.verdict(new)
    event = moved_event(mover)
    if mover.z is not None:
        event["z"] = round(mover.z, 4)
    judgement.events.append(event)
    if not walked.climbs and cost > 0 and before <= LENGTH_TOL:
        # For fire at it, a piece that only rotated counts as stationary (003 Movement
        # and fire 4).
        judgement.events.append({"type": "rotated_in_place", "unit": unit.id})
    judgement.events.extend(extra_events or [])
    translated = [unit.id] if walked.translates else []
    return judgement.verdict(
        after(state, [mover], spent=spent, removed=removed, translated=translated)
    )


# -- overrun ------------------------------------------------------------------------------

OVERRUN_CITE = "003 Overrun attacks"


def overrun(pos: LgPosition, unit: Unit, action: Action) -> Verdict:
    state = pos.state
    judgement = SpeedBandJudgement(state)
    can_act(pos, judgement, unit, action)
    tid = action.get("target")
    target = state.unit(tid) if isinstance(tid, str) else None
    if target is None or target.aboard is not None:
        judgement.add(
            "unknown_unit" if isinstance(tid, str) else "malformed",
            f"{who(unit)}'s overrun names no piece to run over"
            if tid is None
            else f"{tid} is not on the table to run over",
            None,
            OVERRUN_CITE,
        )
    if not judgement.legal or target is None:
        return judgement.verdict()
    _overrun_conditions(judgement, unit, target)
    walked = walk(pos, judgement, unit, action, ignore=frozenset({target.id}))
    body = pos.bodies[target.id].polygon()
    parts = stretches_inside(walked.track.points(), body)
    name, prey = who(unit), who(target)
    wrong = None
    if not parts:
        wrong = f"{name}'s path does not run into {prey}'s base"
    elif len(parts) > 1:
        wrong = f"{name} must run over {prey} in one stretch"
    elif body.buffer(-CONTACT).covers(Point(walked.end.xy)):
        wrong = f"{name} must end beyond {prey}, not on it"
    if wrong is not None:
        judgement.add("action_not_allowed", wrong, walked.end.xy, "003 Overrun 4", AFTER)
    over = _cost_over(pos, unit, target, walked, body)
    cost = walked.cost - over[0] + over[1]
    needed = 2 / 3 * allowance_of(unit)
    destroyed = not target.flag("foxhole") or over[1] >= needed - LENGTH_TOL
    extra: list[dict[str, object]] = []
    if destroyed:
        extra.append({"type": "overrun", "unit": unit.id, "target": target.id})
    else:
        extra.append(
            {
                "type": "overrun_failed",
                "unit": unit.id,
                "target": target.id,
                "why": f'{fmt(over[1])}" spent over the foxhole, '
                f'{fmt(needed)}" needed (003 Overrun 5)',
            }
        )
        end = body_at(unit.base, walked.end.x, walked.end.y, walked.end.facing, OVERLAP)
        if end.distance(pos.bodies[target.id]) < 0:
            judgement.add(
                "base_overlap",
                f"{name} would end on {prey}, who survives in its foxhole",
                walked.end.xy,
                "003 Overrun 5",
                AFTER,
            )
    return finish(pos, judgement, unit, walked, extra, (target.id,) if destroyed else (), cost)


def _overrun_conditions(judgement: SpeedBandJudgement, unit: Unit, target: Unit) -> None:
    name, prey = who(unit), who(target)

    def refuse(why: str, cite: str = "003 Overrun 1") -> None:
        judgement.add("action_not_allowed", why, unit.position, cite)

    if not (is_vehicle(unit) and unit.flag("armored")):
        refuse(f"only armored vehicles overrun; {name} is not one")
    if target.side == unit.side:
        refuse(f"{prey} is not an enemy piece")
    if not (is_infantry_or_crew(target) or (is_vehicle(target) and target.flag("armored"))):
        refuse(f"{prey} is neither infantry, a crewed weapon nor an armored vehicle")
    size, prey_size = unit.get("size"), target.get("size")
    if (
        not isinstance(size, int | float)
        or not isinstance(prey_size, int | float)
        or prey_size > size - 3
    ):
        refuse(
            f"{name} (size {size}) may overrun only pieces at least "
            f"three classes smaller, not {prey} (size {prey_size})",
            "003 Overrun 2, LG-D9",
        )
    if target.flag("foxhole") and unit.type not in ("tracked", "walker"):
        why = f"{prey} is in a foxhole: only a tracked vehicle or a walker may eliminate it"
        refuse(why, "003 Overrun 5")


def overrun_targets(pos: LgPosition, unit: Unit) -> list[Unit]:
    """The pieces on the table `unit` may overrun, whatever its path (003 Overrun 1-2, 5)."""
    out = []
    for target in pos.on_table:
        if target.id != unit.id:
            judgement = SpeedBandJudgement(pos.state)
            _overrun_conditions(judgement, unit, target)
            if judgement.legal:
                out.append(target)
    return out


def _cost_over(
    pos: LgPosition, unit: Unit, target: Unit, walked: Walked, body: Any
) -> tuple[float, float]:
    """(normal cost of the centre path inside the target's base, 3 x the attacker's cost
    per inch there in the terrain the target is on, road rate usable) (LG-D9)."""
    view = pos.view(unit)
    normal = triple = 0.0
    for leg in walked.price.legs:
        if leg.is_turn or leg.flat_length <= 0:
            continue
        seg = LineString([leg.start.xy, leg.end.xy]).intersection(body)
        for g in getattr(seg, "geoms", [seg]):
            if g.is_empty or g.length <= 1e-12:
                continue
            coords = list(g.coords)
            u0, u1 = sorted(
                math.dist(leg.start.xy, c) / leg.flat_length for c in (coords[0], coords[-1])
            )
            for a, b, rate in leg.pieces:
                lo, hi = max(a, u0), min(b, u1)
                if hi > lo:
                    normal += (hi - lo) * leg.length * rate
            dx, dy = leg.end.x - leg.start.x, leg.end.y - leg.start.y
            factor, _, _ = view.direction(leg.start.facing, dx, dy)
            m = view.multiplier(view.feature_at(*target.position, bearing(dx, dy)), bearing(dx, dy))
            triple += 3 * (u1 - u0) * leg.length * factor / (m or 1.0)
    return normal, triple


# -- enter_board --------------------------------------------------------------------------


def enter_board(pos: LgPosition, unit: Unit, action: Action) -> Verdict:
    state = pos.state
    judgement = SpeedBandJudgement(state)
    table = state.table
    x, y = unit.position
    z = unit.z or 0.0
    edge = min(abs(x), abs(y), abs(table.width - x), abs(table.height - y))
    within = -CONTACT <= x <= table.width + CONTACT and -CONTACT <= y <= table.height + CONTACT
    on_edge = within and edge <= CONTACT and z <= LENGTH_TOL
    from_above = within and not on_edge and z > LENGTH_TOL
    name = who(unit)
    if from_above:
        full = allowance_of(unit)
        if z > full + LENGTH_TOL:
            judgement.add(
                "placement_invalid",
                f'{name} begins its landing {fmt(z)}" up, more than its full movement {fmt(full)}"',
                unit.position,
                "003 Assault landings 4a",
            )
        limit = altitude_limit(unit)
        if limit is not None and z > limit + LENGTH_TOL:
            judgement.add(
                "altitude_exceeded",
                f'{name} cannot be {fmt(z)}" up; its altitude limit is {fmt(limit)}"',
                unit.position,
                "003 Altitude limits",
            )
    elif not on_edge:
        judgement.add(
            "placement_invalid",
            f"{name} must enter with its centre on a table edge, or descend from above the table",
            unit.position,
            "003 Assault landings, 003 Off-board movement",
        )
    else:
        _entry_area(pos, judgement, unit)
    walked = walk(pos, judgement, unit, action, entering=on_edge)
    return finish(pos, judgement, unit, walked)


def entry_probe(pos: LgPosition, unit: Unit) -> Verdict:
    """`enter_board` judged with no path: how the entry point itself fares (on an edge,
    the side's entry area, a landing from above, 003 Off-board movement, 003 Assault
    landings). The board's offers and the reach both ask it; judged once per position."""
    key = f"lasergrenadiers.entry_probe.{unit.id}.{unit.position!r}.{unit.z!r}"
    return pos.state.memo(key, lambda: enter_board(pos, unit, Action(unit.id, "enter_board")))


def _entry_area(pos: LgPosition, judgement: SpeedBandJudgement, unit: Unit) -> None:
    """On the owner's entry area; with `delayed_entry`, anywhere on an edge but the
    opponent's entry area (003 Off-board movement 4)."""
    areas = pos.state.turn.get("entry_areas")
    if not isinstance(areas, dict):
        return
    point = Point(unit.position)

    def on(segments: object) -> bool:
        return isinstance(segments, list) and any(
            LineString(seg).distance(point) <= CONTACT for seg in segments
        )

    name = who(unit)
    if pos.options.delayed_entry:
        foes = [side for side, segs in areas.items() if side != unit.side and on(segs)]
        if foes:
            judgement.add(
                "placement_invalid",
                f"{name} may not enter through {foes[0]}'s entry area",
                unit.position,
                "003 Off-board movement 4",
            )
    elif not on(areas.get(unit.side)):
        judgement.add(
            "placement_invalid",
            f"{name} must enter on {unit.side}'s entry area (the "
            "optional delayed entry rule is off)",
            unit.position,
            "003 Off-board movement 1",
        )
