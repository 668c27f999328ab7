"""Login throttling: failed logins are counted per user name and per client address.

After `LOGIN_FAILURES_ALLOWED` failures for one user name (or ten times as many from
one address, so that one machine cannot try every name) within `LOGIN_LOCKOUT_SECONDS`,
further logins are refused until the window has passed, right password or not. A
successful login clears its name's count. The counts live in the cache: Redis when
`REDIS_URL` is set, so every process sees them. Behind a proxy the address is the
browser's only when the ASGI server reads X-Forwarded-For (Daphne --proxy-headers).
"""

import hashlib
import logging

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

logger = logging.getLogger(__name__)

ADDRESS_FACTOR = 10


def _keys(username: str, request: HttpRequest | None) -> list[tuple[str, int]]:
    allowed = settings.LOGIN_FAILURES_ALLOWED
    name = hashlib.sha256(username.strip().casefold().encode()).hexdigest()[:32]
    keys = [(f"login-failures:name:{name}", allowed)]
    address = request.META.get("REMOTE_ADDR") if request is not None else None
    if address:
        keys.append((f"login-failures:address:{address}", allowed * ADDRESS_FACTOR))
    return keys


def is_locked_out(username: str, request: HttpRequest | None) -> bool:
    try:
        counts = cache.get_many([key for key, _ in _keys(username, request)])
    except Exception as error:  # the cache down: log, and let logins through
        logger.warning("login throttle: the cache did not answer (%r)", error)
        return False
    return any(counts.get(key, 0) >= limit for key, limit in _keys(username, request))


def failed(username: str, request: HttpRequest | None) -> None:
    timeout = settings.LOGIN_LOCKOUT_SECONDS
    try:
        for key, _ in _keys(username, request):
            if cache.add(key, 1, timeout):
                continue
            try:
                cache.incr(key)
            except ValueError:  # expired between add and incr
                cache.set(key, 1, timeout)
    except Exception as error:
        logger.warning("login throttle: the cache did not answer (%r)", error)


def succeeded(username: str, request: HttpRequest | None) -> None:
    try:
        cache.delete(_keys(username, request)[0][0])
    except Exception as error:
        logger.warning("login throttle: the cache did not answer (%r)", error)
