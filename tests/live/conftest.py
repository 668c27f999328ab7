"""Fixtures of the live-table tests: an active aod battle and its people at the table."""

from dataclasses import dataclass

import pytest

from tabletop.models import Battle
from tests.live.helpers import Seats, in_thread, open_sockets
from tests.web.factories import make_battle_sync


@dataclass
class Table(Seats):
    u1: str  # P1's mech
    u2: str  # P2's mech


def make_table_sync(prefix: str = "", orders: int = 1) -> tuple[Battle, dict]:
    """The factory's battle, with `orders` orders a turn (its 0-point units would have none)."""
    battle, users = make_battle_sync(prefix)
    battle.state = {**battle.state, "state": {"orders_available": orders}}
    battle.save(update_fields=["state"])
    return battle, users


make_table = in_thread(make_table_sync)


async def seat(battle: Battle, users: dict) -> Table:
    """Everyone at `battle`, with a socket each; u1 and u2 the sides' mechs."""
    u1 = next(u["id"] for u in battle.state["units"] if u["side"] == "P1")
    u2 = next(u["id"] for u in battle.state["units"] if u["side"] == "P2")
    return Table(battle, users, u1=u1, u2=u2, **await open_sockets(battle, users))


@pytest.fixture
async def table(transactional_db):
    t = await seat(*await make_table())
    yield t
    await t.leave()


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


@pytest.fixture(autouse=True)
def fresh_user_limits():
    """Every user's limits full at the start: they outlive a user's sockets (issue 21), and
    a test's new database may give its users the ids of the last test's."""
    from tabletop import limits
    from tabletop.services.table import engine_budget

    limits.forget_everyone()
    engine_budget.forget_everyone()
    yield
