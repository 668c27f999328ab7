"""A delayed spectator learns nothing newer than the delay from any frame (issue 15).

Tournament play: spectators see the table `delay_s` late (docs/protocol.md, set_delay).
Their own chat line's `ack` used to carry the table's current `seq`, and a `resume`
from a recent `seq` answered differently from one ahead of the log: either told a
spectator how far the game had gone.
"""

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from tabletop import events
from tabletop.models import Battle
from tabletop.services.table import log, position
from tabletop.services.table.gm import battle_set_delay
from tests.live.conftest import move
from tests.live.helpers import in_thread, open_socket
from tests.web.test_reports import (
    actor,
    json_reads,
    moved_within_the_delay,
    p1_wins_and_p2s_mech_is_destroyed,
    positions_in,
    unit_of,
)
from tests.web.test_reports import table as a_table

pytestmark = pytest.mark.django_db(transaction=True)


async def delayed_table(table, seconds: int = 3600):
    """The GM sets the delay, P1 moves and chats (seq 2 and 3); a spectator arrives late."""
    await table.gm.send({"type": "set_delay", "id": "g-1", "seconds": seconds})
    await table.gm.get("ack")
    await table.p1.send(
        {"type": "act", "id": "m-1", "seen": 1, "action": move(table.u1, [1.5, 6.5])}
    )
    await table.p1.get("ack")
    await table.p1.send({"type": "chat", "id": "c-1", "text": "secret plan"})
    assert (await table.p1.get("ack"))["seq"] == 3
    return await open_socket(table.battle.id, table.users["spectator"])


async def test_a_delayed_spectators_chat_ack_names_no_sequence_number(table):
    late = await delayed_table(table)
    await late.send({"type": "chat", "id": "s-1", "text": "go P1!"})
    ack = await late.get("ack")
    assert ack == {"type": "ack", "id": "s-1", "seq": None}
    await late.close()


async def test_a_delayed_spectators_resume_from_a_recent_seq_tells_nothing(table):
    """Resuming from seq 3 (the table's newest) or from 9 (ahead of the log) gets the
    same answer: the delayed snapshot, at seq 0."""
    late = await delayed_table(table)
    answers = []
    for seq in (3, 9):
        await late.send({"type": "resume", "seq": seq})
        answers.append(await late.get("snapshot", "resumed"))
    assert [(a["type"], a["seq"]) for a in answers] == [("snapshot", 0), ("snapshot", 0)]
    await late.close()


async def test_a_delayed_spectators_resume_says_resumed_at_what_was_sent(table):
    late = await delayed_table(table)
    await late.send({"type": "resume", "seq": 0})
    resumed = await late.get("resumed")
    assert resumed["seq"] == 0
    assert await late.quiet(timeout=0.3)
    await late.close()


async def test_players_chat_ack_still_names_its_seq(table):
    await delayed_table(table)
    await table.p2.send({"type": "chat", "id": "c-2", "text": "hm"})
    assert (await table.p2.get("ack"))["seq"] == 4


@in_thread
def backdate_events(battle_id: int, seconds: int) -> None:
    """The log as if its events happened `seconds` ago (a battle already under way)."""
    from tabletop.models import Event

    Event.objects.filter(battle_id=battle_id).update(
        created_at=timezone.now() - timedelta(seconds=seconds)
    )


async def raw_frame(socket, timeout: float) -> dict:
    """The next frame but presence, unchecked."""
    while True:
        frame = json.loads(await socket.io.receive_from(timeout=timeout))
        if frame["type"] != "presence":
            return frame


async def test_a_late_spectators_history_up_to_the_horizon_comes_at_once(table):
    """The board asks for the log's history right after the snapshot (a `resume` from
    before it): the events up to the horizon come at once, not when the next held-back
    event is due (issue 20: the log stayed empty for the whole delay)."""
    await table.p1.send(
        {"type": "act", "id": "m-1", "seen": 0, "action": move(table.u1, [1.5, 6.5])}
    )
    await table.p1.get("ack")
    await table.p1.send({"type": "chat", "id": "c-1", "text": "old news"})
    await table.p1.get("ack")
    await backdate_events(table.battle.id, 600)
    await table.gm.send({"type": "set_delay", "id": "g-1", "seconds": 60})
    await table.gm.get("ack")
    late = await open_socket(table.battle.id, table.users["spectator"])
    assert (late.frames[-1]["seq"], late.frames[-1]["delay_s"]) == (2, 60)
    await late.send({"type": "resume", "seq": 0})
    # Read as the board does (history behind its snapshot), not through the mirror,
    # which takes an event behind its seq for a repeat.
    frames = [await raw_frame(late, timeout=2) for _ in range(3)]
    assert [(f["type"], f["seq"]) for f in frames] == [
        ("event", 1),
        ("event", 2),
        ("resumed", 2),
    ]
    assert await late.quiet(timeout=0.3), "the delay event (seq 3) is held back"
    await late.close()


async def test_a_watching_spectator_is_told_the_new_delay_at_once(table):
    """The delay event itself reaches spectators only after the delay; the header must
    say "delayed" from the moment the GM sets it, so they get a `delay` frame now."""
    await table.gm.send({"type": "set_delay", "id": "g-1", "seconds": 30})
    await table.gm.get("ack")
    assert await table.spectator.get("delay", timeout=2) == {"type": "delay", "delay_s": 30}
    assert await table.spectator.quiet(timeout=0.3), "and not the event, yet"
    await table.gm.send({"type": "set_delay", "id": "g-2", "seconds": 30})
    await table.gm.get("ack")
    assert await table.spectator.quiet(timeout=0.3), "the same delay again is no news"


def test_a_delayed_spectators_snapshot_reads_one_position_and_no_newer_status(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Connecting while a delay is set: the table at the horizon is one position read, not
    every event's two (issue 21: 2 s on a complex map), and a result recorded within the
    delay does not show as the status."""
    monkeypatch.setattr(events, "deliver", lambda sends: None)
    battle, users = a_table()
    p2 = unit_of(battle, "P2")
    moved_within_the_delay(battle, users)
    p1_wins_and_p2s_mech_is_destroyed(battle, users)
    decoded = json_reads(monkeypatch)

    frame, later = log.snapshot(battle.pk, watching=True)

    assert frame["seq"] == 1 and [e["seq"] for e in later] == [2, 3, 4]
    assert next(u for u in frame["state"]["units"] if u["id"] == p2["id"]) == p2, "unmoved"
    assert frame["status"] == "active", "the result is newer than the delay"
    assert not [v for v in decoded if isinstance(v, dict) and {"_before", "_after"} & set(v)]
    assert len(positions_in(decoded)) == 1


def test_a_delayed_snapshots_hash_is_of_the_position_it_sends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hash at the horizon is kept with the position it is of (issue 21), never with
    a sequence number whose position is still the battle's own and may change."""
    monkeypatch.setattr(events, "deliver", lambda sends: None)
    battle, users = a_table()
    battle_set_delay(
        battle_id=battle.pk, actor=actor(battle, users["gm"]), client_msg_id="d", seconds=600
    )
    first, _ = log.snapshot(battle.pk, watching=True)
    units = first["state"]["units"]
    moved = [{**u, "position": [u["position"][0] + 1, u["position"][1]]} for u in units]
    Battle.objects.filter(pk=battle.pk).update(state={**first["state"], "units": moved})

    again, _ = log.snapshot(battle.pk, watching=True)

    assert again["seq"] == first["seq"] == 0 and again["state"]["units"] == moved
    assert again["hash"] == position.position_hash(again["state"], again["turn"])
