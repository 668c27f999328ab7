"""Files for the engine and for archives: a position or a ruling as a scenario file
(scenario-format.md), and the event log as JSON lines.

A saved ruling is the position the table judged, the action and the verdict the server
gave as its `expect` (legal, the first reason's code, the cost), with the dice that
were rolled forced, so that `python -m rules check --expect FILE` reproduces it anywhere.
Where the ruling comes from (docs/protocol.md, "Saving a position or a ruling"):
- a refusal that changed nothing is not in the event log; the server kept its answer
  (the `reject` of the client message id, with its `seq` and verdict) and, with it, the
  action refused: the file is made of them and the position of that `seq`, with no
  engine at all. (An answer kept before the action was kept with it: the action the
  board sends back is judged again, and must get the verdict the table gave.)
- an act in the log (legal, or refused with a consequence) carries everything itself.
"""

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.contrib.auth.models import User

from tabletop import events
from tabletop.models import Battle, CommandReply, Event, EventRow, MapImage
from tabletop.records import cached
from tabletop.records.horizon import Horizon
from tabletop.records.report_svg import embed_backdrop
from tabletop.selectors import battle_backdrop
from tabletop.services import game_systems
from tabletop.services.errors import ServiceError
from tabletop.services.table import log
from tabletop.services.table.command import ACTION_KEY, TABLE_KINDS


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
    position = log.position_before(battle, seq)["state"]
    return _ruling(battle, seq, position, payload["action"], payload["verdict"])


def _plain(value: Any) -> Any:
    """An action as the table reads it (tabletop/protocol.py): numbers as numbers, texts
    stripped, so that the board's copy of what it sent compares equal."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return value.strip() if isinstance(value, str) else value


def ruling_of_refusal(
    battle: Battle, user: User, horizon: Horizon, client_msg_id: str, action: Any
) -> RecordFile:
    """The ruling the rules gave `user`'s refused order `client_msg_id`: the action, the
    verdict and the position of its `seq`, as the table kept them when it refused (never
    judged again). An `action` given must be the one refused."""
    reply = (
        CommandReply.objects.filter(battle=battle, actor=user, client_msg_id=client_msg_id)
        .values_list("reply", flat=True)
        .first()
    )
    if not reply or reply.get("type") != "reject" or not reply.get("verdict"):
        raise NotInRecord("No order of yours with that id was refused by the rules.")
    if reply.get("event"):
        return ruling_of_event(battle, horizon, reply["event"])
    verdict, refused = reply["verdict"], reply.get(ACTION_KEY)
    if refused is None:
        return _ruling_judged_again(battle, reply, action)
    if action is not None and _plain(action) != _plain(refused):
        raise ServiceError("That is not the action the table refused.", field="action")
    position = log.position_at(battle, reply["seq"])["state"]
    return _ruling(battle, reply["seq"], position, refused, verdict)


def _ruling_judged_again(battle: Battle, reply: dict[str, Any], action: Any) -> RecordFile:
    """A refusal answered before the table kept the action with it: the action the board
    says it proposed, judged again on the same position with the same dice, must get the
    verdict the table gave."""
    if not isinstance(action, dict):
        raise ServiceError("Send the action that was refused.", field="action")
    verdict = reply["verdict"]
    position = log.position_at(battle, reply["seq"])["state"]
    again = game_systems.replay_verdict(position, action, dice_rolled(verdict))
    if not same_ruling(again, verdict):
        raise ServiceError("That is not the action the table refused.", field="action")
    return _ruling(battle, reply["seq"], position, action, verdict)


#: Sequence numbers in each piece of the JSON lines download: read together and, once the
#: log holds all of them, kept in the cache for every later download.
LINES_AT_ONCE = 500


def event_lines(battle: Battle, horizon: Horizon) -> Iterator[str]:
    """The log as JSON lines, one event frame (as clients were sent it) a line, in order, a
    piece of LINES_AT_ONCE sequence numbers at a time, so that a long log is never all in
    memory. A whole piece never changes (the log only grows): it is kept in the cache, and
    a later download, at any horizon past it, reads none of its events again."""
    lines = _Lines(battle)
    for first in range(0, horizon.seq, LINES_AT_ONCE):
        last = min(first + LINES_AT_ONCE, horizon.seq)
        if last - first < LINES_AT_ONCE:
            piece = lines.piece(first, last)
        else:
            key = cached.piece_key(battle, "lines", first)
            piece = cached.remember(key, partial(lines.piece, first, last))
        if piece:
            yield piece


class _Lines:
    """The JSON lines of a battle's log, a piece at a time: its events read as rows and the
    position followed through them (log.Follower) from the start of the piece read first
    (log.position_at), on through the pieces read after it."""

    def __init__(self, battle: Battle) -> None:
        self.battle = battle
        self.follower: log.Follower | None = None
        #: The seq the follower's position is after.
        self.followed = 0

    def piece(self, first: int, last: int) -> str:
        """The lines of the events after `first` up to `last`."""
        if self.follower is None or self.followed != first:
            self.follower = (
                log.Follower(log.position_at(self.battle, first))
                if first
                else log.Follower.from_start(self.battle)
            )
        found = Event.objects.filter(battle=self.battle, seq__gt=first, seq__lte=last)
        lines = []
        for event in EventRow.read(found.order_by("seq"), LINES_AT_ONCE):
            frame = events.event(event)
            if event.kind in TABLE_KINDS:
                frame.update(self.follower.unstored(event))
            lines.append(events.canonical(frame) + "\n")
        self.followed = last
        return "".join(lines)


def report_file(battle: Battle, svg: str) -> str:
    """The report SVG as a file to keep: its picture carried inside, not by the site's
    address (which needs a signed-in member)."""
    backdrop = battle_backdrop(battle)
    if backdrop is None or battle.backdrop_id is None:
        return svg
    picture = MapImage.objects.only("data", "content_type").get(pk=battle.backdrop_id)
    return embed_backdrop(svg, backdrop["url"], bytes(picture.data), picture.content_type)
