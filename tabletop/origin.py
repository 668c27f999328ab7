"""The websocket origin check: a table socket may be opened only by this site's own pages.

Browsers send the page's origin (scheme, host, port) with every websocket handshake,
and the session cookie with it whoever the page is, so a foreign page could act at a
table as its visitor. The origin must be the site as the browser reached it, compared
whole as Django's CSRF check compares a form's origin: the scheme (https behind a TLS
proxy that says so in `SECURE_PROXY_SSL_HEADER`), the host (one of `ALLOWED_HOSTS`)
and the port; or one of `CSRF_TRUSTED_ORIGINS`. Comparing the host alone would let a
page at http://table.example:8080 (another service on the same host) in.
"""

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin1")
    return None


def _origin(scheme: str, host: str, port: int | None) -> tuple[str, str, int]:
    return scheme, host.lower(), port if port is not None else DEFAULT_PORTS.get(scheme, 0)


def page_origin(scope: dict[str, Any]) -> tuple[str, str, int] | None:
    """(scheme, host, port) of the site as the browser reached it, or None for a bad host."""
    host_header = _header(scope, b"host")
    if not host_header:
        return None
    host, port = split_domain_port(host_header)
    if not host or not validate_host(host, settings.ALLOWED_HOSTS):
        return None
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy_header:
        meta_name, secure_value = proxy_header
        said = _header(scope, meta_name.removeprefix("HTTP_").lower().replace("_", "-").encode())
        if said is not None:
            scheme = "https" if said.split(",")[0].strip() == secure_value else "http"
    return _origin(scheme, host, int(port) if port else None)


def parsed_origin(text: str) -> tuple[str, str, int] | None:
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return _origin(parts.scheme, parts.hostname, port)


def origin_allowed(scope: dict[str, Any]) -> bool:
    said = _header(scope, b"origin")
    origin = parsed_origin(said) if said else None
    if origin is None:
        return False
    if origin == page_origin(scope):
        return True
    return origin in {parsed_origin(trusted) for trusted in settings.CSRF_TRUSTED_ORIGINS}


class SameOriginValidator:
    """ASGI middleware: websockets from another origin are closed before the consumer."""

    def __init__(self, application: Any):
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not origin_allowed(scope):
            # An ASGI scope; the stub asks for Channels' own TypedDict of one.
            return await WebsocketDenier()(scope, receive, send)  # type: ignore[arg-type]
        return await self.application(scope, receive, send)
