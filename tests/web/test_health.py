"""/healthz (the process answers) and /readyz (the database and the channel layer answer)."""

import socket

import pytest
from channels.layers import channel_layers
from django.test import AsyncClient, Client

from tests.conftest import free_port


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """A layer per test: the Redis layer's connections belong to one event loop."""
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


def test_healthz_answers_without_touching_the_database() -> None:
    # No django_db mark: a query here would fail the test.
    response = Client().get("/healthz")
    assert response.status_code == 200
    assert response.json()["status"] == "ok"
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db(transaction=True)
async def test_readyz_reports_the_database_and_the_channel_layer_ready() -> None:
    response = await AsyncClient().get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "channel_layer": "ok"}


@pytest.mark.django_db(transaction=True)
async def test_readyz_reports_a_redis_that_does_not_answer(settings) -> None:
    """A channel layer on a port where no Redis listens: 503, naming the channel layer."""
    port = free_port()
    with socket.socket() as probe:  # nothing listens there
        assert probe.connect_ex(("127.0.0.1", port)) != 0
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{port}/0"]},
        }
    }
    channel_layers.backends.clear()
    response = await AsyncClient().get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["database"] == "ok"
    assert body["channel_layer"] != "ok"


@pytest.mark.django_db(transaction=True)
def test_health_endpoints_are_not_redirected_to_https(settings) -> None:
    """Probes talk plain http to the processes, which redirect everything else."""
    settings.SECURE_SSL_REDIRECT = True
    assert Client().get("/healthz").status_code == 200
    assert Client().get("/").status_code == 301
