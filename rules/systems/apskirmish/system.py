"""The apskirmish System: vocabularies, input checks and the action dispatcher
(apskirmish.md; scenario-format.md, apskirmish)."""

from __future__ import annotations

from typing import Any

from rules.engine.catalogue import ActionSpec
from rules.engine.judgement import PathJudgement
from rules.engine.system import System
from rules.engine.verdict import Verdict
from rules.model.actions import Action, number, point
from rules.model.errors import InvalidActionError
from rules.model.state import Unit
from rules.systems.apskirmish.board import ApsPosition
from rules.systems.apskirmish.catalogue import ACTIONS, STATE_MARKERS, TERRAIN_KINDS, UNIT_SCHEMA
from rules.systems.apskirmish.dodge import Dodge
from rules.systems.apskirmish.moves import StraightMoves
from rules.systems.apskirmish.reach import ApsReach
from rules.systems.apskirmish.rolls import OPTION_SCHEMA, parse_options
from rules.systems.apskirmish.soldiers import check_preconditions
from rules.systems.apskirmish.tables import ON_FAIL, TEST_DIE, UNIT_TYPES
from rules.systems.apskirmish.traverse import Traverse
from rules.systems.apskirmish.turns import ApsTurns, check_turn


class ApskirmishSystem(ApsReach, StraightMoves, System):
    key = "apskirmish"
    name = "Action-point skirmish"
    cost_unit = "in"
    actions = ACTIONS
    terrain_kinds = TERRAIN_KINDS
    state_markers = STATE_MARKERS
    turn_structure = ApsTurns()
    terrain_types = frozenset(kind.type for kind in TERRAIN_KINDS)
    unit_types = frozenset(UNIT_TYPES)
    #: A Traverse and a Dodge are moves of the kernel's too, with hooks of their own.
    handlers = {"traverse": Traverse().move, "dodge": Dodge().move}
    position_type = ApsPosition
    piece_word = "soldier"
    action_keys = frozenset({"on_fail", "source", "opt_up"})
    #: A soldier's `move` is optional: the stance table applies without it (APS-D36).
    unit_move_required = False
    die_faces = TEST_DIE
    table_option_checks = (parse_options,)
    table_option_schema = OPTION_SCHEMA
    turn_checks = (check_turn,)

    def check_unit(self, unit: Unit, key: str) -> None:
        # A soldier may go without its (only) type; its keys are the unit schema's
        # (catalogue.UNIT_SCHEMA, checked after this).
        if unit.type != "":
            super().check_unit(unit, key)

    def parse_action(self, raw: Any, key: str) -> Action:
        action = super().parse_action(raw, key)
        if "on_fail" in raw and raw["on_fail"] not in ON_FAIL:
            raise InvalidActionError(f"{key}.on_fail", f"expected one of {', '.join(ON_FAIL)}")
        if "source" in raw:
            point(raw["source"], f"{key}.source")
        if "opt_up" in raw:
            levels = number(raw["opt_up"], f"{key}.opt_up")
            if levels < 0 or levels != int(levels):
                raise InvalidActionError(f"{key}.opt_up", "expected a whole number of levels")
        if action.type == "dodge" and "source" not in raw:
            raise InvalidActionError(f"{key}.source", "missing: a dodge needs the attack's origin")
        return action

    def refusal(self, position: ApsPosition, unit: Unit, action: Action) -> Verdict | None:
        if unit.aboard is not None:  # not on the table: no soldier there
            return self.unknown_unit(position.state, action)
        return super().refusal(position, unit, action)

    def may_take(self, position: ApsPosition, unit: Unit, spec: ActionSpec) -> bool:
        """Not for a soldier off the table (the judge knows none); else whether the judge's
        checks before the line pass (soldiers.py), so that the board offers exactly what
        the referee would not refuse whatever the line."""
        if not unit.on_table:
            return False
        judgement = PathJudgement(position.state)
        check_preconditions(judgement, position, unit, spec.type)
        return judgement.legal

    def unit_schema(self) -> dict[str, Any]:
        return UNIT_SCHEMA
