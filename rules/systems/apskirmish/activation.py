"""Who may act and whether the AP are there: the checks before any movement
(apskirmish.md 2, APS-D3, APS-D36)."""

from __future__ import annotations

from rules.engine.judgement import PathJudgement, who
from rules.engine.numbers import fmt
from rules.model.state import GameState, Unit
from rules.systems.apskirmish.board import ApsPosition
from rules.systems.apskirmish.soldiers import ap_left
from rules.systems.apskirmish.tables import ACTIONS


def check_turn_and_ap(
    judgement: PathJudgement, pos: ApsPosition, unit: Unit, action_type: str, ap: int | None = None
) -> None:
    """`not_your_turn` while another soldier's activation runs (never for a reaction),
    `no_actions_left` when fewer AP are left than the action needs (when counted)."""
    row = ACTIONS[action_type]
    active = pos.state.turn.get("active_unit")
    if row.activates and active and active != unit.id:
        judgement.add(
            "not_your_turn",
            f"It is {active}'s activation: {who(unit)} may not {row.label.lower()} now",
            unit.position,
            "APS-D3",
        )
    needed = row.ap if ap is None else ap
    left = ap_left(unit)
    if needed and left is not None and left < needed:
        judgement.add(
            "no_actions_left",
            f"{who(unit)} has {fmt(left)} AP left; {row.label} needs {needed}",
            unit.position,
            row.cite,
        )


def after_activation_action(state: GameState, unit: Unit) -> GameState:
    """The state after an activation's action by `unit`, already applied to `state`.

    Where the position keeps a `state.active_unit` key (the live table does, from the
    battle's start: None between activations), the soldier that acts becomes the active
    one (APS-D23), so that the engine refuses any other with `not_your_turn` (APS-D3).
    A position without the key is judged as the notes say, and gains none."""
    if "active_unit" not in state.turn:
        return state
    return state.with_turn(active_unit=unit.id)
