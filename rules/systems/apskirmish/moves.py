"""`move` (1 AP) and `run` (3 AP): one straight line, measured front to front
(004 Standard Movement, 004 Running; apskirmish.md 3-5).

The declared line is judged first, whole: the distance against the full allowance
(APS-D29), the line of movement against obstacles (`obstacle_crossed`), the swept base
against obstacles (`gap_too_narrow`, APS-D19), enemy bases, the table edge and, where
it ends, every base. Only a legal line makes its Terrain roll when the line of
movement passes over rough ground (one roll per AP move or run, APS-D13); a failed
roll applies the declared `on_fail` (APS-D17, APS-D21, APS-D10, APS-D35).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from shapely.geometry import LineString

from rules.engine.allowance import Allowance
from rules.engine.bases_policy import check_bases
from rules.engine.dice import Dice
from rules.engine.judgement import PathJudgement, who
from rules.engine.move_in_play import MoveInPlay
from rules.engine.numbers import LENGTH_TOL, fmt, fmt_point
from rules.engine.path_checks import off_table
from rules.engine.play import Play
from rules.engine.priced_path import PricedTrack
from rules.engine.verdict import Verdict
from rules.geometry.contact import first_overlap
from rules.geometry.front import front_distance, front_line
from rules.geometry.front_shortening import fraction_at_front_distance
from rules.geometry.line_of_movement import first_over, passes_over
from rules.geometry.track import Pose, Track
from rules.model.actions import Action, Turn, Waypoint
from rules.model.state import GameState, Unit
from rules.systems.apskirmish.board import ApsPosition, FriendsPass
from rules.systems.apskirmish.rolls import rolled
from rules.systems.apskirmish.soldiers import after_spending, check_preconditions, per_ap
from rules.systems.apskirmish.tables import ACTIONS, DODGE_DISTANCE, FAILED_ROLL_LOSS, RUN_MOVES

STRAIGHT_CITE = "APS-D5"
#: How far each action may take the soldier, inches: the stance distance (APS-D14), a
#: run's three of them (APS-D25), a Dodge's 1" (004 Dodging).
DISTANCE: dict[str, Callable[[Unit], float]] = {
    "move": per_ap,
    "run": lambda unit: RUN_MOVES * per_ap(unit),
    "traverse": per_ap,
    "dodge": lambda unit: DODGE_DISTANCE,
}


@dataclass(frozen=True)
class Line:
    """A declared straight move: where the centre goes and the facing it ends with."""

    start: Pose
    end: Pose
    #: The path's turn steps (the base turns through them, then to `facing` if given).
    turns: tuple[Turn, ...]
    facing: float | None

    def track(self, unit: Unit) -> Track:
        """The swept base: translated with the start facing, then turned in place (3)."""
        steps: list[Waypoint | Turn] = [Waypoint(self.end.x, self.end.y), *self.turns]
        return Track.from_steps(unit.base, self.start, steps, self.facing)

    def movement(self, unit: Unit) -> LineString | Any:
        """The line of movement, front to front (004 Standard Movement)."""
        return front_line(unit.base, _pose(self.start), _pose(self.end))

    def cut(self, unit: Unit, distance: float) -> tuple[float | None, Pose]:
        """How far along the line (a fraction) the front has moved `distance`, and the
        pose there (None and the start where turning alone moves it further, APS-D28)."""
        f = fraction_at_front_distance(unit.base, self.start, self.end, distance)
        s, e = self.start, self.end
        return f, s if f is None else Pose(s.x + (e.x - s.x) * f, s.y + (e.y - s.y) * f, e.facing)


def points_after_start(unit: Unit, action: Action) -> list[Waypoint]:
    """The path's points; a first point equal to the start is ignored (contract)."""
    points = [s for s in action.path if isinstance(s, Waypoint)]
    x, y = unit.position[0], unit.position[1]
    first = points[0] if points else None
    if first and math.isclose(first.x, x, abs_tol=1e-9) and math.isclose(first.y, y, abs_tol=1e-9):
        return points[1:]
    return points


def declared_line(unit: Unit, action: Action) -> Line | str:
    """The action's line, or why it is malformed (more than one point, APS-D24)."""
    start = Pose(unit.position[0], unit.position[1], unit.facing)
    points = points_after_start(unit, action)
    if len(points) > 1:
        return f"a {action.type} is one straight line: give at most one point, not {len(points)}"
    turns = tuple(s for s in action.path if isinstance(s, Turn))
    facing = unit.facing + sum(t.angle for t in turns)
    if action.facing is not None:
        facing = action.facing  # the stated final facing wins (APS-D33)
    end = (points[0].x, points[0].y) if points else start.xy
    return Line(start, Pose(end[0], end[1], facing % 360.0), turns, action.facing)


def measured(unit: Unit, start: Pose, end: Pose) -> float:
    return front_distance(unit.base, _pose(start), _pose(end))


def _pose(p: Pose) -> tuple[float, float, float]:
    return (p.x, p.y, p.facing)


#: What a declared line breaks at an obstacle: the message after the soldier's name, and
#: the rule.
OBSTACLE_REFUSALS = {
    "obstacle_crossed": (
        "'s line of movement crosses obstacle {id} at {at}: go around it or Traverse",
        "004 Obstacles",
    ),
    "gap_too_narrow": (
        "'s base does not fit past obstacle {id} at {at}: treat the gap as an obstacle "
        "and Traverse",
        "004 Size Restrictions, APS-D19",
    ),
}


def check_line(judgement: PathJudgement, pos: ApsPosition, unit: Unit, line: Line) -> None:
    """Everything the declared line breaks, each at the first point it happens: the line
    of movement over an obstacle, else the swept base against it (APS-D19), then the
    table edge and the bases."""
    movement, track = line.movement(unit), line.track(unit)
    crossings = [(f, first_over(movement, f.shape)) for f in pos.obstacles]
    found = [("obstacle_crossed", f, over[1], over[0]) for f, over in crossings if over]
    overlaps = [(f, first_overlap(track, f.shape)) for f, over in crossings if over is None]
    found += [("gap_too_narrow", f, hit.at, hit.tau) for f, hit in overlaps if hit is not None]
    for code, feature, at, order in found:
        message, cite = OBSTACLE_REFUSALS[code]
        text = who(unit) + message.format(id=feature.id, at=fmt_point(at))
        judgement.add(code, text, at, cite, order)
    named = replace(unit, id=who(unit))
    judgement.found += off_table(named, track, pos.state.table, "apskirmish 3", by_tau=True)
    for s, v in check_bases(pos, unit, track, track.end, FriendsPass())[0]:
        order = track.tau_at_length(s) if v.code != "base_overlap" else track.tau_end
        judgement.add(v.code, v.message, v.at, v.cite, order)


def crosses_rough(pos: ApsPosition, unit: Unit, line: Line) -> bool:
    """A Terrain roll is needed when the line of movement traces over rough ground
    (004 Rough Terrain); a front that does not move traces nothing."""
    movement = line.movement(unit)
    if not isinstance(movement, LineString):
        return False
    return any(passes_over(movement, t.shape) for t in pos.rough)


@dataclass(frozen=True)
class Measured(PricedTrack):
    """What the kernel's move reads of an action before its end: the cost, inches (the
    front's distance on a move or run, the centre's on a Traverse, none yet on a Dodge),
    and what was measured (the declared Line, a Traverse's Way)."""

    spent: float
    measured: Any = None

    @property
    def cost(self) -> float:
        return self.spent


class SoldierAction(Play):
    """What every soldier's action keeps of the kernel's move (rules/engine/play.py): an
    action malformed for its type is refused first; the checks before any line
    (soldiers.py); no event where the soldier stays put; an activation's action
    makes the soldier the active one (APS-D23), a Dodge does not (APS-D34)."""

    def move(self, position: ApsPosition, unit: Unit, action: Action, dice: Dice) -> Verdict:
        wrong = self.malformed(unit, action)
        if wrong is None:
            return super().move(position, unit, action, dice)
        judgement = PathJudgement(position.state)
        judgement.allowance = wrong[2]
        judgement.add("malformed", wrong[0], unit.position, wrong[1])
        return judgement.verdict()

    def malformed(self, unit: Unit, action: Action) -> tuple[str, str, float] | None:
        """Hook: why an action is malformed for its type, the rule, and the allowance its
        refusal reports (before anything else is judged); None where it is not."""
        return None

    def allowance(self, move: MoveInPlay) -> Allowance:
        kind = move.action.type
        return Allowance(DISTANCE[kind](move.unit), cite=ACTIONS[kind].cite)

    def check_may_move(self, move: MoveInPlay) -> None:
        check_preconditions(move.judgement, move.position, move.unit, move.action.type)

    def move_events(self, move: MoveInPlay) -> list[dict[str, Any]]:
        """A soldier that stays put (a failed roll with "stop") shows no move."""
        unit, moved = move.unit, move.moved
        still = moved.position == unit.position and moved.facing == unit.facing
        return [] if still else super().move_events(move)

    def after_move(self, move: MoveInPlay) -> GameState:
        state: GameState = move.position.state.with_units(move.moved)
        # Where the position keeps `state.active_unit` (the live table does, None between
        # activations) the soldier that acts becomes the active one (APS-D23, APS-D3).
        if ACTIONS[move.action.type].activates and "active_unit" in state.turn:
            return state.with_turn(active_unit=move.unit.id)
        return state


class StraightMoves(SoldierAction):
    """`move` and `run` as the kernel plays a move, each one straight line measured front
    to front: these are the hooks where its rules differ."""

    def malformed(self, unit: Unit, action: Action) -> tuple[str, str, float] | None:
        """A `move` or `run` of more than one point (APS-D24)."""
        line = declared_line(unit, action)
        return (line, STRAIGHT_CITE, 0.0) if isinstance(line, str) else None

    def measure_path(self, move: MoveInPlay) -> Measured:
        """The declared line judged whole (APS-D29): its distance against the full
        allowance, then everything it breaks (`check_line`)."""
        judgement, unit, allowance = move.judgement, move.unit, move.allowance
        line = declared_line(unit, move.action)
        assert not isinstance(line, str)  # `refusal` refused it before any judging
        cost, full = measured(unit, line.start, line.end), allowance.value
        if cost > full + LENGTH_TOL:
            cut, at = line.cut(unit, full)
            judgement.add(
                "speed_exceeded",
                f'{who(unit)} would move {fmt(cost)}" front to front but has {fmt(full)}"',
                at.xy,
                allowance.cite,
                0.0 if cut is None else cut,
            )
        check_line(judgement, move.position, unit, line)
        return Measured(cost, line)

    def end_of_move(self, move: MoveInPlay) -> Unit:
        """The Terrain roll a line over rough ground makes, what a failure does
        (`on_fail`), the AP the action spends and a run's Running token."""
        judgement, position, unit, action = move.judgement, move.position, move.unit, move.action
        assert isinstance(move.priced, Measured)  # what `measure_path` gives
        line, running = move.priced.measured, action.type == "run"
        end, threshold = line.end, 0
        if crosses_rough(position, unit, line):
            roll = rolled(judgement, move.dice, position.tests, unit, "terrain")
            if roll is None:
                return unit
            if roll.success is False:
                end, threshold = _after_failed_roll(judgement, unit, line, action, running)
                running = False  # a failed run is not Running (004 Running)
        if end != line.end and end != line.start:
            # A cut-back move ends somewhere new: its base may not overlap another there.
            short = Line(line.start, end, line.turns, line.facing)
            found, _ = check_bases(position, unit, short.track(unit), end, FriendsPass())
            for _, violation in found:
                if violation.code == "base_overlap":
                    judgement.add(violation.code, violation.message, violation.at, violation.cite)
        if not judgement.legal:
            return unit
        moved = unit if end == line.start else unit.moved(end.xy, end.facing)
        moved = after_spending(moved, ACTIONS[action.type].ap, True, threshold)
        return moved.with_props(running=running) if action.type == "run" else moved


def _after_failed_roll(
    judgement: PathJudgement, unit: Unit, line: Line, action: Action, running: bool
) -> tuple[Pose, int]:
    """Where a failed Terrain roll leaves the soldier, and the Threshold it takes."""
    on_fail = action.get("on_fail", "shorten")
    reduced = judgement.allowance - FAILED_ROLL_LOSS
    if running:
        judgement.allowance = reduced  # a failed run drops to 8" whatever follows (004 Running)
    if on_fail == "stop":
        judgement.cost = 0.0  # stays where it is: a legal shorter move (APS-D21)
        return line.start, 0
    if on_fail == "threshold" and not running:
        return line.end, 1  # +1 Threshold keeps the full move (004 Rough Terrain)
    judgement.allowance = reduced
    if judgement.cost <= reduced + LENGTH_TOL:
        return line.end, 0
    cut, end = line.cut(unit, reduced)
    if on_fail == "threshold":  # not available for a run: held to 8" (APS-D10)
        judgement.add(
            "speed_exceeded",
            f"{who(unit)} failed the Terrain roll: a run is held to "
            f'{fmt(reduced)}" (Threshold cannot keep it), not {fmt(judgement.cost)}"',
            end.xy,
            "004 Running, APS-D10",
        )
        return line.start, 0
    judgement.cost = 0.0 if cut is None else measured(unit, line.start, end)
    return end, 0
