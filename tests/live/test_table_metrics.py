"""What a process counts as it serves tables (issue 22, monitoring; tabletop/metrics.py):
its open sockets, moves judged and refused, engine time. Read from the registry that
/metrics serves, around real socket traffic."""

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

from tabletop.metrics import REGISTRY
from tests.live.conftest import move

pytestmark = pytest.mark.django_db(transaction=True)


async def value(name: str, **labels: str) -> float:
    # Collecting reads the database too (the tables' figures): in a thread.
    return await sync_to_async(REGISTRY.get_sample_value)(name, labels) or 0.0


async def frames(frame: str, outcome: str) -> float:
    """Frames of type `frame` ("invalid": refused before their type was known) answered
    with `outcome`."""
    return await value("tabletop_table_frames_total", type=frame, outcome=outcome)


async def test_sockets_moves_judged_and_refused_and_engine_time_are_counted(table):
    # Everyone at the table (gm, p1, p2, spectator) holds a socket of this process.
    assert await value("tabletop_process_table_sockets") >= 4
    before = {
        "ack": await frames("act", "ack"),
        "reject": await frames("act", "reject"),
        "invalid": await frames("invalid", "malformed"),
        "verdict": await frames("preview", "verdict"),
        "engine": await value("tabletop_engine_cpu_seconds_count", type="act"),
    }
    legal, too_far = move(table.u1, [1.5, 6.5]), move(table.u1, [1.5, 16.5])
    await table.p1.send({"type": "preview", "ref": "m-0", "action": too_far})
    await table.p1.get("verdict")
    await table.p1.send({"type": "act", "id": "m-1", "seen": 0, "action": too_far})
    await table.p1.get("reject")
    await table.p1.send({"type": "act", "id": "m-2", "seen": 0, "action": legal})
    await table.p1.get("ack")
    await table.p1.send({"type": "act", "id": "m-3", "seen": 1, "action": move("U-none", [1, 1])})
    await table.p1.get("reject")  # the table's own refusal: no such unit
    await table.p1.send({"type": "act", "id": "m-4", "seen": 1, "action": {"unit": table.u1}})
    assert (await table.p1.get("error"))["code"] == "malformed"  # refused as it arrived
    assert await frames("preview", "verdict") - before["verdict"] == 1
    assert await frames("act", "reject") - before["reject"] == 2  # the rules', the table's
    assert await frames("act", "ack") - before["ack"] == 1
    assert await frames("invalid", "malformed") - before["invalid"] == 1
    assert await value("tabletop_engine_cpu_seconds_count", type="act") - before["engine"] >= 3
    scrape = sync_to_async(lambda: Client(REMOTE_ADDR="127.0.0.1").get("/metrics"))
    page = (await scrape()).content.decode()
    names = {family.name for family in text_string_to_metric_families(page)}
    assert {"tabletop_table_frames", "tabletop_engine_cpu_seconds"} <= names
    assert {"tabletop_broadcast_failures", "tabletop_channel_layer_errors"} <= names
    assert "tabletop_logins_throttled" in names
