"""What the account tests share: a clean slate of limits, a clock to step, sign-up data."""

import pytest
from django.core.cache import cache

from tabletop import rate_limits

PASSWORD = "Tabletop-2026!"


def forget_limits() -> None:
    """Deletes the limits' counts only: in CI the cache is the Redis others use too."""
    redis_cache = getattr(cache, "_cache", None)
    if redis_cache is not None and hasattr(redis_cache, "get_client"):
        client = redis_cache.get_client(write=True)
        for key in client.scan_iter(match="*limits:*"):
            client.delete(key)
    else:
        cache.clear()


@pytest.fixture(autouse=True)
def no_limits_counted_yet():
    """The limits' counts live in the cache (Redis in CI): each test starts clean."""
    forget_limits()
    yield
    forget_limits()


class Clock:
    """rate_limits.now(), stepped by the test: waits are computed from it, not slept."""

    def __init__(self, start: float) -> None:
        self.time = start

    def __call__(self) -> float:
        return self.time

    def advance(self, seconds: float) -> None:
        self.time += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    stepped = Clock(rate_limits.now())
    monkeypatch.setattr(rate_limits, "now", stepped)
    return stepped


def signup_data(username: str, email: str) -> dict[str, str]:
    return {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
