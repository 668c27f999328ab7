"""Metrics for monitoring, in Prometheus' text format at `/metrics` (one process each:
scrape every instance's port, as the health probes do; docs/deploy, section 11).

What this process counts as it works (below), what the process itself knows (CPU,
memory, open files: prometheus_client's process collector) and what the tables look like
now, read from the database when scraped (tabletop/table_metrics.py). An own registry,
so that nothing else imported registers into it.
"""

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    PlatformCollector,
    ProcessCollector,
)

REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)

SOCKETS = Gauge(
    "tabletop_process_table_sockets", "Table websockets open in this process", registry=REGISTRY
)
FRAMES = Counter(
    "tabletop_table_frames",
    "Service frames answered by this process, by frame type and outcome: ack, reject (the "
    "rules refused a move), verdict or sight (answers), or the error code of a refusal",
    ["type", "outcome"],
    registry=REGISTRY,
)
ENGINE_SECONDS = Histogram(
    "tabletop_engine_cpu_seconds",
    "CPU seconds of the rules engine's work per frame, by frame type",
    ["type"],
    buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
    registry=REGISTRY,
)
BROADCAST_FAILURES = Counter(
    "tabletop_broadcast_failures",
    "Table events committed whose broadcast failed (clients read them from the log)",
    registry=REGISTRY,
)
CHANNEL_LAYER_ERRORS = Counter(
    "tabletop_channel_layer_errors",
    "Failures of the channel layer (Redis): broadcasts, socket joins, receives",
    registry=REGISTRY,
)
LOGINS_THROTTLED = Counter(
    "tabletop_logins_throttled",
    "Logins refused before the password was checked (too many failures)",
    registry=REGISTRY,
)
