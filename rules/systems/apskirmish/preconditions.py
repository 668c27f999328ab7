"""What an action asks of the soldier before any line is drawn (apskirmish.md 2, 5, 6b):
whose activation it is, the AP the action costs, the stance a run needs, an obstacle near
enough to traverse. The judges call these checks; `offered` asks them of every action
type, so that the board offers exactly what the referee would not refuse whatever the
line (scenario-format.md, "Other commands": offers)."""

from __future__ import annotations

from rules.engine.judgement import PathJudgement, who
from rules.model.state import Unit
from rules.systems.apskirmish.activation import check_turn_and_ap
from rules.systems.apskirmish.board import ApsPosition
from rules.systems.apskirmish.soldiers import stance


def check_may_run(judgement: PathJudgement, unit: Unit) -> None:
    """Only a Standing soldier may run (004 Running)."""
    if stance(unit) != "standing":
        judgement.add(
            "action_not_allowed",
            f"Only a Standing soldier may run; {who(unit)} is {stance(unit)}",
            unit.position,
            "004 Running",
        )


def check_preconditions(
    judgement: PathJudgement, pos: ApsPosition, unit: Unit, action_type: str
) -> None:
    """Every check of `action_type` that does not depend on its line or source."""
    if action_type == "dodge":
        # A reaction: AP only while not yet activated, else +1 Threshold (004 Dodging).
        if not unit.flag("activated"):
            check_turn_and_ap(judgement, pos, unit, "dodge")
        return
    check_turn_and_ap(judgement, pos, unit, action_type)
    if action_type == "run":
        check_may_run(judgement, unit)
    if action_type == "traverse" and not pos.within_traverse_reach(unit):
        judgement.add(
            "action_not_allowed",
            f'{who(unit)} is not within 1" of any obstacle: nothing to traverse',
            unit.position,
            "004 Obstacles, APS-D6",
        )


def preconditions_hold(pos: ApsPosition, unit: Unit, action_type: str) -> bool:
    """Whether the judge would find `action_type`'s preconditions met for a soldier on
    the table (the board's offers)."""
    judgement = PathJudgement(pos.state)
    check_preconditions(judgement, pos, unit, action_type)
    return judgement.legal
