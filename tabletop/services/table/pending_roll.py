"""Rolls the GM makes: an action that waits for the GM's result, then completes.

Where a system leaves a roll to the GM (a table option such as "the GM enters each
result"), the engine refuses the action with `roll_required` alone and names the roll
it waits for (`waiting_for: "gm"`). The table then does not refuse the player: it
records the action as waiting, as an `act` event whose `waiting` key names the roll,
and keeps it in the table's turn (`turn.pending`) until the GM answers. Keeping it in
the turn makes it part of the position every client holds: a snapshot, a resume, the
position hash and an undo all carry it with no machinery of their own.

The GM's `roll_result` judges the action again with that result forced as the roll's
outcome, and commits the verdict as an `act` event (its failure consequences too),
the roll in the dice log marked as the GM's (docs/protocol.md, "Rolls the GM makes").
"""

from typing import Any

from tabletop.events import reason
from tabletop.models import Battle
from tabletop.models.battle import BattleStatus
from tabletop.services import game_systems
from tabletop.services.table import command, referee
from tabletop.services.table.actor import Actor
from tabletop.services.table.command import Change, Refusal

#: The engine's reason for an action that waits for a roll given at the table.
ROLL_REQUIRED = "roll_required"
#: The table's turn key of the action waiting for the GM.
PENDING_KEY = "pending"
RESULTS = ("success", "fail")


def pending(battle: Battle) -> dict[str, Any] | None:
    """The action waiting for the GM's roll, or None."""
    found = (battle.turn_state or {}).get(PENDING_KEY)
    return found if isinstance(found, dict) else None


def waiting_roll(verdict: dict[str, Any]) -> dict[str, Any] | None:
    """The roll a refused verdict waits for the GM to give, when that is its only reason
    (anything else wrong with the action refuses it as usual); else None."""
    reasons = verdict.get("reasons") or []
    if not reasons or any(r.get("code") != ROLL_REQUIRED for r in reasons):
        return None
    waiting = [r for r in verdict.get("rolls") or [] if r.get("waiting_for") == "gm"]
    return waiting[0] if len(waiting) == 1 else None


def unit_name(battle: Battle, unit_id: str) -> str:
    label = (battle.unit_labels or {}).get(unit_id, {})
    if isinstance(label.get("name"), str) and label["name"]:
        return str(label["name"])
    unit: dict[str, Any] = next(
        (u for u in battle.state.get("units", []) if u.get("id") == unit_id), {}
    )
    name = unit.get("name")
    return name if isinstance(name, str) and name else unit_id


def prompt(battle: Battle, unit_id: str, roll: dict[str, Any]) -> str:
    """What the GM reads: "Kell's Terrain roll (Normal PSQ 4)" (the engine names the roll)."""
    what = str(roll.get("needed") or roll.get("what") or "roll")
    return f"{unit_name(battle, unit_id)}'s {what}"


def request(
    battle: Battle, actor: Actor, client_msg_id: str, action: dict[str, Any], roll: dict
) -> Change:
    """The change that records `action` as waiting for the GM's `roll`."""
    unit_id = str(action["unit"])
    side = next(
        (str(u.get("side", "")) for u in battle.state.get("units", []) if u.get("id") == unit_id),
        "",
    )
    waiting = {
        "seq": battle.last_seq + 1,  # the event that records it
        "id": client_msg_id,
        "action": action,
        "unit": unit_id,
        "side": side,
        "by": actor.name,
        "what": roll.get("what", ""),
        "needed": roll.get("needed", ""),
        "decides": roll.get("decides", ""),
        "prompt": prompt(battle, unit_id, roll),
    }
    return Change(
        "act",
        {"id": client_msg_id, "action": action, "waiting": waiting, "rolls": []},
        turn={**battle.turn_state, PENDING_KEY: waiting},
    )


def refusal_while_waiting(battle: Battle) -> dict[str, Any] | None:
    """Nothing else happens at the table while an action waits for the GM's roll."""
    waiting = pending(battle)
    if waiting is None:
        return None
    return reason(
        "roll_pending",
        f"The table waits for the GM: {waiting.get('prompt', 'a roll')}.",
    )


def gm_rolls(rolls: list[dict[str, Any]], waiting: dict[str, Any], gm: str) -> list[dict]:
    """The verdict's rolls as the dice log shows them: the one the GM gave names what
    it needed and who gave it."""
    shown = []
    for roll in rolls:
        if roll.get("forced") or roll.get("what") == waiting.get("what"):
            roll = {
                **roll,
                "die": roll.get("die") or "GM",
                "needed": roll.get("needed") or waiting.get("needed", ""),
                "entered_by": gm,
            }
        shown.append(roll)
    return shown


def battle_roll_result(
    *, battle_id: int, actor: Actor, client_msg_id: str, result: str
) -> dict[str, Any]:
    """The GM gives the result of the roll an action waits for; the action completes."""
    command.require_gm(actor)

    def decide(battle: Battle) -> Change | Refusal:
        if battle.status != BattleStatus.ACTIVE:
            return Refusal([reason("battle_not_active", "The battle is not in play.")])
        waiting = pending(battle)
        if waiting is None:
            return Refusal([reason("no_roll_pending", "No action waits for a roll.")])
        action = waiting["action"]
        judgement = referee.judge(
            battle.state,
            action,
            key=(battle.id, battle.last_seq),
            outcomes=[result == "success"],
        )
        verdict = judgement.verdict
        public = {
            "id": client_msg_id,
            "action": action,
            "verdict": verdict,
            "rolls": gm_rolls(verdict.get("rolls", []), waiting, actor.name),
            "answers": waiting.get("seq"),
            "by": waiting.get("by", ""),
            "result": result,
        }
        turn = {k: v for k, v in battle.turn_state.items() if k != PENDING_KEY}
        if judgement.state_after is None:
            # Refused even so (the roll failed and the rest of the move is illegal): the
            # roll is logged and the table stops waiting; the position stays.
            return Change("act", public, turn=turn, refused=verdict.get("reasons") or [])
        return Change(
            "act",
            public,
            state={
                **battle.state,
                "units": judgement.state_after["units"],
                "state": judgement.state_after["state"],
            },
            # As for any committed act, the turn structure hears of it (the soldier whose
            # activation it began becomes the active one).
            turn=game_systems.acted(battle.state, turn, action),
            game=judgement.game_after,
            refused=None if judgement.legal else verdict.get("reasons"),
        )

    return command.run(battle_id=battle_id, actor=actor, client_msg_id=client_msg_id, decide=decide)
