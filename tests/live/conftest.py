"""Fixtures of the live-table tests: an active aod battle and its people at the table."""

from dataclasses import dataclass

import pytest

from tabletop.models import Battle
from tests.live.helpers import Socket, in_thread, open_socket
from tests.web.factories import make_battle_sync


@dataclass
class Table:
    battle: object
    users: dict
    gm: Socket
    p1: Socket
    p2: Socket
    spectator: Socket
    u1: str  # P1's mech
    u2: str  # P2's mech

    @property
    def sockets(self) -> list[Socket]:
        return [self.gm, self.p1, self.p2, self.spectator]


def make_table_sync(prefix: str = "", orders: int = 1) -> tuple[Battle, dict]:
    """The factory's battle, with `orders` orders a turn (its 0-point units would have none)."""
    battle, users = make_battle_sync(prefix)
    battle.state = {**battle.state, "state": {"orders_available": orders}}
    battle.save(update_fields=["state"])
    return battle, users


make_table = in_thread(make_table_sync)


@pytest.fixture
async def table(transactional_db):
    battle, users = await make_table()
    sockets = {role: await open_socket(battle.id, users[role]) for role in users}
    u1 = next(u["id"] for u in battle.state["units"] if u["side"] == "P1")
    u2 = next(u["id"] for u in battle.state["units"] if u["side"] == "P2")
    t = Table(battle, users, u1=u1, u2=u2, **sockets)
    yield t
    for socket in t.sockets:
        await socket.close()


def move(unit: str, to: list[float], **extra) -> dict:
    return {"unit": unit, "type": "move", "path": [to], **extra}


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """The factories create users with passwords; the live tests never check one."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """A channel layer for each test: the Redis layer's locks belong to one event loop."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()
