"""What the deployment tests share: PostgreSQL, nginx and a battle with its people."""

import pytest
from django.db import connection

from tests.conftest import _database_url_of_test_db, need
from tests.deploy.stack import nginx_available
from tests.web.factories import make_battle_sync


@pytest.fixture
def postgresql() -> str:
    need(
        "PostgreSQL",
        connection.vendor == "postgresql",
        "the deployment runs several processes on PostgreSQL (DATABASE_URL)",
    )
    return _database_url_of_test_db()


@pytest.fixture
def nginx() -> None:
    need("nginx", nginx_available(), "apt-get install nginx (Debian's)")


@pytest.fixture
def battle_and_people():
    battle, users = make_battle_sync("d-")
    battle.state = {**battle.state, "state": {"orders_available": 3}}
    battle.save(update_fields=["state"])
    return battle, users
