"""`traverse` (1 AP): climbing over an obstacle, or through a gap too narrow for the
base (004 Obstacles, 004 Size Restrictions; apskirmish.md 5, APS-D6, APS-D7, APS-D20,
APS-D21, APS-D30, APS-D31).

Along the ray from the centre through the path's one point, t1 is where the base first
touches an obstacle and t2 where, having begun to overlap obstacles, it overlaps none.
An INS Traverse roll decides: success (or a failure paid with +1 Threshold) places the
base at t2, touching the far face; a failure otherwise stops it at t1, the near side.
The facing does not change, and no distance limit applies (APS-D31).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from rules.engine.judgement import who
from rules.engine.move_in_play import MoveInPlay
from rules.engine.numbers import LENGTH_TOL, fmt
from rules.engine.placement import Obstruction, obstructions
from rules.geometry.bases import body_at
from rules.geometry.ray_crossing import Crossing, cross
from rules.geometry.track import Pose
from rules.model.actions import Action
from rules.model.state import Terrain, Unit
from rules.systems.apskirmish.board import ApsPosition
from rules.systems.apskirmish.moves import Measured, SoldierAction, points_after_start
from rules.systems.apskirmish.rolls import rolled
from rules.systems.apskirmish.soldiers import after_spending, check_turn_and_ap, per_ap
from rules.systems.apskirmish.tables import ACTIONS, TRAVERSE_REACH

CITE = "004 Obstacles"


def direction_point(unit: Unit, action: Action) -> tuple[float, float] | str:
    """The path's one point (a first point equal to the start is ignored), or why the
    action is malformed."""
    points = points_after_start(unit, action)
    if len(points) != 1:
        return f"a traverse gives one point, the direction of crossing (APS-D20), not {len(points)}"
    return (points[0].x, points[0].y)


@dataclass(frozen=True)
class Way:
    """What a traverse along one direction meets: the crossing, the obstacle met first,
    how far the base is from it, and where it lands beyond (t2; None: no room)."""

    pos: ApsPosition
    unit: Unit
    crossing: Crossing
    met: Terrain
    gap: float

    @cached_property
    def far(self) -> Pose | None:
        return None if self.crossing.far is None else self.crossing.pose_at(self.crossing.far)

    @cached_property
    def blocked(self) -> list[Obstruction]:
        """What keeps the base from standing at t2 but obstacles: a base, the table edge."""
        if self.far is None:
            return []
        found = obstructions(self.pos, self.unit.base, self.far, ignore=(self.unit.id,))
        return [o for o in found if o.kind != "terrain"]

    @property
    def lands(self) -> bool:
        """A traverse that way is allowed: the obstacle within reach, the landing free."""
        return self.gap <= TRAVERSE_REACH + LENGTH_TOL and self.far is not None and not self.blocked


def traverse_way(pos: ApsPosition, unit: Unit, direction: tuple[float, float]) -> Way | None:
    """The way a traverse along `direction` goes, or None where it meets no obstacle."""
    start = Pose(unit.position[0], unit.position[1], unit.facing)
    table = pos.state.table
    length = math.hypot(table.width, table.height) + 2 * unit.base.radius
    crossing = cross(unit.base, start, direction, length, pos.obstacle_shapes())
    if crossing is None:
        return None
    met = next(t for t in pos.obstacles if t.id == crossing.met)
    gap = body_at(unit.base, *start.xy, start.facing).distance(met.shape)
    return Way(pos, unit, crossing, met, gap)


class Traverse(SoldierAction):
    """`traverse` as the kernel plays a move (rules/engine/play.py)."""

    def malformed(self, unit: Unit, action: Action) -> tuple[str, str, float] | None:
        target = direction_point(unit, action)
        return (target, "APS-D20", per_ap(unit)) if isinstance(target, str) else None

    def check_may_move(self, move: MoveInPlay) -> None:
        """Whose activation and the AP; which obstacle is too far is the crossing's."""
        check_turn_and_ap(move.judgement, move.position, move.unit, "traverse")

    def measure_path(self, move: MoveInPlay) -> Measured:
        """The crossing along the ray: an obstacle met within 1", room beyond it."""
        judgement, position, unit, action = move.judgement, move.position, move.unit, move.action
        target = direction_point(unit, action)
        assert not isinstance(target, str)  # `malformed` refused it before any judging
        (x, y), start = target, unit.position
        way = traverse_way(position, unit, (x - start[0], y - start[1]))
        if way is None:
            judgement.add(
                "action_not_allowed",
                f"{who(unit)} meets no obstacle in that direction: nothing to traverse",
                unit.position,
                CITE,
            )
            return Measured(0.0)
        met = way.met
        if way.gap > TRAVERSE_REACH + LENGTH_TOL:
            judgement.add(
                "action_not_allowed",
                f'{who(unit)} is {fmt(way.gap)}" from obstacle {met.id}; '
                f'a Traverse needs it within {fmt(TRAVERSE_REACH)}"',
                unit.position,
                f"{CITE}, APS-D6",
            )
        if way.far is None:
            judgement.add(
                "placement_invalid",
                f"{who(unit)} finds no room beyond obstacle {met.id}",
                unit.position,
                "APS-D7",
            )
        elif way.blocked:
            judgement.add(
                "placement_invalid",
                f"{who(unit)} cannot land beyond obstacle {met.id} "
                f"at ({fmt(way.far.x)}, {fmt(way.far.y)}): {way.blocked[0].reason}",
                way.far.xy,
                "APS-D7",
            )
        return Measured(0.0 if way.far is None else math.dist(way.far.xy, start), way)

    def end_of_move(self, move: MoveInPlay) -> Unit:
        """The Traverse roll: a failure stops at the near side, or pays +1 Threshold."""
        assert isinstance(move.priced, Measured)  # what `measure_path` gives
        judgement, way, unit = move.judgement, move.priced.measured, move.unit
        assert isinstance(way, Way) and way.far is not None  # a legal crossing
        crossing = way.crossing
        roll = rolled(judgement, move.dice, move.position.tests, unit, "traverse")
        if roll is None:
            return unit
        end, threshold = way.far, 0
        if roll.success is False:
            if move.action.get("on_fail", "stop") == "threshold":
                threshold = 1  # +1 Threshold to reach the other side (004 Obstacles)
            else:  # "stop", and "shorten" read as "stop" (APS-D21): the near side, t1
                end = crossing.pose_at(crossing.near)
        judgement.cost = math.dist(end.xy, unit.position)
        moved = unit.moved(end.xy, unit.facing) if end.xy != unit.position else unit
        return after_spending(
            moved, ACTIONS["traverse"].ap, activates=True, extra_threshold=threshold
        )
