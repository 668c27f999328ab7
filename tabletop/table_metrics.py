"""The tables now, as /metrics reports them: read from the database at each scrape (every
15-60 s), a few grouped queries. Registered into tabletop.metrics.REGISTRY by the metrics
view's module."""

from collections.abc import Iterator

from django.db.models import Count, Sum
from django.utils import timezone
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, InfoMetricFamily
from prometheus_client.registry import Collector

from tabletop.models import Battle, TableConnection
from tabletop.services.table.presence import TIMEOUT
from tabletop.version import VERSION


class TablesCollector(Collector):
    """The tables now: a few grouped queries per scrape (every 15-60 s)."""

    def collect(self) -> Iterator:
        yield InfoMetricFamily("tabletop_build", "The release it runs", {"version": VERSION})
        sockets = GaugeMetricFamily(
            "tabletop_table_sockets",
            "Open table websockets, all processes (presence rows seen lately), by role",
            labels=["role"],
        )
        seen = TableConnection.objects.filter(last_seen__gte=timezone.now() - TIMEOUT)
        for row in seen.values("role").annotate(n=Count("id")).order_by("role"):
            sockets.add_metric([row["role"]], row["n"])
        yield sockets
        battles = GaugeMetricFamily("tabletop_battles", "Battles by status", labels=["status"])
        totals = Battle.objects.values("status").annotate(
            n=Count("id"), event_count=Sum("last_seq")
        )
        events = 0
        for total in totals.order_by("status"):
            battles.add_metric([total["status"]], total["n"])
            events += total["event_count"] or 0
        yield battles
        # Each battle's last sequence number is its count of events (the log has no gaps).
        yield CounterMetricFamily("tabletop_events", "Events recorded, all battles", value=events)
