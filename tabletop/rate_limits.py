"""Counters in the cache that limit what one address or one account may ask for.

Two kinds share these helpers: the fixed windows here (so many reset mails, sign-ups
or wrong current passwords within `ACCOUNT_LIMIT_WINDOW_SECONDS`) and the login
back-off (tabletop/login_throttle.py). The counts live in the cache: Redis when
`REDIS_URL` is set, so every process sees them. When the cache does not answer, the
limit is logged and let through: an outage of Redis must not lock everybody out.

Times come from `now()`, which tests replace: the waits are computed from stored
times, never from the cache's own expiry, so a test can step the clock.
"""

import hashlib
import logging
import math
import time
from collections.abc import Callable
from typing import TypeVar

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

logger = logging.getLogger(__name__)

T = TypeVar("T")


def now() -> float:
    return time.time()


def digest(*parts: str) -> str:
    """A short, case-blind key part for user input (names, addresses of mail)."""
    text = "\0".join(part.strip().casefold() for part in parts)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def client_address(request: HttpRequest | None) -> str:
    """The browser's address. Behind a proxy it is the browser's only when the ASGI
    server reads X-Forwarded-For (Daphne --proxy-headers, docs/deploy)."""
    address = request.META.get("REMOTE_ADDR") if request is not None else None
    return address or "unknown"


def address_key(kind: str, request: HttpRequest | None) -> str:
    """The key of a limit on `kind` of request per client address."""
    return f"limits:{kind}:address:{digest(client_address(request))}"


def safely(default: T, action: Callable[[], T]) -> T:
    """`action()`, or `default` when the cache fails (logged)."""
    try:
        return action()
    except Exception as error:  # the cache down: log, and let the request through
        logger.warning("rate limits: the cache did not answer (%r)", error)
        return default


def increment(key: str, timeout: int) -> int:
    """Adds one to the count at `key` (created with `timeout`), returns the new count."""
    if cache.add(key, 1, timeout):
        return 1
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout)
        return 1


def in_words(seconds: float) -> str:
    """'40 seconds', '1 minute', '15 minutes': how long to wait, rounded up."""
    whole = max(1, math.ceil(seconds))
    if whole < 60:
        return f"{whole} second{'s' if whole != 1 else ''}"
    minutes = math.ceil(whole / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def wait_for(key: str, limit: int) -> float:
    """Seconds until the window at `key` takes another request (0: now)."""

    def read() -> float:
        values = cache.get_many([key, f"{key}:until"])
        until = float(values.get(f"{key}:until", 0))
        if values.get(key, 0) >= limit and until > now():
            return until - now()
        return 0.0

    return safely(0.0, read)


def count(key: str) -> None:
    """Counts one request in the window at `key`; the first one opens the window."""
    window = settings.ACCOUNT_LIMIT_WINDOW_SECONDS

    def write() -> None:
        until = cache.get(f"{key}:until")
        if until is None or float(until) <= now():
            cache.set_many({key: 1, f"{key}:until": now() + window}, window)
        else:
            increment(key, window)

    safely(None, write)


def take(key: str, limit: int) -> float:
    """Counts a request unless the window is full; the seconds to wait when it is."""
    wait = wait_for(key, limit)
    if not wait:
        count(key)
    return wait
