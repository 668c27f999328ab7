"""Who is connected to a table, in which role: one row per open socket, in any process."""

from datetime import datetime, timedelta

from django.db.models import Count
from django.db.models.sql import UpdateQuery
from django.utils import timezone

from tabletop.models import TableConnection
from tabletop.services.table.actor import Actor
from tabletop.services.table.compiled_query import (
    STAND_NOW,
    STAND_TEXT,
    CompiledQuery,
    update_query,
)

#: A socket silent for this long (its process died without closing it) no longer counts.
TIMEOUT = timedelta(seconds=90)


def connection_open(*, battle_id: int, actor: Actor, channel_name: str) -> None:
    TableConnection.objects.update_or_create(
        channel_name=channel_name,
        defaults={
            "battle_id": battle_id,
            "user_id": actor.user_id,
            "role": actor.role,
            "last_seen": timezone.now(),
        },
    )


def _seen(channel_name: str, now: datetime) -> UpdateQuery:
    return update_query(TableConnection.objects.filter(channel_name=channel_name), last_seen=now)


#: Built once per thread: every busy socket's row is refreshed with it (as it pings).
_SEEN = CompiledQuery(_seen, STAND_TEXT, STAND_NOW)


def connection_seen(*, channel_name: str) -> None:
    _SEEN.execute(channel_name, timezone.now())


def connections_seen(channel_names: list[str]) -> None:
    """`connection_seen` of each socket, in one statement (table_socket/batches.py)."""
    TableConnection.objects.filter(channel_name__in=channel_names).update(last_seen=timezone.now())


def connection_close(*, channel_name: str) -> None:
    TableConnection.objects.filter(channel_name=channel_name).delete()


def present(battle_id: int) -> list[tuple[str, str, int]]:
    """(user name, role, open connections) of everyone at the table, by name."""
    rows = (
        TableConnection.objects.filter(battle_id=battle_id, last_seen__gte=timezone.now() - TIMEOUT)
        .values_list("user__username", "role")
        .annotate(n=Count("id"))
        .order_by("user__username", "role")
    )
    return [(user, role, n) for user, role, n in rows]
