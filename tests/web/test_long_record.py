"""A long battle's record (issue 25): the report and the export read each event once, as
plain values (no model instance per event), follow the position through the log once,
and say byte for byte what they said before; the export's finished pieces are kept, so
that a second download reads no event it already sent."""

import hashlib
import itertools
import re
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse

from tabletop import events
from tabletop.models import Battle, Event, EventRow
from tabletop.records import cached, files, story
from tabletop.services.table import changes, dice, log
from tabletop.services.table.chat import battle_chat
from tabletop.services.table.command import TABLE_KINDS
from tabletop.services.table.gm import battle_fiat
from tabletop.services.table.undo import battle_undo
from tests.web.test_reports import actor, end_turn, move, table, unit_of

#: The report of `a_long_battle` (its SVG, sha-256) as the code before issue 25's record
#: work drew it: replaying the log into model instances, every unit compared each event.
REPORT_SVG_SHA256 = "9cf06121450aa4ec5a186f62b5efdedd76733d31e5ab8206ac3920c4d6dc26d8"


@pytest.fixture(autouse=True)
def no_broadcasts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(events, "deliver", lambda sends: None)


@pytest.fixture
def long_battle(client, monkeypatch: pytest.MonkeyPatch) -> tuple[Battle, dict[str, Any]]:
    """`a_long_battle` with a base every 25 seqs (so the log has several) and the export
    in pieces of 40 events; the GM signed in, nothing in the cache."""
    monkeypatch.setattr(changes, "SNAPSHOT_EVERY", 25)
    monkeypatch.setattr(files, "LINES_AT_ONCE", 40)
    faces = itertools.cycle([3, 6, 1, 4, 5, 2])
    monkeypatch.setattr(dice.secrets, "randbelow", lambda sides: next(faces) % sides)
    battle, users = a_long_battle()
    client.force_login(users["gm"])
    cache.clear()
    return battle, users


def a_long_battle(rounds: int = 20) -> tuple[Battle, dict[str, Any]]:
    """Rounds of: P1 moves, rolls and ends its turn, P2 moves, chats and ends its turn,
    the GM puts P1's mech somewhere by fiat; every fourth round the GM undoes that fiat.
    Seven or eight events a round."""
    battle, users = table()
    gm, p1, p2 = (actor(battle, users[name]) for name in ("gm", "p1", "p2"))
    for n in range(rounds):
        way = -1 if n % 2 else 1  # there and back, on the table
        move(battle, users["p1"], "P1", f"m1-{n}", (0.5 * way, way))
        dice.battle_roll(
            battle_id=battle.pk, actor=p1, client_msg_id=f"r-{n}", count=2, sides=6, what="hit"
        )
        end_turn(battle, users["p1"], f"e1-{n}")
        move(battle, users["p2"], "P2", f"m2-{n}", (-0.5 * way, -way))
        battle_chat(battle_id=battle.pk, actor=p2, client_msg_id=f"c-{n}", text=f"round {n}")
        end_turn(battle, users["p2"], f"e2-{n}")
        place = [4.0 + n % 7 * 4, 6.0 + n % 5 * 5]
        reply = battle_fiat(
            battle_id=battle.pk, actor=gm, client_msg_id=f"f-{n}",
            unit_id=unit_of(battle, "P1")["id"], position=place,
        )  # fmt: skip
        assert reply["type"] == "ack", reply
        if n % 4 == 3:
            reply = battle_undo(
                battle_id=battle.pk, actor=gm, client_msg_id=f"u-{n}", reason_text=""
            )
            assert reply["type"] == "ack", reply
    return Battle.objects.get(pk=battle.pk), users


def download(client, battle: Battle, name: str) -> bytes:
    return b"".join(client.get(reverse(name, args=[battle.pk])).streaming_content)


def lines_read_the_plain_way(battle: Battle) -> bytes:
    """The export by definition: each event's frame, a table event's with the engine's turn
    state and the turn of the position after it (log.position_at, read for each)."""
    lines = []
    for event in Event.objects.filter(battle=battle).order_by("seq"):
        frame = events.event(event)
        if event.kind in TABLE_KINDS:
            at = log.position_at(battle, event.seq)
            frame.update(state=at["state"].get("state", {}), turn=at["turn"])
        lines.append(events.canonical(frame) + "\n")
    return "".join(lines).encode()


@pytest.mark.django_db
def test_a_long_battles_export_is_each_events_frame_with_its_position(client, long_battle) -> None:
    battle, users = long_battle
    expected = lines_read_the_plain_way(battle)
    assert battle.last_seq > 140 and expected.count(b"\n") == battle.last_seq
    cache.clear()

    assert download(client, battle, "battle_events_jsonl") == expected


@pytest.mark.django_db
def test_a_long_battles_report_is_what_it_was(client, long_battle) -> None:
    battle, users = long_battle

    svg = client.get(reverse("battle_report_svg", args=[battle.pk])).content

    assert svg.count(b"<polyline") > 40
    assert hashlib.sha256(same_names(svg)).hexdigest() == REPORT_SVG_SHA256


def same_names(svg: bytes) -> bytes:
    """The report with the units' ids (numbered across the database) renumbered in the
    order they first appear in it."""
    ids: dict[bytes, bytes] = {}
    return re.sub(rb"\bU[0-9]+\b", lambda m: ids.setdefault(m[0], b"U%d" % (len(ids) + 1)), svg)


@pytest.mark.django_db
def test_a_long_battles_record_makes_no_model_instance_per_event(
    client, long_battle, monkeypatch: pytest.MonkeyPatch
) -> None:
    battle, users = long_battle
    made: list[Any] = []
    monkeypatch.setattr(Event, "__init__", counted(Event.__init__, made))

    for name in ("battle_report_svg", "battle_events_jsonl"):
        response = client.get(reverse(name, args=[battle.pk]))
        assert b"".join(response) and response.status_code == 200

    assert made == [], "the events are read as rows of values"


@pytest.mark.django_db
def test_the_report_looks_at_the_units_each_event_names_not_every_unit(
    client, long_battle, monkeypatch: pytest.MonkeyPatch
) -> None:
    battle, users = long_battle
    looked: list[Any] = []
    monkeypatch.setattr(story, "_on_table", counted(story._on_table, looked))
    table_events = Event.objects.filter(battle=battle, kind__in=TABLE_KINDS).count()

    assert client.get(reverse("battle_report_svg", args=[battle.pk])).status_code == 200

    assert len(looked) <= 2 * table_events, "the unit it moved, before and after, not every unit"


@pytest.mark.django_db
def test_a_second_download_reads_only_the_events_of_the_last_unfinished_piece(
    client, long_battle, monkeypatch: pytest.MonkeyPatch
) -> None:
    battle, users = long_battle
    first = download(client, battle, "battle_events_jsonl")

    read: list[int] = []
    rows = EventRow.read
    monkeypatch.setattr(EventRow, "read", lambda *args: counted(rows, read, lambda r: r.seq)(*args))
    again = download(client, battle, "battle_events_jsonl")

    assert again == first
    last_piece = battle.last_seq // files.LINES_AT_ONCE * files.LINES_AT_ONCE
    assert 0 < last_piece < battle.last_seq
    assert read == list(range(last_piece + 1, battle.last_seq + 1)), "the unfinished piece's"
    # Past the horizon of the first: the kept pieces serve it too, the new events follow on.
    end_turn(battle, users[unit_side(battle)], "e-last")
    cache.delete(cached.piece_key(battle, "lines", 0))
    battle.refresh_from_db()
    assert download(client, battle, "battle_events_jsonl") == lines_read_the_plain_way(battle)


def unit_side(battle: Battle) -> str:
    """The player whose turn it is."""
    return {"P1": "p1", "P2": "p2"}[Battle.objects.get(pk=battle.pk).turn_state["active_side"]]


def counted(function: Any, calls: list[Any], each: Any = None) -> Any:
    """`function`, noting its calls' arguments in `calls` (`each`: the items it returns,
    as `each` makes of them)."""

    def spy(*args: Any, **kwargs: Any) -> Any:
        found = function(*args, **kwargs)
        if each is None:
            calls.append(args)
            return found
        found = list(found)
        calls.extend(each(item) for item in found)
        return iter(found)

    return spy
