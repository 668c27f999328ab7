"""`battle_end_turn`: the active side hands over (or the GM ends a turn or phase)."""

from typing import Any

from tabletop.events import reason
from tabletop.models import Battle, Event
from tabletop.models.battle import BattleStatus
from tabletop.services import game_systems
from tabletop.services.table import command, one_trip, pending_roll, referee
from tabletop.services.table.actor import Actor
from tabletop.services.table.command import Change, Refusal

#: The answer to a repeated end, by what the first one ended (`what_ended`).
ALREADY_ENDED = {
    "turn": "Your turn has already ended.",
    "phase": "That phase has already ended.",
    "part": "Your turn has already ended.",  # a side's part is what its player calls a turn
}


def battle_end_turn(
    *,
    battle_id: int,
    actor: Actor,
    client_msg_id: str,
    seen: int | None = None,
    phase_only: bool = False,
) -> dict[str, Any]:
    """Ends the active side's part. In phased systems a GM's `end_turn` ends the whole turn."""
    command.require_player(actor)

    def decide(battle: Battle) -> Change | Refusal:
        if battle.status != BattleStatus.ACTIVE:
            return Refusal([reason("battle_not_active", "The battle is not in play.")])
        if seen is not None and command.changed_since(battle, seen):
            ended = ended_since(battle, actor, seen)
            if ended:
                # A second press of End turn (a double click) sent before the first one's
                # event came back: the same wish again, not a race lost to another player.
                return Refusal([reason("turn_already_ended", ALREADY_ENDED[ended])])
            return Refusal([reason("stale", f"The table changed after {seen}.")])
        waiting = pending_roll.refusal_while_waiting(battle)
        if waiting:
            return Refusal([waiting])  # the action waiting for the GM's roll comes first
        active = battle.turn_state.get("active_side", "")
        if not actor.controls(active):
            return Refusal([reason("not_your_turn", f"It is {active}'s turn.")])
        whole = not phase_only and actor.is_gm and game_systems.phased(battle.state)
        turn, position = game_systems.end_part(battle.state, battle.turn_state, whole_turn=whole)
        return Change(
            "turn",
            {"ended": what_ended(battle.turn_state, turn)},
            state=position,
            turn=turn,
            # The engine's state after it, without reading the whole position again.
            game=referee.with_new_turn_keys((battle.id, battle.last_seq), battle.state, position),
        )

    # In one round trip to PostgreSQL where it can be, as a move (one_trip.py): a busy
    # site's tables end their turns in the same seconds, and the locked way costs an end
    # of turn several times a move's work (docs/benchmarks.md, "End of turn on the
    # one-round-trip path").
    return one_trip.run(
        battle_id=battle_id, actor=actor, client_msg_id=client_msg_id, decide=decide
    )


def ended_since(battle: Battle, actor: Actor, seen: int) -> str:
    """What `actor` ended after `seen` ("turn", "phase", "part"); "" if they ended nothing."""
    mine = Event.objects.filter(battle=battle, seq__gt=seen, kind="turn", actor_id=actor.user_id)
    first = list(mine.order_by("seq").values_list("payload__ended", flat=True)[:1])
    return str(first[0] or "turn") if first else ""


def what_ended(before: dict[str, Any], after: dict[str, Any]) -> str:
    """ "turn", "phase" or "part" (one side's part of a phase), from the change itself, so
    that the log says what a player did: a side ending its part has not ended the turn."""
    if after.get("turn") != before.get("turn"):
        return "turn"
    if after.get("phase") != before.get("phase"):
        return "phase"
    return "part"
