"""The ASGI app: HTTP to Django; websockets to the table behind auth and an origin check."""

import pytest
from channels.testing import HttpCommunicator, WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from tabletop.asgi import application
from tests.live.helpers import in_thread
from tests.web.factories import make_battle_sync

# Helpers run in the sync thread and close its connection (else the test database stays open).
make_battle = in_thread(make_battle_sync)

pytestmark = pytest.mark.django_db(transaction=True)


def session_cookie_for(user) -> bytes:
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}".encode()


def socket_for(battle_id: int, *, cookie: bytes | None, origin: bytes = b"http://127.0.0.1"):
    headers = [(b"origin", origin), (b"host", b"127.0.0.1")]
    if cookie:
        headers.append((b"cookie", cookie))
    return WebsocketCommunicator(application, f"/ws/battles/{battle_id}/", headers=headers)


async def test_the_asgi_app_serves_the_home_page() -> None:
    communicator = HttpCommunicator(application, "GET", "/", headers=[(b"host", b"127.0.0.1")])
    response = await communicator.get_response()
    assert response["status"] == 200
    assert b"Tabletop" in response["body"]


async def test_a_member_opens_the_table_socket_and_gets_the_snapshot() -> None:
    battle, users = await make_battle()
    socket = socket_for(battle.id, cookie=await session_cookie(users["p1"]))
    connected, _ = await socket.connect()
    assert connected
    hello = await socket.receive_json_from()
    assert hello["type"] == "hello"
    assert hello["you"]["role"] == "player"
    snapshot = await socket.receive_json_from()
    assert snapshot["type"] == "snapshot"
    assert snapshot["seq"] == 0
    assert snapshot["state"]["system"] == "aod"
    await socket.disconnect()


async def test_an_anonymous_socket_is_refused() -> None:
    battle, _ = await make_battle()
    socket = socket_for(battle.id, cookie=None)
    connected, code = await socket.connect()
    assert not connected
    assert code == 4403


async def test_a_user_of_another_campaign_is_refused() -> None:
    battle, _ = await make_battle()
    stranger = await _user("stranger")
    socket = socket_for(battle.id, cookie=await session_cookie(stranger))
    connected, _ = await socket.connect()
    assert not connected


async def test_a_socket_from_a_foreign_origin_is_refused() -> None:
    battle, users = await make_battle()
    socket = socket_for(
        battle.id, cookie=await session_cookie(users["p1"]), origin=b"http://evil.example"
    )
    connected, _ = await socket.connect()
    assert not connected


async def session_cookie(user) -> bytes:
    return await in_thread(session_cookie_for)(user)


async def _user(name: str):
    return await in_thread(get_user_model().objects.create_user)(name, password="pw-12345678")
