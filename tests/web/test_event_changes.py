"""Events as changes (issue 25): a table event keeps what it changed, not the position;
the position at any seq is the last base and the changes since, the same for every
reader; battles logged the old way migrate with their history and hashes intact."""

import importlib
import json
from types import SimpleNamespace
from typing import Any

import pytest
from django.apps import apps
from django.core.cache import cache
from django.db import connection
from django.urls import reverse

from tabletop import events
from tabletop.models import Battle, Event
from tabletop.models.battle import BattleStatus
from tabletop.models.event import POSITIONS
from tabletop.services.battles import battle_deploy, battle_start
from tabletop.services.table import changes, log
from tabletop.services.table.command import TABLE_KINDS
from tabletop.services.table.gm import battle_fiat
from tabletop.services.table.position import position_hash
from tabletop.services.table.undo import battle_undo
from tests.web.test_reports import a_played_battle, actor, end_turn, move, table, unit_of

converting = importlib.import_module("tabletop.migrations.0010_event_changes")
moving_out = importlib.import_module("tabletop.migrations.0004_event_positions")
DOWNLOADS = ("battle_report_svg", "battle_events_jsonl")


@pytest.fixture(autouse=True)
def no_broadcasts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(events, "deliver", lambda sends: None)


@pytest.fixture
def played(monkeypatch: pytest.MonkeyPatch) -> tuple[Battle, dict[str, Any], list[dict]]:
    """The played battle (seq 1-7) with a base every 3 seqs, and the position after each
    seq as the table had it then (seq 0: the start)."""
    monkeypatch.setattr(changes, "SNAPSHOT_EVERY", 3)
    seen: list[dict] = []
    keep = Battle.save

    def noted(battle: Battle, *args: Any, **kwargs: Any) -> None:
        keep(battle, *args, **kwargs)
        while len(seen) <= battle.last_seq:
            seen.append({"state": battle.state, "turn": battle.turn_state})
        seen[battle.last_seq] = {"state": battle.state, "turn": battle.turn_state}

    monkeypatch.setattr(Battle, "save", noted)
    battle, users = a_played_battle()
    monkeypatch.setattr(Battle, "save", keep)
    return Battle.objects.get(pk=battle.pk), users, seen


def downloads(client, battle: Battle) -> list[bytes]:
    cache.clear()
    return [client.get(reverse(name, args=[battle.pk])).getvalue() for name in DOWNLOADS]


def written_the_old_way(battle: Battle, *, in_payload: bool = False, seqs: Any = None) -> None:
    """The battle's table events (those of `seqs`) as a release before issue 25 wrote them:
    the whole position before and after each in its columns (before migration 0004, in
    its payload), the whole turn state, turn and board view in its payload."""
    table = Event.objects.filter(battle=battle, kind__in=TABLE_KINDS).order_by("seq")
    old = {}
    for event in table:
        if seqs is not None and event.seq not in seqs:
            continue
        before, after = log.position_before(battle, event.seq), log.position_at(battle, event.seq)
        payload = {**event.payload, "state": after["state"]["state"], "turn": after["turn"]}
        positions = {"position_before": before, "position_after": after}
        if in_payload:
            payload.update(_before=before, _after=after)
            positions = {"position_before": None, "position_after": None}
        old[event.pk] = {"payload": payload, "base": None, "change": None, **positions}
    for pk, row in old.items():
        Event.objects.filter(pk=pk).update(**row)
    cache.clear()


def editor() -> SimpleNamespace:
    return SimpleNamespace(
        connection=connection, execute=lambda sql: connection.cursor().execute(sql)
    )


@pytest.mark.django_db
def test_the_position_at_every_seq_is_the_table_as_it_was(played) -> None:
    battle, _, seen = played
    cache.clear()
    for seq, position in enumerate(seen):
        assert log.position_at(battle, seq) == position, seq
    bases = Event.objects.filter(battle=battle, base__isnull=False).values_list("seq", flat=True)
    assert sorted(bases) == [1, 4, 7], "the first table event, then one every 3 seqs"


@pytest.mark.django_db
def test_a_move_keeps_what_it_changed_not_the_position(played) -> None:
    battle, users, seen = played
    moved = Event.objects.get(battle=battle, seq=3)  # P2's move, no base kept
    row = Event.objects.filter(pk=moved.pk).values_list("payload", "change", *POSITIONS)[0]
    payload, change = row[:2]
    assert row[2:] == (None, None, None), "no whole position"
    assert [unit["id"] for unit in payload["units"]] == [unit_of(battle, "P2")["id"]]
    assert not {"actions", "unit_states", "state", "turn"} & set(payload), "nor its view"
    assert change == {"in": {"state": {"in": {"state": changes.delta(
        seen[2]["state"]["state"], seen[3]["state"]["state"]
    )}}}}, "the keys of the engine's turn state it touched"  # fmt: skip


@pytest.mark.django_db
def test_migration_0010_turns_old_events_into_changes_with_history_and_hashes_intact(
    client, played
) -> None:
    battle, users, seen = played
    client.force_login(users["gm"])
    read = downloads(client, battle)
    hashes = list(Event.objects.filter(battle=battle).values_list("payload__hash", flat=True))
    written_the_old_way(battle)
    old = list(Event.objects.filter(battle=battle).values_list("position_before", "position_after"))
    assert downloads(client, battle) == read, "read the old way too"

    converting.to_changes(apps, editor())

    cache.clear()
    assert [log.position_at(battle, seq) for seq in range(len(seen))] == seen
    assert downloads(client, battle) == read
    after = list(Event.objects.filter(battle=battle).values_list("payload__hash", flat=True))
    assert after == hashes == [position_hash(p["state"], p["turn"]) for p in seen[1:]]
    assert not Event.objects.filter(battle=battle, position_after__isnull=False).exists()
    converting.to_positions(apps, editor())
    back = list(
        Event.objects.filter(battle=battle).values_list("position_before", "position_after")
    )
    assert back == old, "and back"


@pytest.mark.django_db
def test_events_kept_in_their_payloads_before_0004_migrate_through_both(client, played) -> None:
    battle, users, seen = played
    client.force_login(users["gm"])
    read = downloads(client, battle)
    written_the_old_way(battle, in_payload=True)

    moving_out.move_positions(apps, editor())
    converting.to_changes(apps, editor())

    assert downloads(client, battle) == read
    assert [log.position_at(battle, seq) for seq in range(len(seen))] == seen


@pytest.mark.django_db
@pytest.mark.parametrize("in_payload", [False, True], ids=["0.2", "0.1"])
def test_an_event_an_old_process_writes_during_the_rolling_restart_is_read_too(
    client, played, in_payload: bool
) -> None:
    """Migrations run while the old release still serves (docs/deploy/README.md, 8): an
    event it writes then keeps whole positions, and is read all the same."""
    battle, users, seen = played
    client.force_login(users["gm"])
    read = downloads(client, battle)
    written_the_old_way(battle, in_payload=in_payload, seqs={6})

    assert downloads(client, battle) == read
    assert [log.position_at(battle, seq) for seq in range(len(seen))] == seen
    end_turn(battle, users["p2"], "e-4")  # after it, the new way (seq 8)
    battle.refresh_from_db()
    assert log.position_at(battle, 8) == {"state": battle.state, "turn": battle.turn_state}
    reply = battle_undo(
        battle_id=battle.pk, actor=actor(battle, users["gm"]), client_msg_id="u",
        reason_text="Misclick",
    )  # fmt: skip
    assert reply["type"] == "ack"
    battle.refresh_from_db()
    assert (battle.state, battle.turn_state) == (seen[7]["state"], seen[7]["turn"])


@pytest.mark.django_db
def test_a_position_changed_outside_the_log_is_kept_by_the_next_table_event(client) -> None:
    """Deployment and the battle's start change the position with no event: the next table
    event keeps the position it was made on, and every reader follows the log through it."""
    battle, users = table()
    Battle.objects.filter(pk=battle.pk).update(status=BattleStatus.DEPLOYMENT)
    gm, p1 = actor(battle, users["gm"]), unit_of(battle, "P1")
    fiat = battle_fiat(
        battle_id=battle.pk, actor=gm, client_msg_id="f-1", unit_id=p1["id"],
        position=[p1["position"][0], p1["position"][1] + 1],
    )  # fmt: skip
    assert fiat["type"] == "ack"
    after_fiat = log.position_at(battle, 1)
    p2 = unit_of(battle, "P2")
    placed = {p2["id"]: {"position": p2["position"][:2], "facing": 45}}
    battle_deploy(actor=users["gm"], battle=Battle.objects.get(pk=battle.pk), placements=placed)
    battle_start(battle=Battle.objects.get(pk=battle.pk))
    battle.refresh_from_db()
    started = {"state": battle.state, "turn": battle.turn_state}
    move(battle, users["p1"], "P1", "m-1", (0, 1))
    battle.refresh_from_db()
    client.force_login(users["gm"])
    cache.clear()

    assert log.position_at(battle, 1) == after_fiat != started
    assert log.position_before(battle, 2) == started
    assert log.position_at(battle, 2) == {"state": battle.state, "turn": battle.turn_state}
    follower = log.Follower.from_start(battle)
    for event in Event.objects.filter(battle=battle).order_by("seq"):
        follower.follow(event)
    assert follower.at == log.position_at(battle, 2), "as the record and the export follow it"
    _, moved = downloads(client, battle)[1].decode().splitlines()
    assert json.loads(moved)["turn"] == battle.turn_state
    reply = battle_undo(battle_id=battle.pk, actor=gm, client_msg_id="u", reason_text="Misclick")
    assert reply["type"] == "ack"
    battle.refresh_from_db()
    assert {"state": battle.state, "turn": battle.turn_state} == started
