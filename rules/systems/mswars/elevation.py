"""Climb, Jump and Fall (002 Climb Action, 002 Jump Action, 002 Falling; MSW-D13,
MSW-D14, MSW-D23, MSW-D29, MSW-D44)."""

from __future__ import annotations

import math
from typing import Any

from rules.engine.dice import Dice
from rules.engine.judgement import AFTER, PathJudgement, moved_event, who
from rules.engine.numbers import fmt
from rules.engine.placement import obstruction
from rules.engine.priced_path import PricedTrack
from rules.engine.verdict import Roll
from rules.geometry.bases import body_at
from rules.geometry.edge_placement import faces_polygon, inside_across_edge
from rules.geometry.sweeps import first_beyond
from rules.geometry.tolerance import CONTACT, EVENT, OVERLAP
from rules.geometry.track import Pose
from rules.model.actions import Action, Waypoint
from rules.model.state import Terrain, Unit
from rules.systems.mswars.tables import JUMP_MARGIN, MECHA_TYPES
from rules.systems.mswars.terrain import ELEVATED, MswarsPosition, is_infantry, move_type

CLIMB = "002 Climb Action"
JUMP = "002 Jump Action"


def facing_it(unit: Unit, polygon: Any) -> bool:
    """The nearest point of the feature lies within +-45 degrees of the facing (MSW-D23)."""
    return faces_polygon(*unit.position, unit.facing, polygon)


def in_contact(unit: Unit, polygon: Any) -> bool:
    return body_at(unit.base, *unit.position, unit.facing).distance(polygon) <= CONTACT


def check_climb(pos: MswarsPosition, judgement: PathJudgement, unit: Unit, action: Action) -> None:
    """The unit may climb the feature (`climbable`), and is placed on top: inward across
    the contacted edge, free of other bases; a one-point path must be that placement
    (002 Climb Action, MSW-D23)."""
    feature = climbable(pos, judgement, unit, action)
    if feature is None or not judgement.legal:
        return
    pose = inside_across_edge(unit.base, *unit.position, unit.facing, feature.shape)
    problems: list[str] = ["no pose on top touches the edge"] if pose is None else []
    blocked = (
        None
        if pose is None
        else obstruction(
            pos, unit.base, Pose(*pose, unit.facing), forbidden=lambda t: False, ignore={unit.id}
        )
    )
    if blocked is not None:
        problems.append(blocked.reason)
    if pose is not None and not problems:
        wanted = [s for s in action.path if isinstance(s, Waypoint)]
        if len(action.path) > 1 or (action.path and not wanted):
            problems.append("a Climb path is one point: the placement")
        elif wanted and math.dist((wanted[0].x, wanted[0].y), pose) > CONTACT:
            problems.append(
                f"the placement is ({fmt(pose[0])}, {fmt(pose[1])}), not "
                f"({fmt(wanted[0].x)}, {fmt(wanted[0].y)})"
            )
    if problems:
        judgement.add(
            "placement_invalid",
            f"{who(unit)} cannot be placed on top of {feature.id}: {'; '.join(problems)}",
            pose or unit.position,
            CLIMB,
            AFTER,
        )


def climbed(judgement: PathJudgement, pos: MswarsPosition, unit: Unit, action: Action) -> Unit:
    """The unit on top of the feature it climbs, with the climb's events: placed, and no
    weapon or equipment for the rest of the turn (002 Climb Action)."""
    feature = climbed_feature(pos, unit, action)
    assert feature is not None  # `check_climb` found it
    pose = inside_across_edge(unit.base, *unit.position, unit.facing, feature.shape)
    assert pose is not None
    moved = unit.moved(pose, unit.facing)
    judgement.events += [
        moved_event(moved),
        {"type": "climbed", "unit": unit.id, "onto": feature.id},
        {"type": "no_weapons", "unit": unit.id, "until": "end of turn"},
    ]
    return moved


def climbable(
    pos: MswarsPosition, judgement: PathJudgement, unit: Unit, action: Action
) -> Terrain | None:
    """The feature a Climb goes onto, once the unit may climb it: a mecha or infantry with
    free hands and no weapon used, in base contact with elevated terrain of SC at most its
    own + 2 and facing it (002 Climb Action, MSW-D23). Every breach is added to `judgement`."""
    at = unit.position
    view = pos.view(unit)
    if not (move_type(unit) in MECHA_TYPES or is_infantry(unit)):
        judgement.add(
            "action_not_allowed",
            f"only mecha and infantry climb; {who(unit)} is a {unit.type.replace('_', ' ')}",
            at,
            "002 Climb Action, MSW-D23",
        )
    if unit.get("free_hands") is not True or unit.get("used_weapon"):
        judgement.add(
            "action_not_allowed",
            f"{who(unit)} needs two free hands and no weapon used this turn to climb",
            at,
            CLIMB,
        )
    feature = climbed_feature(pos, unit, action)
    tid = action.get("target")
    if feature is None and tid is not None:  # an unknown id is malformed (mswars.md 7, Climb)
        judgement.add("malformed", f"action.target: no terrain {tid!r}", None, "")
    elif feature is None:
        judgement.add(
            "action_not_allowed", f"{who(unit)}'s base touches no elevated terrain", at, CLIMB
        )
    if feature is None:
        return None
    if feature.type != ELEVATED or view.row(feature) != ELEVATED:
        judgement.add(
            "action_not_allowed",
            f"{feature.id} is not elevated terrain for {who(unit)}: nothing to climb",
            at,
            "002 Terrain",
        )
        return None
    size = pos.elevated_classes[feature.id]
    if size > view.size_class + 2:
        judgement.add(
            "action_not_allowed",
            f"{feature.id} is size class {size}: {who(unit)} (SC "
            f"{view.size_class}) climbs at most SC {view.size_class + 2}",
            at,
            CLIMB,
        )
    if view.top_under(unit.position) is feature:
        judgement.add(
            "action_not_allowed", f"{who(unit)} is already on top of {feature.id}", at, CLIMB
        )
    elif not in_contact(unit, feature.shape):
        judgement.add(
            "action_not_allowed",
            f"{who(unit)} must be in base contact with {feature.id} to climb it",
            at,
            CLIMB,
        )
    elif not facing_it(unit, feature.shape):
        judgement.add(
            "action_not_allowed",
            f"{who(unit)} must face {feature.id} to climb it",
            at,
            "002 Climb Action, MSW-D23",
        )
    return feature


def climbed_feature(pos: MswarsPosition, unit: Unit, action: Action) -> Terrain | None:
    """`target` names the feature (a terrain id); else the elevated one the base touches,
    the one it faces first."""
    tid = action.get("target")
    if tid is not None:
        return next((t for t in pos.state.terrain if t.id == tid), None)
    touching = [t for t in pos.view(unit).elevated() if in_contact(unit, t.shape)]
    first = touching[0] if touching else None
    return next((t for t in touching if facing_it(unit, t.shape)), first)


def jump_top(pos: MswarsPosition, unit: Unit) -> Terrain | None:
    """The elevated top a unit stands on and may jump from (None when aboard)."""
    return pos.view(unit).top_under(unit.position) if unit.aboard is None else None


def check_jump_start(judgement: PathJudgement, unit: Unit, top: Terrain | None) -> None:
    """A Jump starts on top of elevated terrain; static units never jump (002 Jump Action)."""
    if move_type(unit) == "static" or top is None:
        judgement.add(
            "action_not_allowed",
            f"{who(unit)} cannot jump: "
            f"{'static units never jump' if top else 'it is not on elevated terrain'}",
            unit.position,
            JUMP,
        )


def check_jumped(
    pos: MswarsPosition, judgement: PathJudgement, unit: Unit, priced: PricedTrack
) -> None:
    """From a top, off its edge, one straight line after the edge, landing with the base
    wholly off it (002 Jump Action, MSW-D13, MSW-D45)."""
    top = jump_top(pos, unit)
    check_jump_start(judgement, unit, top)
    if top is None:
        return
    track = priced.track
    leaves = first_beyond(track, [top.shape], EVENT) if track.translates else None
    if leaves is None:
        judgement.add(
            "action_not_allowed",
            f"{who(unit)}'s path never leaves {top.id}: a Jump goes off the edge",
            priced.end.xy,
            JUMP,
            AFTER,
        )
    elif int(min(leaves, track.tau_end - 1e-9)) < len(track.motions) - 1:
        judgement.add(
            "action_not_allowed",
            f"{who(unit)}'s movement ends as it lands: after the edge "
            "the path is one straight line",
            track.pose_at(leaves).xy,
            "MSW-D13, MSW-D45",
            track.s_at(leaves),
        )
    end = priced.end
    if body_at(unit.base, end.x, end.y, end.facing, OVERLAP).distance(top.shape) < 0:
        judgement.add(
            "action_not_allowed",
            f"{who(unit)} must land with its base entirely off {top.id}",
            end.xy,
            "MSW-D13, MSW-D45",
            AFTER,
        )


def landed(
    judgement: PathJudgement, pos: MswarsPosition, unit: Unit, end: Pose, dice: Dice
) -> Unit:
    """The unit where it lands, told there; from too high a top it falls (002 Jump Action,
    MSW-D29)."""
    moved = unit.moved(end.xy, end.facing)
    judgement.events.append(moved_event(moved))
    top = jump_top(pos, unit)
    assert top is not None  # `check_jumped` found it
    view = pos.view(unit)
    size = pos.elevated_classes[top.id]
    if size > view.size_class - JUMP_MARGIN.get(view.type, 0):
        moved = fall(judgement, moved, top, size, view.size_class, dice)
    return moved


def fall(
    judgement: PathJudgement, unit: Unit, feature: Terrain, size: int, unit_size: int, dice: Dice
) -> Unit:
    """SC d6 damage, no shields, no more actions this turn, Endurance X+1 (002 Falling,
    MSW-D14, MSW-D29, MSW-D42)."""
    results = [dice.d6(f"fall damage from {feature.id}") for _ in range(size)]
    for r in results:
        judgement.rolls.append(Roll(f"fall damage from {feature.id}", "d6", r, "damage", True))
    judgement.events.append(
        {
            "type": "fell",
            "unit": unit.id,
            "from": feature.id,
            "size_class": size,
            # A preview rolls nothing: the damage is known only on the drop.
            "dice": results,
            "damage": None if None in results else sum(r for r in results if r is not None),
            "shields": False,
        }
    )
    x = max(0, math.ceil((size - unit_size) / 2))
    outcome = dice.outcome(f"endurance test of {unit.id}")
    judgement.events.append(
        {
            "type": "endurance_test",
            "unit": unit.id,
            "x": x,
            "target": x + 1,
            "test": f"Endurance {x}+1",
            "result": "unresolved" if outcome is None else "pass" if outcome else "fail",
        }
    )
    return unit.with_props(fallen="this_turn")
