"""In CI the tests run on the real stack: PostgreSQL, Redis and Debian's Chromium."""

import asyncio

import pytest
from channels.layers import get_channel_layer
from django.db import connection
from django.utils.module_loading import import_string

from tabletop.settings import REDIS_LAYERS, redis_channel_layer
from tests.conftest import services_required


@pytest.mark.django_db
def test_the_suite_runs_on_postgresql_when_services_are_required() -> None:
    if not services_required():
        pytest.skip("REQUIRE_SERVICES is not set; the embedded SQLite default is in use")
    assert connection.vendor == "postgresql", "CI must run on PostgreSQL (DATABASE_URL)"
    with connection.cursor() as cursor:
        cursor.execute("select version()")
        print("database:", cursor.fetchone()[0])


@pytest.mark.parametrize("kind", sorted(REDIS_LAYERS))
async def test_the_redis_channel_layer_carries_a_group_message(redis_url: str, kind: str) -> None:
    config = redis_channel_layer(redis_url, kind)
    layer = import_string(config["BACKEND"])(**config["CONFIG"])
    channel = await layer.new_channel()
    await layer.group_add("smoke", channel)
    await layer.group_send("smoke", {"type": "ping", "n": 7})
    message = await asyncio.wait_for(layer.receive(channel), timeout=5)
    assert message == {"type": "ping", "n": 7}
    await layer.flush()


def test_the_configured_channel_layer_is_redis_when_services_are_required() -> None:
    if not services_required():
        pytest.skip("REQUIRE_SERVICES is not set; the in-memory layer is the default")
    assert type(get_channel_layer()).__name__ == "RedisPubSubChannelLayer"


@pytest.mark.browser
def test_chromium_renders_the_home_page_served_by_daphne(
    asgi_server: str, chromium_path: str
) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=["--no-sandbox"])
        page = browser.new_page()
        response = page.goto(asgi_server + "/")
        assert response is not None and response.status == 200
        assert page.title() == "Home · Tabletop"
        assert page.get_by_role("link", name="Log in").count() >= 1
        browser.close()
