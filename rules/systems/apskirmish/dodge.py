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

from rules.engine.judgement import who
from rules.engine.move_in_play import MoveInPlay
from rules.geometry.raycast import first_contact
from rules.geometry.track import Pose
from rules.model.actions import Action
from rules.model.state import Unit
from rules.systems.apskirmish.board import ApsPosition
from rules.systems.apskirmish.moves import Measured, SoldierAction
from rules.systems.apskirmish.rolls import rolled
from rules.systems.apskirmish.soldiers import after_spending
from rules.systems.apskirmish.tables import DODGE_DISTANCE


def away_from_source(unit: Unit, action: Action) -> tuple[float, float]:
    """The way from the attack's `source` through the soldier's centre."""
    sx, sy = (float(c) for c in action.get("source"))
    return (unit.position[0] - sx, unit.position[1] - sy)


class Dodge(SoldierAction):
    """`dodge` as the kernel plays a move (rules/engine/play.py)."""

    def malformed(self, unit: Unit, action: Action) -> tuple[str, str, float] | None:
        # A dodge without `source` is refused as malformed input (system.parse_action).
        if math.hypot(*away_from_source(unit, action)) > 1e-9:
            return None
        why = f"the attack's source is {who(unit)}'s own position: no direction to dodge in"
        return why, "apskirmish 5, 004 Dodging", DODGE_DISTANCE

    def measure_path(self, move: MoveInPlay) -> Measured:
        """Nothing before the roll: where it goes is the roll's (`end_of_move`)."""
        return Measured(0.0)

    def end_of_move(self, move: MoveInPlay) -> Unit:
        """The Dodge roll, the move away on a success, and the cost paid either way."""
        judgement, position, unit, action = move.judgement, move.position, move.unit, move.action
        levels_up = int(action.get("opt_up", 0))  # Opt Up allowed (004 Dodging)
        roll = rolled(judgement, move.dice, position.tests, unit, "dodge", levels_up)
        if roll is None:
            return unit
        moved = unit
        if roll.success is not False:
            away = away_from_source(unit, action)
            judgement.cost = _free_distance(position, unit, away)
            if judgement.cost > 0:
                norm, (x, y) = math.hypot(*away), unit.position
                moved = unit.moved(
                    (x + away[0] / norm * judgement.cost, y + away[1] / norm * judgement.cost),
                    unit.facing,
                )
        activated = unit.flag("activated")
        return after_spending(moved, 0 if activated else 1, False, 1 if activated else 0)

    def move_events(self, move: MoveInPlay) -> list[dict[str, object]]:
        """The move, where the soldier moved, then the dodge with the roll's result."""
        roll = move.last_roll
        assert roll is not None  # `end_of_move` rolled it
        result = "unresolved" if roll.success is None else "success" if roll.success else "fail"
        levels_up = int(move.action.get("opt_up", 0))
        dodge = {"type": "dodge", "unit": move.unit.id, "result": result, "levels_up": levels_up}
        return [*super().move_events(move), dodge]


def _free_distance(pos: ApsPosition, unit: Unit, away: tuple[float, float]) -> float:
    """How far the base goes away from the attack before its first contact (APS-D11).
    Something already touching the base stops it at once if the dodge goes into it:
    touching is a zero gap (APS-D30), so the soldier does not move."""
    hit = first_contact(
        unit.base,
        Pose(unit.position[0], unit.position[1], unit.facing),
        away,
        DODGE_DISTANCE,
        terrain=pos.obstacle_shapes(),
        bases=[(o.id, pos.bodies[o.id]) for o in pos.on_table if o.id != unit.id],
        table=pos.state.table,
        touching_stops=True,
    )
    return DODGE_DISTANCE if hit is None else min(hit.distance, DODGE_DISTANCE)
