"""The parsed positions a table process keeps (referee.ParsedPositions): a position is
parsed once per sequence number, an act hands on the engine's own state (an end of turn
its reading, an event beside the position the one it had), snapshots use them, and a
kept state is never used for a position that differs from the one it was parsed from."""

import json

import pytest

import rules
from tabletop.models import Battle
from tabletop.services.table import log, referee
from tabletop.services.table.act import battle_act
from tabletop.services.table.chat import battle_chat
from tabletop.services.table.preview import battle_preview
from tabletop.services.table.turn_end import battle_end_turn
from tests.live.conftest import make_table_sync, move
from tests.live.helpers import captured_events
from tests.live.test_table_services import actors

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def parses(monkeypatch):
    """Counts the table's parses of a position, on a fresh cache."""
    count = {"n": 0}
    real = referee._parse

    def counting(raw):
        count["n"] += 1
        return real(raw)

    monkeypatch.setattr(referee, "positions", referee.ParsedPositions())
    monkeypatch.setattr(referee, "_parse", counting)
    return count


def test_previews_of_one_position_parse_it_once(parses):
    battle, _ = make_table_sync()
    p1 = actors(battle)["p1"]
    unit = next(u for u in battle.state["units"] if u["side"] == "P1")
    x, y = unit["position"]
    for step in (0.5, 1.0, 1.5):
        answer = battle_preview(
            battle_id=battle.id, actor=p1, action=move(unit["id"], [x, y + step])
        )
        assert answer["verdict"]["legal"] is True
    assert parses["n"] == 1


def test_the_position_after_an_act_is_judged_without_parsing_it_again(parses):
    battle, _ = make_table_sync(orders=3)
    p1 = actors(battle)["p1"]
    unit = next(u for u in battle.state["units"] if u["side"] == "P1")
    x, y = unit["position"]
    with captured_events():
        reply = battle_act(
            battle_id=battle.id,
            actor=p1,
            client_msg_id="m-1",
            seen=0,
            action=move(unit["id"], [x, y + 1]),
        )
    assert reply["type"] == "ack"
    assert parses["n"] == 1
    # The kept state is the one the engine returned, and it is the stored position.
    stored = Battle.objects.get(pk=battle.id).state
    kept = referee.positions.get((battle.id, 1), stored)
    assert kept == rules.state_from_json(stored)
    answer = battle_preview(battle_id=battle.id, actor=p1, action=move(unit["id"], [x, y + 2]))
    # Judged on the position after the act: the unit has had its order (001 [13]).
    assert answer["seq"] == 1
    assert [r["code"] for r in answer["verdict"]["reasons"]] == ["order_not_allowed"]
    assert parses["n"] == 1


def test_a_kept_state_is_not_used_for_a_different_position_under_the_same_key(parses):
    battle, _ = make_table_sync()
    p1 = actors(battle)["p1"]
    unit = next(u for u in battle.state["units"] if u["side"] == "P1")
    x, y = unit["position"]
    battle_preview(battle_id=battle.id, actor=p1, action=move(unit["id"], [x, y + 1]))
    # The same battle and sequence number, another position (a restored database, say):
    # the unit now stands 30" further on, so a 1" step from its old place is a long move.
    moved = [
        dict(u, position=[x, y + 30]) if u["id"] == unit["id"] else u for u in battle.state["units"]
    ]
    Battle.objects.filter(pk=battle.id).update(state={**battle.state, "units": moved})
    answer = battle_preview(battle_id=battle.id, actor=p1, action=move(unit["id"], [x, y + 1]))
    assert parses["n"] == 2
    assert answer["verdict"]["legal"] is False
    assert answer["verdict"]["cost"] > 20


@pytest.fixture
def readings(monkeypatch):
    """Counts every reading of a position by the engine (the table's, the board view's),
    on a fresh cache; and the units the system is asked its offers of."""
    count = {"n": 0, "offers": 0}
    real_read = rules.state_from_json
    system = rules.get_system("aod")
    real_offered = type(system).offered

    def reading(raw):
        count["n"] += 1
        return real_read(raw)

    def offered(self, state, unit):
        count["offers"] += 1
        return real_offered(self, state, unit)

    monkeypatch.setattr(referee, "positions", referee.ParsedPositions())
    monkeypatch.setattr(rules, "state_from_json", reading)
    monkeypatch.setattr(type(system), "offered", offered)
    return count


def _step(battle, actor, n: int, dy: float) -> dict:
    """`actor` moves its side's first unit `dy` inches (message id `m-n`); the broadcast
    goes nowhere (captured_events)."""
    unit = next(
        u for u in Battle.objects.get(pk=battle.id).state["units"] if u["side"] in actor.sides
    )
    x, y = unit["position"]
    return battle_act(
        battle_id=battle.id,
        actor=actor,
        client_msg_id=f"m-{n}",
        seen=Battle.objects.get(pk=battle.id).last_seq,
        action=move(unit["id"], [x, y + dy]),
    )


def _moved(readings) -> tuple[Battle, dict, dict]:
    """(battle, actors, the event frame) once P1 moved on a fresh table: reading the
    position the battle began with, and nothing else."""
    battle, _ = make_table_sync(orders=3)
    people = actors(battle)
    readings["n"] = 0  # setting the battle up read it too
    with captured_events() as sent:
        assert _step(battle, people["p1"], 1, 1)["type"] == "ack"
    assert readings["n"] == 1
    return battle, people, json.loads(sent[0][1]["text"])


def test_an_end_of_turn_is_read_from_the_move_s_and_the_next_act_judged_on_it(readings):
    """The end of turn changes only the turn keys: its position is the move's reading with
    them, read whole by nobody (issue 25), and it judges P2's move."""
    battle, people, _ = _moved(readings)
    with captured_events():
        ended = battle_end_turn(battle_id=battle.id, actor=people["p1"], client_msg_id="e-1")
        assert ended["type"] == "ack"
        assert readings["n"] == 1  # the move's reading, with the new turn keys
        assert _step(battle, people["p2"], 2, -1)["type"] == "ack"
    assert readings["n"] == 1  # ...which judged P2's move


def test_an_event_beside_the_position_leaves_it_read(readings):
    battle, people, _ = _moved(readings)
    with captured_events():
        battle_chat(battle_id=battle.id, actor=people["p2"], client_msg_id="c-1", text="hm")
    assert Battle.objects.get(pk=battle.id).last_seq == 2
    # The chat line's seq holds the position the act left: judged without reading it.
    unit = next(u for u in battle.state["units"] if u["side"] == "P1")
    x, y = unit["position"]
    answer = battle_preview(
        battle_id=battle.id, actor=people["p1"], action=move(unit["id"], [x, y + 2])
    )
    assert answer["seq"] == 2 and answer["verdict"]["cost"] > 0
    assert readings["n"] == 1


def test_a_snapshot_after_an_act_reads_nothing_and_asks_no_offers(readings):
    battle, _, event = _moved(readings)
    readings.update(n=0, offers=0)
    frame, _ = log.snapshot(battle.id)
    assert readings == {"n": 0, "offers": 0}
    assert frame["seq"] == event["seq"] == 1
    for key in ("actions", "unit_states", "summary", "hash"):
        assert frame[key] == event[key], key
