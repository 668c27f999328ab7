"""`move`, `overrun` and `enter_board` (lasergrenadiers.md 2-8, 10, 11), played by the
kernel's `Play.move` through `LgMove`'s hooks."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from shapely.geometry import LineString, Point

from rules.engine.allowance import Allowance, needs_message
from rules.engine.dice import Dice, make_dice
from rules.engine.judgement import AFTER, PathJudgement, moved_event, who
from rules.engine.move_in_play import MoveInPlay
from rules.engine.numbers import LENGTH_TOL, fmt
from rules.engine.play import Play
from rules.engine.verdict import Verdict
from rules.geometry.bases import body_at
from rules.geometry.direction import bearing
from rules.geometry.line_of_movement import stretches_inside
from rules.geometry.tolerance import CONTACT, OVERLAP
from rules.model.actions import Action
from rules.model.state import GameState, Unit
from rules.systems.lasergrenadiers.accounting import (
    banded,
    coupling_breaches,
    damaged_transport_breach,
    moved,
    remaining,
    speed_band,
    transfers,
)
from rules.systems.lasergrenadiers.changes import after, placed
from rules.systems.lasergrenadiers.path import Walked, walk
from rules.systems.lasergrenadiers.pieces import (
    allowance_of,
    altitude_limit,
    is_infantry_or_crew,
    is_vehicle,
)
from rules.systems.lasergrenadiers.terrain import LgPosition


def never_returns(judgement: PathJudgement, name: str) -> None:
    """A piece that left the board never returns (003 Leaving the board 1)."""
    message = f"{name} has left the board: it may not return"
    judgement.add("action_not_allowed", message, None, "003 Leaving the board 1")


def can_act(pos: LgPosition, judgement: PathJudgement, unit: Unit, action: Action) -> None:
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
    judgement: PathJudgement,
    unit: Unit,
    walked: Walked,
) -> None:
    """The cost against what is left; then the transport inequalities and damaged
    transports for everything this piece moved this turn (lasergrenadiers.md 2, 9)."""
    state, cost = pos.state, walked.cost
    left = remaining(state, unit)
    if cost > left + LENGTH_TOL:
        extra = cost - walked.price.total  # paid besides the path (over an overrun's target)
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


class LgMove(Play):
    """`move`, `overrun` and `enter_board` as the kernel plays a move (rules/engine/play.py):
    one instance per action, which keeps what its checks find for the hooks after them
    (the overrun's target, an entry, what it overran). `refusal` has refused a piece that
    may not act and an overrun without a target on the table."""

    def __init__(self) -> None:
        self.target: Unit | None = None
        #: An `enter_board` from a table edge (not a landing from above).
        self.entering = False
        self.before = 0.0
        self.extra_events: list[dict[str, object]] = []
        self.removed: tuple[str, ...] = ()

    def move(self, position: LgPosition, unit: Unit, action: Action, dice: Dice) -> Verdict:
        """The verdict with the unit's speed band (lasergrenadiers.md 8)."""
        self.before = moved(position.state, unit.id)
        verdict = super().move(position, unit, action, dice)
        return banded(verdict, speed_band(unit, self.before + verdict.cost))

    def check_may_move(self, move: MoveInPlay) -> None:
        position, judgement, unit, action = move.position, move.judgement, move.unit, move.action
        if action.type == "overrun":
            self.target = position.state.unit(str(action.get("target")))
            assert self.target is not None  # `refusal` refused an overrun without one
            _overrun_conditions(judgement, unit, self.target)
        elif action.type == "enter_board":
            self.entering = _entry_point(position, judgement, unit)

    def allowance(self, move: MoveInPlay) -> Allowance:
        """What is left this turn (lasergrenadiers.md 2)."""
        return Allowance(remaining(move.position.state, move.unit))

    def measure_path(self, move: MoveInPlay) -> Walked:
        """The path walked (an overrun's over its target at its own rate, LG-D9) with all it
        breaks, the allowance and the transport inequalities included."""
        position, judgement, unit, action = move.position, move.judgement, move.unit, move.action
        target = self.target
        ignore = frozenset() if target is None else frozenset({target.id})
        walked = walk(position, judgement, unit, action, ignore=ignore, entering=self.entering)
        if target is not None:
            walked = replace(walked, over=_cost_over(position, unit, target, walked))
            overran(self, judgement, position, unit, target, walked)
        charge_allowance(position, judgement, unit, walked)
        return walked

    def move_events(self, move: MoveInPlay) -> list[dict[str, Any]]:
        unit, walked = move.unit, move.priced
        assert isinstance(walked, Walked)  # what measure_path gives
        if walked.leaves_board:
            return [{"type": "left_board", "unit": unit.id}]
        mover = placed(unit, walked.end, walked.end_z)
        event = moved_event(mover)
        if mover.z is not None:
            event["z"] = round(mover.z, 4)
        events = [event]
        if not walked.climbs and walked.cost > 0 and self.before <= LENGTH_TOL:
            # For fire at it, a piece that only rotated counts as stationary (003 Movement
            # and fire 4).
            events.append({"type": "rotated_in_place", "unit": unit.id})
        return events + self.extra_events

    def after_move(self, move: MoveInPlay) -> GameState:
        unit, state, walked = move.unit, move.position.state, move.priced
        assert isinstance(walked, Walked)  # what measure_path gives
        spent = {unit.id: self.before + walked.cost}
        if walked.leaves_board:
            return after(state, spent=spent, left_board=[unit.id], removed=self.removed)
        mover = placed(unit, walked.end, walked.end_z)
        translated = [unit.id] if walked.translates else []
        return after(state, [mover], spent=spent, removed=self.removed, translated=translated)


# -- overrun ------------------------------------------------------------------------------

OVERRUN_CITE = "003 Overrun attacks"


def overrun_target(pos: LgPosition, judgement: PathJudgement, unit: Unit, action: Action) -> None:
    """An overrun names a piece on the table (003 Overrun attacks)."""
    tid = action.get("target")
    target = pos.state.unit(tid) if isinstance(tid, str) else None
    if target is None or target.aboard is not None:
        judgement.add(
            "unknown_unit" if isinstance(tid, str) else "malformed",
            f"{who(unit)}'s overrun names no piece to run over"
            if tid is None
            else f"{tid} is not on the table to run over",
            None,
            OVERRUN_CITE,
        )


def overran(
    move: LgMove,
    judgement: PathJudgement,
    pos: LgPosition,
    unit: Unit,
    target: Unit,
    walked: Walked,
) -> None:
    """Into the target's base in one stretch and beyond it; a piece in a foxhole survives
    unless 2/3 of the allowance is spent over it (003 Overrun 4-5, LG-D9)."""
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
    spent_over = walked.over[1]
    needed = 2 / 3 * allowance_of(unit)
    if not target.flag("foxhole") or spent_over >= needed - LENGTH_TOL:
        move.extra_events.append({"type": "overrun", "unit": unit.id, "target": target.id})
        move.removed = (target.id,)
        return
    move.extra_events.append(
        {
            "type": "overrun_failed",
            "unit": unit.id,
            "target": target.id,
            "why": f'{fmt(spent_over)}" spent over the foxhole, '
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


def _overrun_conditions(judgement: PathJudgement, unit: Unit, target: Unit) -> None:
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
            judgement = PathJudgement(pos.state)
            _overrun_conditions(judgement, unit, target)
            if judgement.legal:
                out.append(target)
    return out


def _cost_over(pos: LgPosition, unit: Unit, target: Unit, walked: Walked) -> tuple[float, float]:
    """(normal cost of the centre path inside the target's base, 3 x the attacker's cost
    per inch there in the terrain the target is on, road rate usable) (LG-D9)."""
    view = pos.view(unit)
    body = pos.bodies[target.id].polygon()
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


def _entry_point(pos: LgPosition, judgement: PathJudgement, unit: Unit) -> bool:
    """On a table edge (then True), or a landing from above within the full movement and
    the altitude limit (003 Off-board movement, 003 Assault landings 4a)."""
    table = pos.state.table
    x, y = unit.position
    z = unit.z or 0.0
    edge = min(abs(x), abs(y), abs(table.width - x), abs(table.height - y))
    within = -CONTACT <= x <= table.width + CONTACT and -CONTACT <= y <= table.height + CONTACT
    on_edge = within and edge <= CONTACT and z <= LENGTH_TOL
    name = who(unit)
    if on_edge:
        _entry_area(pos, judgement, unit)
    elif within and z > LENGTH_TOL:
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
    else:
        judgement.add(
            "placement_invalid",
            f"{name} must enter with its centre on a table edge, or descend from above the table",
            unit.position,
            "003 Assault landings, 003 Off-board movement",
        )
    return on_edge


def entry_probe(pos: LgPosition, unit: Unit) -> Verdict:
    """`enter_board` judged with no path: how the entry point itself fares (on an edge,
    the side's entry area, a landing from above, 003 Off-board movement, 003 Assault
    landings). The board's offers and the reach both ask it; judged once per position."""
    key = f"lasergrenadiers.entry_probe.{unit.id}.{unit.position!r}.{unit.z!r}"
    probe = Action(unit.id, "enter_board")
    return pos.state.memo(key, lambda: LgMove().move(pos, unit, probe, make_dice(dice=[])))


def _entry_area(pos: LgPosition, judgement: PathJudgement, unit: Unit) -> None:
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
