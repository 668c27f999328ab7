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

from rules.engine.dice import Dice
from rules.engine.judgement import PathJudgement, moved_event, who
from rules.engine.numbers import LENGTH_TOL, fmt
from rules.engine.placement import obstructions
from rules.engine.verdict import Verdict
from rules.geometry.bases import body_at
from rules.geometry.ray_crossing import cross
from rules.geometry.track import Pose
from rules.model.actions import Action
from rules.model.state import Unit
from rules.systems.apskirmish.activation import after_activation_action, check_turn_and_ap
from rules.systems.apskirmish.board import ApsPosition
from rules.systems.apskirmish.moves import points_after_start
from rules.systems.apskirmish.rolls import test
from rules.systems.apskirmish.soldiers import after_spending, per_ap
from rules.systems.apskirmish.tables import ACTIONS, TRAVERSE_REACH

CITE = "004 Obstacles"


def direction_point(unit: Unit, action: Action) -> tuple[float, float] | str:
    """The path's one point (a first point equal to the start is ignored), or why the
    action is malformed."""
    points = points_after_start(unit, action)
    if len(points) != 1:
        return f"a traverse gives one point, the direction of crossing (APS-D20), not {len(points)}"
    return (points[0].x, points[0].y)


def traverse(pos: ApsPosition, unit: Unit, action: Action, dice: Dice) -> Verdict:
    judgement = PathJudgement(pos.state)
    judgement.allowance = per_ap(unit)
    target = direction_point(unit, action)
    if isinstance(target, str):
        judgement.add("malformed", target, unit.position, "APS-D20")
        return judgement.verdict()
    check_turn_and_ap(judgement, pos, unit, "traverse")
    start = Pose(unit.position[0], unit.position[1], unit.facing)
    direction = (target[0] - start.x, target[1] - start.y)
    table = pos.state.table
    length = math.hypot(table.width, table.height) + 2 * unit.base.radius
    crossing = cross(unit.base, start, direction, length, pos.obstacle_shapes())
    if crossing is None:
        judgement.add(
            "action_not_allowed",
            f"{who(unit)} meets no obstacle in that direction: nothing to traverse",
            unit.position,
            CITE,
        )
        return judgement.verdict()
    met = next(t for t in pos.obstacles if t.id == crossing.met)
    gap = body_at(unit.base, *start.xy, start.facing).distance(met.shape)
    if gap > TRAVERSE_REACH + LENGTH_TOL:
        judgement.add(
            "action_not_allowed",
            f'{who(unit)} is {fmt(gap)}" from obstacle {met.id}; '
            f'a Traverse needs it within {fmt(TRAVERSE_REACH)}"',
            unit.position,
            f"{CITE}, APS-D6",
        )
    far = None if crossing.far is None else crossing.pose_at(crossing.far)
    if far is None:
        judgement.add(
            "placement_invalid",
            f"{who(unit)} finds no room beyond obstacle {met.id}",
            unit.position,
            "APS-D7",
        )
    else:
        blocked = [
            o for o in obstructions(pos, unit.base, far, ignore=(unit.id,)) if o.kind != "terrain"
        ]
        if blocked:
            judgement.add(
                "placement_invalid",
                f"{who(unit)} cannot land beyond obstacle {met.id} "
                f"at ({fmt(far.x)}, {fmt(far.y)}): {blocked[0].reason}",
                far.xy,
                "APS-D7",
            )
    if not judgement.legal or far is None:
        judgement.cost = 0.0 if far is None else math.dist(far.xy, start.xy)
        return judgement.verdict()
    roll = test(
        dice,
        pos.options,
        unit,
        "traverse",
        "whether the soldier reaches the far side of the obstacle",
    )
    judgement.rolls.append(roll)
    judgement.cost = math.dist(far.xy, start.xy)
    if roll.waiting:
        judgement.add(
            "roll_required",
            f"{who(unit)} must make a Traverse roll: the GM must give its result",
            unit.position,
            f"{CITE}, APS-D1",
        )
        return judgement.verdict()
    on_fail = action.get("on_fail", "stop")
    threshold = 0
    end = far
    if roll.success is False:
        if on_fail == "threshold":
            threshold = 1  # +1 Threshold to reach the other side (004 Obstacles)
        else:  # "stop", and "shorten" read as "stop" (APS-D21): the near side, t1
            end = crossing.pose_at(crossing.near)
    judgement.cost = math.dist(end.xy, start.xy)
    moved = unit.moved(end.xy, unit.facing) if end.xy != start.xy else unit
    moved = after_spending(moved, ACTIONS["traverse"].ap, activates=True, extra_threshold=threshold)
    if moved.position != unit.position:
        judgement.events.append(moved_event(moved))
    return judgement.verdict(after_activation_action(pos.state.with_units(moved), unit))
