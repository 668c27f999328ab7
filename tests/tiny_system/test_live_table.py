"""The tiny system at the live table: a Daphne process that finds it only through its
path (site/ on PYTHONPATH), a battle made through the services, players on real
websockets. The web side names no system: it takes this one as it takes the seed ones."""

import json
import os

import pytest

from tabletop.services.battle_setup import Table, UnitEntry
from tests.conftest import free_port, start_asgi_server, stop_asgi_server
from tests.live.helpers import in_thread, session_cookie
from tests.live.wsclient import LiveClient
from tests.tiny_system.conftest import SCENARIO, SITE
from tests.web.factories import battle_for_people

pytestmark = pytest.mark.django_db(transaction=True)

SCOUT = {"move": 8, "base": {"shape": "circle", "diameter": 1}}
#: Each side deploys along its own edge: P1 the west one, P2 the east one.
ZONES = {"P1": [[0, 0], [4, 0], [4, 24], [0, 24]], "P2": [[20, 0], [24, 0], [24, 24], [20, 24]]}


@in_thread
def tiny_battle():
    """The scenario's field (woods W1, lava L1) with a scout a side, P1's where S1 stands."""
    forces = {
        side: (f"{side} scouts", [UnitEntry(f"{side} scout", "scout", SCOUT)]) for side in ZONES
    }
    terrain = json.loads(SCENARIO.read_text())["terrain"]
    return battle_for_people(
        "tiny",
        "tinyskirmish",
        forces,
        table=Table("Field", 24, 24, terrain),
        deployment_zones=ZONES,
        placements={"P1 scout": [2, 12], "P2 scout": [22, 12]},
    )


@pytest.fixture
def server(redis_url, installed):
    """Daphne with the tiny system on its path, as a site's installed package would be."""
    path = os.pathsep.join(filter(None, [str(SITE), os.environ.get("PYTHONPATH")]))
    process = start_asgi_server(port := free_port(), {"REDIS_URL": redis_url, "PYTHONPATH": path})
    yield f"http://127.0.0.1:{port}"
    stop_asgi_server(process)


async def seated(server, battle, user) -> LiveClient:
    client = LiveClient(user.username, server, battle.id, await session_cookie(user))
    await client.connect()
    await client.until(lambda: any(f["type"] == "snapshot" for f in client.frames))
    return client


async def test_players_move_its_scouts_and_read_its_refusals(server):
    battle, users = await tiny_battle()
    scout = next(u["id"] for u in battle.state["units"] if u["side"] == "P1")
    p1, p2, spectator = [await seated(server, battle, users[r]) for r in ("p1", "p2", "spectator")]

    through_woods = {"unit": scout, "type": "move", "path": [[6, 12]]}  # 2 open + 2 x 2 woods
    answer = await p1.request({"type": "act", "id": "t-1", "seen": 0, "action": through_woods})
    assert answer == {"type": "ack", "id": "t-1", "seq": 1}
    await p2.at_seq(1)
    assert p2.unit(scout)["position"] == [6, 12]

    deep_in_woods = {"unit": scout, "type": "move", "path": [[6, 17]]}  # 5 x 2 woods
    answer = await p1.request({"type": "act", "id": "t-2", "seen": 1, "action": deep_in_woods})
    assert answer["type"] == "reject"
    assert answer["reasons"][0]["message"] == f'{scout} needs 10" but has 8"'

    answer = await spectator.request(
        {"type": "act", "id": "t-3", "seen": 1, "action": through_woods}
    )
    assert (answer["type"], answer["code"]) == ("error", "forbidden")
    for client in (p1, p2, spectator):
        await client.close()
