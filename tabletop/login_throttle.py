"""Login throttling that slows guessers without letting a stranger lock an owner out.

Failed logins are counted three ways, each with back-off rather than a lock: once a count
reaches its allowance the next attempt waits `LOGIN_BACKOFF_SECONDS`, and each further
failure doubles the wait, up to `LOGIN_BACKOFF_MAX_SECONDS`. While a wait runs, logins
it covers are refused without the password being tried (so they count nothing).

- Per (user name, address) pair, `LOGIN_FAILURES_ALLOWED` (5): someone mistyping, or
  one machine guessing one account. Only that pair waits: a stranger's failures from
  elsewhere never stop the owner logging in from their own address.
- Per address, across every name, `LOGIN_ADDRESS_FAILURES_ALLOWED` (50): one machine
  cannot try every name, or one password on every account.
- Per user name, across every address, `LOGIN_NAME_FAILURES_ALLOWED` (100): a guesser
  spread over many addresses is slowed to one guess per wait, a few an hour once the
  wait is at its cap. This ceiling is deliberately not a hard lock, and it does not
  apply at all from an address the name has logged in from before (remembered for
  `KNOWN_ADDRESS_DAYS`): otherwise anyone could keep an account's owner out just by
  failing with its name from a few machines. The owner on a new machine waits at most
  the cap, or resets the password.

A successful login clears its pair's count only (clearing the address's or the name's
would let a guesser with one account of their own wipe their tracks). A completed
password reset clears everything counted for the name (`forget_name`): pair counts and
name count are keyed by a per-name epoch that the reset replaces.

Failures are remembered for `LOGIN_FAILURE_MEMORY_SECONDS` after the first one. The
counts live in the cache (tabletop/rate_limits.py): Redis when `REDIS_URL` is set.
"""

import secrets
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from tabletop import rate_limits
from tabletop.rate_limits import client_address, digest, in_words, increment, safely

KNOWN_ADDRESS_DAYS = 90

#: Why a login waits, in the words the login page shows; {wait} is "3 minutes".
REASONS = {
    "pair": "Too many failed logins for this account from your address. "
    "Try again in {wait}, or reset your password.",
    "address": "Too many failed logins from your address. Try again in {wait}.",
    "name": "Too many failed logins for this account from many places. Try again in "
    "{wait}, log in from where you usually do, or reset your password.",
}


@dataclass(frozen=True)
class Wait:
    seconds: float
    reason: str  # a key of REASONS

    @property
    def message(self) -> str:
        return REASONS[self.reason].format(wait=in_words(self.seconds))


def _epoch(name: str) -> str:
    return str(cache.get(f"limits:login:epoch:{name}") or "0")


def _counters(username: str, request: HttpRequest | None) -> dict[str, tuple[str, int]]:
    """The reason -> (cache key, failures allowed) of a login's counters."""
    name = digest(username)
    address = digest(client_address(request))
    epoch = _epoch(name)
    return {
        "pair": (f"limits:login:pair:{name}:{epoch}:{address}", settings.LOGIN_FAILURES_ALLOWED),
        "address": (f"limits:login:address:{address}", settings.LOGIN_ADDRESS_FAILURES_ALLOWED),
        "name": (f"limits:login:name:{name}:{epoch}", settings.LOGIN_NAME_FAILURES_ALLOWED),
    }


def _known_key(username: str, request: HttpRequest | None) -> str:
    return f"limits:login:known:{digest(username)}:{digest(client_address(request))}"


def backoff(failures: int, allowed: int) -> float:
    """The wait after `failures`: none within the allowance, then doubling to the cap."""
    if failures < allowed:
        return 0.0
    first = settings.LOGIN_BACKOFF_SECONDS
    return float(min(first * 2 ** min(failures - allowed, 32), settings.LOGIN_BACKOFF_MAX_SECONDS))


def wait_before_login(username: str, request: HttpRequest | None) -> Wait | None:
    """The longest wait this login is under, or None when it may be tried now."""

    def read() -> Wait | None:
        counters = _counters(username, request)
        if cache.get(_known_key(username, request)):
            del counters["name"]  # the owner's usual address: the name's ceiling is not theirs
        untils = cache.get_many([f"{key}:until" for key, _ in counters.values()])
        waits = [
            Wait(float(untils[f"{key}:until"]) - rate_limits.now(), reason)
            for reason, (key, _) in counters.items()
            if float(untils.get(f"{key}:until", 0)) > rate_limits.now()
        ]
        return max(waits, key=lambda wait: wait.seconds, default=None)

    return safely(None, read)


def failed(username: str, request: HttpRequest | None) -> None:
    memory = settings.LOGIN_FAILURE_MEMORY_SECONDS

    def write() -> None:
        for key, allowed in _counters(username, request).values():
            wait = backoff(increment(key, memory), allowed)
            if wait:
                cache.set(f"{key}:until", rate_limits.now() + wait, memory)

    safely(None, write)


def succeeded(username: str, request: HttpRequest | None) -> None:
    """Clears the pair's count, and remembers the address as one the name uses."""

    def write() -> None:
        key, _ = _counters(username, request)["pair"]
        cache.delete_many([key, f"{key}:until"])
        cache.set(_known_key(username, request), 1, KNOWN_ADDRESS_DAYS * 24 * 3600)

    safely(None, write)


def forget_name(username: str) -> None:
    """Forgets every failure counted for `username` (a completed password reset)."""
    name = digest(username)
    safely(None, lambda: cache.set(f"limits:login:epoch:{name}", secrets.token_hex(8), None))
