"""The cap on one user's sockets at one table, claimed atomically before the handshake.

Counting presence rows raced: twenty handshakes at once all counted the same seven rows
and all opened. A socket now claims a place before it is accepted, in one
step that cannot interleave with another's: a Lua script on Redis (a sorted set of
channel names by the time they last claimed, shared by every process) when REDIS_URL is
set, or this process's memory (one event loop: no await between the count and the add).
A place is given back when the socket closes, and by a process that stops (SIGTERM: a
rolling restart ends its consumers without their `disconnect`), and otherwise lapses
after `presence.TIMEOUT` without a refresh (`keep`, as the presence row is): a process
killed with its sockets open holds their places no longer than that.
"""

import atexit
import time

import redis
import redis.asyncio
from django.conf import settings

from tabletop import limits
from tabletop.redis_clients import loop_client
from tabletop.services.table.presence import TIMEOUT

#: Seconds a claimed place lasts without a refresh.
PLACE_TTL_S = int(TIMEOUT.total_seconds())

# KEYS[1]: the user's set at the table; ARGV: channel name, cap, ttl. Redis's clock, so
# that the processes' clocks need not agree.
_CLAIM = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1000000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', t - tonumber(ARGV[3]))
if redis.call('ZSCORE', KEYS[1], ARGV[1]) == false
   and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], t, ARGV[1])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1
"""

# KEYS[1]: the user's set at the table; ARGV: channel name, ttl. One round trip: a place
# still held is refreshed (XX: one that lapsed is not taken again) by Redis's clock.
_KEEP = """
local now = redis.call('TIME')
redis.call('ZADD', KEYS[1], 'XX', tonumber(now[1]) + tonumber(now[2]) / 1000000, ARGV[1])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1
"""

#: This process's places when there is no Redis: (battle, user) -> channel -> claimed at.
_places: dict[tuple[int, int], dict[str, float]] = {}
#: The places this process holds in Redis: given back when it exits.
_held: set[tuple[str, str]] = set()


def _key(battle_id: int, user_id: int) -> str:
    return f"tabletop:sockets:{battle_id}:{user_id}"


def _client() -> redis.asyncio.Redis:
    return loop_client(settings.REDIS_URL)


async def claim(battle_id: int, user_id: int, channel_name: str) -> bool:
    """Takes one of the user's places at the table for the socket; False when all
    `limits.USER_SOCKETS` are taken. Raises `events.LAYER_ERRORS` when Redis is down."""
    if not settings.REDIS_URL:
        return _claim_here(battle_id, user_id, channel_name, time.monotonic())
    # Held from before the script runs: a process that stops, or a Redis that times out,
    # while the answer is on the way may leave the place taken unseen; the exit gives it
    # back all the same (removing a place the script did not take is harmless).
    held = (_key(battle_id, user_id), channel_name)
    _held.add(held)
    taken = await _client().register_script(_CLAIM)(
        keys=[_key(battle_id, user_id)],
        args=[channel_name, limits.USER_SOCKETS, PLACE_TTL_S],
    )
    if not taken:
        _held.discard(held)
    return bool(taken)


def _claim_here(battle_id: int, user_id: int, channel_name: str, now: float) -> bool:
    places = _places.setdefault((battle_id, user_id), {})
    for channel, at in list(places.items()):
        if at < now - PLACE_TTL_S:
            del places[channel]
    if channel_name not in places and len(places) >= limits.USER_SOCKETS:
        return False
    places[channel_name] = now
    return True


async def keep(battle_id: int, user_id: int, channel_name: str) -> None:
    """Refreshes the socket's place (it is alive), so that it does not lapse."""
    if not settings.REDIS_URL:
        places = _places.get((battle_id, user_id), {})
        if channel_name in places:  # a place that lapsed is not taken again
            places[channel_name] = time.monotonic()
        return
    await _client().register_script(_KEEP)(
        keys=[_key(battle_id, user_id)], args=[channel_name, PLACE_TTL_S]
    )


async def release(battle_id: int, user_id: int, channel_name: str) -> None:
    """Gives the socket's place back (it closed)."""
    if not settings.REDIS_URL:
        places = _places.get((battle_id, user_id), {})
        places.pop(channel_name, None)
        if not places:
            _places.pop((battle_id, user_id), None)
        return
    await _client().zrem(_key(battle_id, user_id), channel_name)
    # Only now: a process stopping meanwhile (its loop ends this task) gives it back at exit.
    _held.discard((_key(battle_id, user_id), channel_name))


@atexit.register
def _give_back_held() -> None:
    """The places of the sockets still open when the process exits (its event loop has
    stopped: a client of its own)."""
    if not _held or not settings.REDIS_URL:
        return
    try:
        pipe = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1).pipeline()
        for key, channel_name in _held:
            pipe.zrem(key, channel_name)
        pipe.execute()
    except redis.RedisError:
        pass  # they lapse
