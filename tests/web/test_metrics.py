"""/metrics (issue 22: there were no metrics): Prometheus' text format for the monitoring
host only; the process's own figures and the tables' as the database has them."""

import pytest
from django.test import Client
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from tabletop.models import TableConnection
from tabletop.version import VERSION
from tests.web.factories import make_battle_sync

pytestmark = pytest.mark.django_db


def samples(text: str) -> dict[tuple[str, tuple], float]:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def test_metrics_say_the_release_the_process_and_the_tables() -> None:
    battle, users = make_battle_sync("m-")
    TableConnection.objects.create(
        battle=battle, user=users["p1"], role="player", channel_name="a", last_seen=timezone.now()
    )
    TableConnection.objects.create(
        battle=battle,
        user=users["spectator"],
        role="spectator",
        channel_name="b",
        last_seen=timezone.now(),
    )
    response = Client(REMOTE_ADDR="127.0.0.1").get("/metrics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    found = samples(response.content.decode())
    assert found[("tabletop_build_info", (("version", VERSION),))] == 1
    assert found[("tabletop_table_sockets", (("role", "player"),))] == 1
    assert found[("tabletop_table_sockets", (("role", "spectator"),))] == 1
    assert found[("tabletop_battles", (("status", battle.status),))] == 1
    assert found[("tabletop_events_total", ())] == battle.last_seq
    assert found[("process_resident_memory_bytes", ())] > 0


def test_metrics_are_not_for_anyone_else(settings) -> None:
    assert Client(REMOTE_ADDR="203.0.113.9").get("/metrics").status_code == 404
    settings.METRICS_ALLOWED_ADDRESSES = ["10.0.0.5"]
    assert Client(REMOTE_ADDR="10.0.0.5").get("/metrics").status_code == 200
    assert Client(REMOTE_ADDR="127.0.0.1").get("/metrics").status_code == 404
