"""The parsed positions a table process keeps (referee.ParsedPositions): a position is
parsed once per sequence number, an act hands on the engine's own state, and a kept
state is never used for a position that differs from the one it was parsed from."""

import pytest

import rules
from tabletop.models import Battle
from tabletop.services.table import referee
from tabletop.services.table.act import battle_act
from tabletop.services.table.preview import battle_preview
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
