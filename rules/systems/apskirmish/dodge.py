"""`dodge`: a reaction to an attack, out of turn (004 Dodging; apskirmish.md 5,
APS-D11, APS-D12, APS-D34).

A soldier not yet activated pays 1 AP; one already activated takes +1 Threshold
instead. The Dodge roll (Normal, Opt Up allowed) decides: success moves the centre 1"
straight away from the attack's `source`, facing unchanged, stopping at the first
contact with an obstacle, another base or the table edge (contact it moves away from
does not stop it); failure moves nothing, and the cost is still paid. A Dodge does not
activate the soldier.
"""

from __future__ import annotations

import math

from rules.engine.dice import Dice
from rules.engine.judgement import PathJudgement, moved_event, who
from rules.engine.verdict import Verdict
from rules.geometry.contact import first_overlap
from rules.geometry.raycast import first_contact, ray_track
from rules.geometry.tolerance import CONTACT
from rules.geometry.track import Pose
from rules.model.actions import Action
from rules.model.state import Unit
from rules.systems.apskirmish.activation import check_turn_and_ap
from rules.systems.apskirmish.board import ApsPosition
from rules.systems.apskirmish.rolls import test
from rules.systems.apskirmish.soldiers import after_spending
from rules.systems.apskirmish.tables import DODGE_DISTANCE

CITE = "004 Dodging"


def dodge(pos: ApsPosition, unit: Unit, action: Action, dice: Dice) -> Verdict:
    judgement = PathJudgement(pos.state)
    judgement.allowance = DODGE_DISTANCE
    source = action.get("source")
    if source is None:
        judgement.add(
            "malformed", "a dodge needs `source`, the attack's origin", unit.position, CITE
        )
        return judgement.verdict()
    sx, sy = float(source[0]), float(source[1])
    away = (unit.position[0] - sx, unit.position[1] - sy)
    if math.hypot(*away) <= 1e-9:
        judgement.add(
            "malformed",
            f"the attack's source is {who(unit)}'s own position: no direction to dodge in",
            unit.position,
            "apskirmish 5, 004 Dodging",
        )
        return judgement.verdict()
    activated = unit.flag("activated")
    if not activated:
        check_turn_and_ap(judgement, pos, unit, "dodge")
    if not judgement.legal:
        return judgement.verdict()
    roll = test(
        dice,
        pos.options,
        unit,
        "dodge",
        'whether the soldier dodges 1" away',
        levels_up=int(action.get("opt_up", 0)),
    )
    judgement.rolls.append(roll)
    if roll.waiting:
        judgement.add(
            "roll_required",
            f"{who(unit)} dodges: the GM must give the Dodge roll's result",
            unit.position,
            f"{CITE}, APS-D1",
        )
        return judgement.verdict()
    moved = unit
    if roll.success is not False:
        distance = _free_distance(pos, unit, away)
        if distance > 0:
            norm = math.hypot(*away)
            moved = unit.moved(
                (
                    unit.position[0] + away[0] / norm * distance,
                    unit.position[1] + away[1] / norm * distance,
                ),
                unit.facing,
            )
        judgement.cost = distance
    moved = after_spending(
        moved, 0 if activated else 1, activates=False, extra_threshold=1 if activated else 0
    )
    if moved.position != unit.position:
        judgement.events.append(moved_event(moved))
    judgement.events.append(
        {
            "type": "dodge",
            "unit": unit.id,
            "result": "unresolved"
            if roll.success is None
            else "success"
            if roll.success
            else "fail",
            "levels_up": int(action.get("opt_up", 0)),
        }
    )
    return judgement.verdict(pos.state.with_units(moved))


def _free_distance(pos: ApsPosition, unit: Unit, away: tuple[float, float]) -> float:
    """How far the base goes away from the attack before its first contact (APS-D11)."""
    others = [(o.id, pos.bodies[o.id]) for o in pos.on_table if o.id != unit.id]
    start = Pose(unit.position[0], unit.position[1], unit.facing)
    obstacles = pos.obstacle_shapes()
    # Something already touching the base stops it at once if the dodge goes into it:
    # touching is a zero gap (APS-D30), so the soldier does not move.
    here = pos.bodies[unit.id]
    track = ray_track(unit.base, start, away, DODGE_DISTANCE)
    for _, target in [*obstacles, *others]:
        if here.distance(target) <= CONTACT and first_overlap(track, target) is not None:
            return 0.0
    hit = first_contact(
        unit.base,
        start,
        away,
        DODGE_DISTANCE,
        terrain=obstacles,
        bases=others,
        table=pos.state.table,
    )
    return DODGE_DISTANCE if hit is None else min(hit.distance, DODGE_DISTANCE)
