"""Files for the engine and for archives: a position or a ruling as a scenario file
(scenario-format.md), and the event log as JSON lines.

A saved ruling is the position the table judged, the action and the verdict the server
gave as its `expect` (legal, the first reason's code, the cost), with the dice that
were rolled forced, so that `python -m rules check --expect FILE` reproduces it anywhere.
Where the ruling comes from (docs/protocol.md, "Saving a position or a ruling"):
- a refusal that changed nothing is not in the event log; the server kept its answer
  (the `reject` of the client message id, with its `seq` and verdict) and the board
  sends back the action it proposed. The action is judged again on the position of
  that `seq` with the same dice; unless the verdict is the one the table gave, it is
  not the action that was refused, and no file is made.
- an act in the log (legal, or refused with a consequence) carries everything itself.
"""

import json
import math
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from tabletop import events
from tabletop.models import Battle, CommandReply, Event
from tabletop.records.horizon import Horizon
from tabletop.services import game_systems
from tabletop.services.errors import ServiceError
from tabletop.services.table import log
from tabletop.services.table.position import canonical


class NotInRecord(ServiceError):
    """Nothing of that name in what the reader may see (answered 404)."""

    code = "not_found"


@dataclass(frozen=True)
class RecordFile:
    name: str
    content: dict[str, Any]

    def text(self) -> str:
        return json.dumps(self.content, indent=1, allow_nan=False) + "\n"


def position_file(battle: Battle, horizon: Horizon, seq: int | None = None) -> RecordFile:
    """The table after event `seq` (the newest the reader may see when None), as a scenario."""
    seq = horizon.seq if seq is None else seq
    if not 0 <= seq <= horizon.seq:
        raise NotInRecord("That moment of the battle is not yet yours to see.")
    position = log.position_at(battle, seq)["state"]
    return RecordFile(
        f"battle-{battle.pk}-seq-{seq}-position.json", game_systems.scenario_file(position)
    )


def dice_rolled(verdict: dict[str, Any]) -> list[int]:
    """The dice the engine rolled for a verdict, in order: forced in the file, so that the
    check rolls the same; none at all ("dice": []) states that no roll may happen."""
    return [
        roll["result"]
        for roll in verdict.get("rolls", [])
        if isinstance(roll.get("result"), int) and not isinstance(roll.get("result"), bool)
    ]


def expectation(verdict: dict[str, Any]) -> dict[str, Any]:
    """The verdict as the scenario's EXPECT: legal, the first reason's code, the cost."""
    expect: dict[str, Any] = {"legal": bool(verdict["legal"])}
    if verdict.get("reasons"):
        expect["reason"] = verdict["reasons"][0]["code"]
    expect["cost"] = verdict.get("cost", 0)
    return expect


def same_ruling(first: dict[str, Any], second: dict[str, Any]) -> bool:
    codes = [[r.get("code") for r in v.get("reasons", [])] for v in (first, second)]
    return (
        bool(first.get("legal")) == bool(second.get("legal"))
        and codes[0] == codes[1]
        and math.isclose(float(first.get("cost", 0)), float(second.get("cost", 0)), abs_tol=1e-3)
    )


def _ruling(battle: Battle, seq: int, position: dict, action: dict, verdict: dict) -> RecordFile:
    dice = dice_rolled(verdict)
    content = game_systems.scenario_file(position, action, expectation(verdict), dice)
    return RecordFile(f"battle-{battle.pk}-seq-{seq}-ruling.json", content)


def ruling_of_event(battle: Battle, horizon: Horizon, seq: int) -> RecordFile:
    """The ruling of an act in the log: its position before, its action, its verdict."""
    event = Event.objects.filter(battle=battle, seq=seq, kind="act").first()
    if event is None or seq > horizon.seq:
        raise NotInRecord("There is no order with that number in what you may see.")
    payload = event.payload
    position = payload["_before"]["state"]
    return _ruling(battle, seq, position, payload["action"], payload["verdict"])


def ruling_of_refusal(
    battle: Battle, user: AbstractBaseUser, horizon: Horizon, client_msg_id: str, action: Any
) -> RecordFile:
    """The ruling the rules gave `user`'s refused order `client_msg_id`, for the `action`
    the board says it proposed (checked: judged again, it must get the same verdict)."""
    reply = (
        CommandReply.objects.filter(battle=battle, actor=user, client_msg_id=client_msg_id)
        .values_list("reply", flat=True)
        .first()
    )
    if not reply or reply.get("type") != "reject" or not reply.get("verdict"):
        raise NotInRecord("No order of yours with that id was refused by the rules.")
    if reply.get("event"):
        return ruling_of_event(battle, horizon, reply["event"])
    if not isinstance(action, dict):
        raise ServiceError("Send the action that was refused.", field="action")
    verdict = reply["verdict"]
    position = log.position_at(battle, reply["seq"])["state"]
    again = game_systems.replay_verdict(position, action, dice_rolled(verdict))
    if not same_ruling(again, verdict):
        raise ServiceError("That is not the action the table refused.", field="action")
    return _ruling(battle, reply["seq"], position, action, verdict)


def event_lines(battle: Battle, horizon: Horizon) -> str:
    """The log as JSON lines: one event frame (as clients get it) a line, in order."""
    found = Event.objects.filter(battle=battle, seq__lte=horizon.seq).order_by("seq")
    return "".join(canonical(events.event(e)) + "\n" for e in found)
