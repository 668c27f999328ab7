"""One user's share of the rules engine's time, whatever their sockets and processes.

A bucket of engine milliseconds (CPU, measured) per user: `limits.ENGINE_MS_PER_S` a
second, `limits.ENGINE_BURST_MS` at once. A request reserves `limits.ENGINE_RESERVE_MS`
before it runs, and is refused if the balance cannot hold that much; afterwards it is
settled with what it really cost (the unused part refunded, an overrun charged, so the
balance may go below zero and the user waits until it is earned back).

With REDIS_URL the bucket is kept in Redis, so that all the server's processes share it:
one small Lua script reads, refills and takes atomically on Redis' clock, and the key
expires when it would be full again (a full bucket and no key are the same). Without it
(the embedded default: SQLite and one process) it is kept in this process's memory.
Either way it outlives the user's sockets: closing and reopening one refills nothing.
"""

import asyncio
import logging
import time
import weakref
from typing import Any

from django.conf import settings
from redis.exceptions import RedisError

from tabletop import limits
from tabletop.redis_clients import loop_client

logger = logging.getLogger(__name__)

#: KEYS[1] the user's bucket; ARGV rate (ms a second), burst (ms), need (take only if the
#: balance holds this much; "" takes unconditionally), cost. Returns {taken, balance}.
BUCKET_LUA = """
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local need, cost = tonumber(ARGV[3]), tonumber(ARGV[4])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local held = redis.call('HMGET', KEYS[1], 'balance', 'stamp', 'burst')
local balance = tonumber(held[1]) or burst
local stamp = tonumber(held[2]) or now
balance = balance + burst - (tonumber(held[3]) or burst)
balance = math.min(burst, balance + math.max(0, now - stamp) * rate)
local taken = 0
if need == nil or (balance > 0 and balance >= need) then
  balance = balance - cost
  taken = 1
end
redis.call('HSET', KEYS[1], 'balance', tostring(balance), 'stamp', tostring(now),
           'burst', tostring(burst))
local full_in_ms = 86400000
if rate > 0 then full_in_ms = math.ceil(1000 * (burst - balance) / rate) end
redis.call('PEXPIRE', KEYS[1], full_in_ms + 1000)
return {taken, tostring(balance)}
"""

#: This process's buckets: without Redis, or while it does not answer.
_local: dict[int, limits.Budget] = {}
_SWEEP_AT = 1000
#: The script per event loop and Redis address: a redis.asyncio connection belongs to one loop.
_scripts: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, Any]]"
_scripts = weakref.WeakKeyDictionary()
_redis_down = False
#: While Redis does not answer, it is asked again only this often (monotonic time of the
#: next try): a request must not wait for a connection timeout each time.
RETRY_S = 5.0
_retry_at = 0.0


def reservation_ms() -> float:
    """What a request reserves: never more than the bucket holds, or none would pass."""
    return min(limits.ENGINE_RESERVE_MS, limits.ENGINE_BURST_MS)


def key_prefix() -> str:
    # Named after the database: two sites (or test runs) on one Redis keep apart.
    return f"tabletop:engine-ms:{settings.DATABASES['default']['NAME']}:"


def _local_bucket(user_id: int) -> limits.Budget:
    if len(_local) > _SWEEP_AT:
        for idle in [uid for uid, bucket in _local.items() if bucket.full()]:
            del _local[idle]
    bucket = _local.setdefault(
        user_id, limits.Budget(limits.ENGINE_MS_PER_S, limits.ENGINE_BURST_MS)
    )
    bucket.resize(limits.ENGINE_MS_PER_S, limits.ENGINE_BURST_MS)  # a limit changed since
    return bucket


def _script() -> Any:
    """The bucket's script on the loop's shared client (tabletop/redis_clients.py): the
    sockets' places and the channel layer's check use the same connections."""
    by_url = _scripts.setdefault(asyncio.get_running_loop(), {})
    script = by_url.get(settings.REDIS_URL)
    if script is None:
        client = loop_client(settings.REDIS_URL)
        script = by_url[settings.REDIS_URL] = client.register_script(BUCKET_LUA)
    return script


async def _in_redis(user_id: int, need: float | None, cost: float) -> bool | None:
    """Takes `cost` from the user's bucket in Redis (if it holds `need`); None when there
    is no Redis, or it does not answer (then this process's bucket stands in)."""
    global _redis_down, _retry_at
    if not settings.REDIS_URL or (_redis_down and time.monotonic() < _retry_at):
        return None
    try:
        taken, _ = await _script()(
            keys=[key_prefix() + str(user_id)],
            args=[
                limits.ENGINE_MS_PER_S,
                limits.ENGINE_BURST_MS,
                "" if need is None else need,
                cost,
            ],
        )
    except (RedisError, OSError, TimeoutError) as error:
        if not _redis_down:
            logger.warning("engine budgets kept per process: Redis does not answer (%s)", error)
        _redis_down, _retry_at = True, time.monotonic() + RETRY_S
        return None
    if _redis_down:
        logger.warning("engine budgets shared through Redis again")
        _redis_down = False
    return bool(taken)


async def reserve(user_id: int) -> float | None:
    """The milliseconds reserved for one engine request of the user's, or None when their
    balance cannot hold them (the request is refused before any work)."""
    cost = reservation_ms()
    taken = await _in_redis(user_id, cost, cost)
    if taken is None:
        taken = _local_bucket(user_id).reserve(cost)
    return cost if taken else None


async def settle(user_id: int, *, reserved: float, spent: float) -> None:
    """The request reserved `reserved` ms and cost `spent`: the difference either way."""
    if spent == reserved:
        return
    if await _in_redis(user_id, None, spent - reserved) is None:
        _local_bucket(user_id).charge(spent - reserved)


def forget_everyone() -> None:
    """Every bucket full again: a fresh database (the tests' next one) reuses user ids."""
    global _redis_down, _retry_at
    _local.clear()
    _redis_down, _retry_at = False, 0.0
    if settings.REDIS_URL:
        import redis as sync_redis

        client = sync_redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)
        try:
            keys = list(client.scan_iter(match=key_prefix() + "*", count=500))
            if keys:
                client.delete(*keys)
        finally:
            client.close()
