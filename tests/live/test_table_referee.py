"""The referee's answers the board asks for (issue 13): a line of sight ruled by the
engine, the nearest legal alternative to a refused move, the GM's delay setting."""

import pytest

from tabletop.models import Battle
from tests.live.conftest import move
from tests.live.helpers import in_thread, open_socket

pytestmark = pytest.mark.django_db(transaction=True)

ROCK = {"id": "R1", "type": "blocking", "polygon": [[0, 12], [36, 12], [36, 14], [0, 14]]}


@in_thread
def lay_terrain(battle_id: int, *features) -> None:
    battle = Battle.objects.get(pk=battle_id)
    battle.state = {**battle.state, "terrain": list(features)}
    battle.save()


@in_thread
def set_delay(battle_id: int, seconds: int) -> None:
    Battle.objects.filter(pk=battle_id).update(spectator_delay_s=seconds)


async def test_a_sight_frame_is_ruled_by_the_engine_and_answered_to_the_sender_alone(table):
    await lay_terrain(table.battle.id, ROCK)
    await table.p1.send({"type": "sight", "ref": "s-1", "from": table.u1, "to": table.u2})
    answer = await table.p1.get("sight")
    assert answer["ref"] == "s-1"
    ruling = answer["ruling"]
    assert ruling["verdict"] == "blocked"
    assert [(f["id"], f["effect"], f["label"]) for f in ruling["features"]] == [
        ("R1", "blocks", "Blocking terrain")
    ]
    assert ruling["blocked_at"][1] == 12
    await table.p2.send({"type": "ping"})
    assert (await table.p2.get("pong"))["type"] == "pong", "P2 got no sight frame before it"


async def test_a_sight_line_between_points_on_open_ground_is_clear(table):
    await table.gm.send({"type": "sight", "ref": "s-2", "from": [1, 1], "to": [30, 30]})
    assert (await table.gm.get("sight"))["ruling"]["verdict"] == "clear"


async def test_a_spectator_may_not_ask_for_a_ruling_on_the_live_table(table):
    await table.spectator.send({"type": "sight", "ref": "s-3", "from": [1, 1], "to": [30, 30]})
    error = await table.spectator.get("error")
    assert error["code"] == "forbidden"


async def test_a_sight_end_that_is_no_unit_is_malformed(table):
    await table.p1.send({"type": "sight", "ref": "s-4", "from": "nobody", "to": [3, 3]})
    error = await table.p1.get("error")
    assert (error["code"], error["ref"]) == ("malformed", "s-4")


async def test_a_refused_preview_asking_for_it_carries_the_nearest_legal_alternative(table):
    # 001 [16]: the mech moves 10"; dropped 16" away, the legal end nearest is 10" along.
    unit = next(u for u in table.battle.state["units"] if u["id"] == table.u1)
    x, y = unit["position"]
    action = move(table.u1, [x, y + 16])
    await table.p1.send({"type": "preview", "ref": "a-1", "action": action, "alternative": True})
    answer = await table.p1.get("verdict")
    assert answer["verdict"]["legal"] is False
    offer = answer["alternative"]
    assert offer["action"]["unit"] == table.u1
    assert offer["end"][1] > y + 9 and offer["off_by"] < 6.5, offer
    await table.p1.send({"type": "act", "id": "a-2", "seen": 0, "action": offer["action"]})
    assert (await table.p1.get("ack", "reject"))["type"] == "ack"


async def test_a_preview_without_the_question_carries_no_alternative(table):
    unit = next(u for u in table.battle.state["units"] if u["id"] == table.u1)
    x, y = unit["position"]
    await table.p1.send({"type": "preview", "ref": "a-3", "action": move(table.u1, [x, y + 16])})
    assert "alternative" not in await table.p1.get("verdict")


async def test_the_gms_hello_tells_the_spectator_delay_in_force(table):
    await set_delay(table.battle.id, 30)
    gm = await open_socket(table.battle.id, table.users["gm"])
    try:
        assert gm.hello["spectator_delay_s"] == 30
        assert "spectator_delay_s" not in table.p1.hello
    finally:
        await gm.close()
