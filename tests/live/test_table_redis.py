"""The table on the real Redis channel layer, whatever the suite's default layer is."""

import pytest
from channels.layers import get_channel_layer

from tabletop.settings import REDIS_LAYERS, redis_channel_layer
from tests.live.conftest import make_table, move
from tests.live.helpers import open_socket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(params=sorted(REDIS_LAYERS))
def redis_layer(request, redis_url, settings):
    """Each of the channels-redis layers that REDIS_LAYER chooses between; its class name."""
    layer = redis_channel_layer(redis_url, request.param)
    settings.CHANNEL_LAYERS = {"default": layer}
    return layer["BACKEND"].rsplit(".", 1)[1]


async def test_an_act_reaches_players_and_spectators_through_redis(redis_layer):
    assert type(get_channel_layer()).__name__ == redis_layer
    battle, users = await make_table()
    p1 = await open_socket(battle.id, users["p1"])
    watcher = await open_socket(battle.id, users["spectator"])
    unit = next(u["id"] for u in battle.state["units"] if u["side"] == "P1")
    await p1.send({"type": "act", "id": "m-1", "seen": 0, "action": move(unit, [1.5, 6.5])})
    assert (await p1.get("ack"))["seq"] == 1
    event = await watcher.get("event")
    assert (event["kind"], watcher.unit(unit)["position"]) == ("act", [1.5, 6.5])
    assert watcher.hash == event["hash"]
    await p1.close()
    await watcher.close()


async def test_a_resend_through_redis_is_answered_once(redis_layer):
    battle, users = await make_table()
    p1 = await open_socket(battle.id, users["p1"])
    other = await open_socket(battle.id, users["p2"])
    frame = {"type": "chat", "id": "c-1", "text": "once"}
    await p1.send(frame)
    await p1.send(frame)
    assert await p1.get("ack") == await p1.get("ack")
    assert (await other.get("event"))["text"] == "once"
    assert await other.quiet(timeout=0.5)
    await p1.close()
    await other.close()
