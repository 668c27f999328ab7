"""Health endpoints for the process manager, the proxy and monitoring.

`/healthz`: the process is up and answers (no database, no Redis): restart it if not.
`/readyz`: it can do its work: a database query and a channel-layer round trip (a
message sent to itself through Redis, as a table's broadcasts go) each answer within
`TIMEOUT_S`. 503 names what failed: take the process out of rotation, or look at the
service. Both are exempt from the https redirect (probes come over plain http).
"""

import asyncio
import logging
import time

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from tabletop.events import channel_layer
from tabletop.metrics import REGISTRY
from tabletop.table_metrics import TablesCollector
from tabletop.version import VERSION

logger = logging.getLogger(__name__)

TIMEOUT_S = 3.0
REGISTRY.register(TablesCollector())


@never_cache
def metrics(request: HttpRequest) -> HttpResponse:
    """Prometheus' text format (tabletop/metrics.py), for the monitoring host only: from an
    address in METRICS_ALLOWED_ADDRESSES (loopback by default), else 404. nginx does not
    proxy it either."""
    if request.META.get("REMOTE_ADDR") not in settings.METRICS_ALLOWED_ADDRESSES:
        raise Http404("No such page.")
    return HttpResponse(generate_latest(REGISTRY), content_type=CONTENT_TYPE_LATEST)


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok", "version": VERSION})


def _database_answers() -> None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    finally:
        connection.close()  # a probe every few seconds must not hold a connection


async def _channel_layer_answers() -> None:
    layer = channel_layer()
    # Both layers the settings choose (in-memory, channels-redis) take a prefix; the
    # base class's stub does not.
    channel = await layer.new_channel("health.")  # type: ignore[call-arg]
    await layer.send(channel, {"type": "health.ping", "at": time.time()})
    message = await layer.receive(channel)
    if message.get("type") != "health.ping":
        raise RuntimeError(f"the channel layer returned {message.get('type')!r}")


async def _check(name: str, check, results: dict[str, str]) -> None:
    try:
        await asyncio.wait_for(check(), TIMEOUT_S)
        results[name] = "ok"
    except TimeoutError:
        results[name] = f"no answer within {TIMEOUT_S:g} s"
    except Exception as error:  # any failure is the answer; the log keeps the details
        logger.warning("readyz: %s failed: %r", name, error)
        results[name] = f"{type(error).__name__}: {error}"[:300]


@never_cache
async def readyz(request: HttpRequest) -> JsonResponse:
    results: dict[str, str] = {}
    await _check("database", sync_to_async(_database_answers, thread_sensitive=False), results)
    await _check("channel_layer", _channel_layer_answers, results)
    ready = all(value == "ok" for value in results.values())
    return JsonResponse(
        {"status": "ok" if ready else "unavailable", **results}, status=200 if ready else 503
    )
