"""What the rules read from a soldier and ask of it before any line is drawn (the board's
offers ask the same, system.py `may_take`), and what an action leaves on it (apskirmish.md
2, 5, 6b; APS-D3, APS-D14, APS-D22, APS-D23, APS-D36)."""

from __future__ import annotations

from rules.engine.judgement import PathJudgement, who
from rules.engine.numbers import fmt
from rules.model.state import Unit
from rules.systems.apskirmish.board import ApsPosition
from rules.systems.apskirmish.tables import ACTIONS, DEFAULT_STANCE, STANCE_MOVE


def stance(unit: Unit) -> str:
    return str(unit.get("stance", DEFAULT_STANCE))


def per_ap(unit: Unit) -> float:
    """Inches for 1 AP: the unit's own `move` if given, else its stance's (APS-D14)."""
    return unit.move if unit.move_given else STANCE_MOVE[stance(unit)]


def after_spending(unit: Unit, ap: int, activates: bool, extra_threshold: int = 0) -> Unit:
    """The soldier after paying for an action: AP deducted (where counted), `activated`
    set by an activation's actions (not by a Dodge, APS-D34), Threshold taken."""
    changes: dict[str, object] = {}
    left = unit.get("ap")
    if left is not None and ap:
        changes["ap"] = left - ap
    if activates:
        changes["activated"] = True
    if extra_threshold:
        changes["threshold"] = int(unit.get("threshold", 0) or 0) + extra_threshold
    return unit.with_props(**changes) if changes else unit


def check_turn_and_ap(
    judgement: PathJudgement, pos: ApsPosition, unit: Unit, action_type: str
) -> None:
    """`not_your_turn` while another soldier's activation runs (never for a reaction),
    `no_actions_left` when fewer AP are left than the action needs (AP are not counted
    where `ap` is absent, APS-D36)."""
    row = ACTIONS[action_type]
    active = pos.state.turn.get("active_unit")
    if row.activates and active and active != unit.id:
        judgement.add(
            "not_your_turn",
            f"It is {active}'s activation: {who(unit)} may not {row.label.lower()} now",
            unit.position,
            "APS-D3",
        )
    left = None if unit.get("ap") is None else float(unit.get("ap"))
    if row.ap and left is not None and left < row.ap:
        judgement.add(
            "no_actions_left",
            f"{who(unit)} has {fmt(left)} AP left; {row.label} needs {row.ap}",
            unit.position,
            row.cite,
        )


def check_preconditions(
    judgement: PathJudgement, pos: ApsPosition, unit: Unit, action_type: str
) -> None:
    """Every check of `action_type` that does not depend on its line or source."""
    if action_type == "dodge" and unit.flag("activated"):
        return  # a reaction: +1 Threshold once activated, not AP (004 Dodging)
    check_turn_and_ap(judgement, pos, unit, action_type)
    if action_type == "run" and stance(unit) != "standing":
        judgement.add(
            "action_not_allowed",
            f"Only a Standing soldier may run; {who(unit)} is {stance(unit)}",
            unit.position,
            "004 Running",
        )
    if action_type == "traverse" and not pos.within_traverse_reach(unit):
        judgement.add(
            "action_not_allowed",
            f'{who(unit)} is not within 1" of any obstacle: nothing to traverse',
            unit.position,
            "004 Obstacles, APS-D6",
        )
