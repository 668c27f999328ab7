"""The websocket origin check compares scheme, host and port (tabletop/origin.py)."""

import pytest
from channels.testing import WebsocketCommunicator

from tabletop.asgi import application
from tabletop.origin import origin_allowed
from tests.live.helpers import in_thread
from tests.web.factories import make_battle_sync
from tests.web.test_asgi import session_cookie


def scope(origin: str | None, host: str, scheme: str = "ws", **headers: str) -> dict:
    pairs = [(b"host", host.encode())]
    if origin is not None:
        pairs.append((b"origin", origin.encode()))
    pairs += [(name.encode(), value.encode()) for name, value in headers.items()]
    return {"type": "websocket", "scheme": scheme, "headers": pairs}


@pytest.mark.parametrize(
    ("origin", "host", "allowed"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", True),
        ("http://localhost", "localhost", True),
        ("http://localhost:80", "localhost", True),  # the default port, written or not
        ("http://127.0.0.1:9999", "127.0.0.1:8000", False),  # another port: another site
        ("https://127.0.0.1:8000", "127.0.0.1:8000", False),  # another scheme
        ("http://evil.example", "127.0.0.1", False),
        ("http://evil.example", "evil.example", False),  # a host not in ALLOWED_HOSTS
        ("null", "127.0.0.1", False),
        (None, "127.0.0.1", False),
    ],
)
def test_the_origin_must_be_the_site_s_own_scheme_host_and_port(origin, host, allowed) -> None:
    assert origin_allowed(scope(origin, host)) is allowed


def test_behind_a_tls_proxy_the_scheme_is_the_one_the_proxy_reports(settings) -> None:
    settings.ALLOWED_HOSTS = ["table.example.org"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    proxied = {"x-forwarded-proto": "https"}
    assert origin_allowed(scope("https://table.example.org", "table.example.org", **proxied))
    assert not origin_allowed(scope("http://table.example.org", "table.example.org", **proxied))
    # Without the setting, the header is not believed: the socket is plain ws.
    settings.SECURE_PROXY_SSL_HEADER = None
    assert not origin_allowed(scope("https://table.example.org", "table.example.org", **proxied))


def test_a_trusted_origin_is_allowed_whatever_the_host(settings) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.org"]
    assert origin_allowed(scope("https://play.example.org", "127.0.0.1"))
    assert not origin_allowed(scope("https://play.example.org:8443", "127.0.0.1"))


@pytest.mark.django_db(transaction=True)
async def test_a_socket_from_the_same_host_on_another_port_is_refused() -> None:
    battle, users = await in_thread(make_battle_sync)("o-")
    cookie = await session_cookie(users["p1"])
    for origin, accepted in ((b"http://127.0.0.1:8000", True), (b"http://127.0.0.1:8001", False)):
        socket = WebsocketCommunicator(
            application,
            f"/ws/battles/{battle.id}/",
            headers=[(b"origin", origin), (b"host", b"127.0.0.1:8000"), (b"cookie", cookie)],
        )
        connected, _ = await socket.connect()
        assert connected is accepted
        await socket.disconnect()
