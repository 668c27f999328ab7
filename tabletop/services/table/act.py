"""`battle_act`: a player's (or the GM's) order, refereed and, if legal, applied.

An illegal verdict that still changes the position (a failed breakaway spends the
order) is applied too, roll included, and answered with a `reject` that
names its event (design.md, "The life of a move" 5)."""

from typing import Any

from tabletop.events import reason
from tabletop.models import Battle
from tabletop.models.battle import BattleStatus
from tabletop.services import game_systems
from tabletop.services.table import command, one_trip, pending_roll, referee
from tabletop.services.table.actor import Actor
from tabletop.services.table.command import Change, Refusal


def table_refusal(
    battle: Battle, actor: Actor, unit_id: str, action: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """The table's own rules, before the game's: the battle, the unit, its owner, the turn
    (judged on the action itself: a reaction may be made out of turn)."""
    if battle.status != BattleStatus.ACTIVE:
        return reason("battle_not_active", f"The battle is {battle.get_status_display().lower()}.")
    waiting = pending_roll.refusal_while_waiting(battle)
    if waiting:
        return waiting
    unit = next((u for u in battle.state.get("units", []) if u.get("id") == unit_id), None)
    if unit is None:
        return reason("unknown_unit", f"There is no unit {unit_id!r} on the table.")
    side = unit.get("side", "")
    if not actor.controls(side):
        return reason("not_your_unit", f"{unit_id} belongs to {side}, which you do not play.")
    return game_systems.refusal(battle.state, battle.turn_state, side, action)


def battle_act(
    *, battle_id: int, actor: Actor, client_msg_id: str, seen: int, action: dict[str, Any]
) -> dict[str, Any]:
    command.require_player(actor)

    def decide(battle: Battle) -> Change | Refusal:
        # Stale first: whatever else is wrong, the client decided on an old position.
        if command.changed_since(battle, seen):
            return Refusal(
                [reason("stale", f"The table changed after {seen}; look again and resend.")]
            )
        refused = table_refusal(battle, actor, action["unit"], action)
        if refused:
            return Refusal([refused])
        judgement = referee.judge(battle.state, action, key=(battle.id, battle.last_seq))
        if judgement.state_after is None:
            # Refused only because the GM must give a roll: the action waits for it.
            roll = pending_roll.waiting_roll(judgement.verdict)
            if roll is not None:
                return pending_roll.request(battle, actor, client_msg_id, action, roll)
            return Refusal(judgement.verdict["reasons"], judgement.verdict, action)
        return Change(
            "act",
            {
                "id": client_msg_id,
                "action": action,
                "verdict": judgement.verdict,
                "rolls": judgement.verdict.get("rolls", []),
            },
            # The engine moves units and keeps its turn state; the table and terrain
            # stay as the table stored them.
            state={
                **battle.state,
                "units": judgement.state_after["units"],
                "state": judgement.state_after["state"],
            },
            game=judgement.game_after,
            # The turn structure hears of every committed action: one that begins an
            # activation makes its piece the active one (a system without activations
            # keeps the turn as it was).
            turn=game_systems.acted(battle.state, battle.turn_state, action),
            # Refused, yet applied: a failed breakaway spends the order. Were
            # it dropped, the player could retry the roll until it succeeded.
            refused=None if judgement.legal else judgement.verdict["reasons"],
        )

    # A move: in one round trip to PostgreSQL where it can be (one_trip.py).
    return one_trip.run(
        battle_id=battle_id, actor=actor, client_msg_id=client_msg_id, decide=decide
    )
