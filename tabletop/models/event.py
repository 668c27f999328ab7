"""The event log: every change to a battle, in sequence, never deleted."""

from collections.abc import Iterator
from datetime import datetime
from typing import Any, NamedTuple

from django.conf import settings
from django.db import models

from tabletop.models.battle import Battle


class EventManager(models.Manager["Event"]):
    """Events without the whole positions some keep: read only where one is needed (the
    one reader, services/table/log.py `position_at`)."""

    def get_queryset(self) -> models.QuerySet["Event"]:
        return super().get_queryset().defer(*POSITIONS)


#: The columns that hold a whole position (large on a complex map): never part of what
#: the log's readers get by default.
POSITIONS = ("base", "position_before", "position_after")


class Event(models.Model):
    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveBigIntegerField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    kind = models.CharField(max_length=32)
    #: What clients get (the event frame's keys), and nothing else.
    payload = models.JSONField(default=dict)
    #: A table event's change is its payload's patch (units, removed, state, turn:
    #: position.patch) and, in the rare case that does not say it all, this
    #: (services/table/changes.py `rest`); None for every other event.
    change = models.JSONField(null=True, blank=True, default=None)
    #: The whole position ({"state", "turn"}) before a table event, kept on a battle's
    #: first and then every changes.SNAPSHOT_EVERY sequence numbers (Battle.base_seq):
    #: the position at any seq is the last base before it plus the changes since.
    base = models.JSONField(null=True, blank=True, default=None)
    #: Every table event used to keep its whole position before and after it here
    #: (migration 0010 turned them into changes): None since; read still for an event an
    #: old process writes during the rolling restart. Dropped in the next release.
    position_before = models.JSONField(null=True, blank=True, default=None)
    position_after = models.JSONField(null=True, blank=True, default=None)
    # The client's message id: a resent id gets the same answer, never a second event.
    client_msg_id = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = EventManager()

    class Meta:
        ordering = ["battle", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "seq"], name="one_event_per_seq"),
        ]
        indexes = [
            models.Index(fields=["battle", "client_msg_id"]),
            # The newest events of a kind (the chat, the dice, the table events) without
            # reading the whole log back to them: a long battle's board as a new one's.
            models.Index(fields=["battle", "kind", "seq"], name="event_battle_kind_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.battle_id}#{self.seq} {self.kind}"


class EventRow(NamedTuple):
    """An event as the log's long readers take it (the record, the export): its values
    alone, for a model instance costs more to make than its row to read."""

    pk: int
    seq: int
    kind: str
    created_at: datetime
    payload: dict[str, Any]
    change: dict[str, Any] | None

    @classmethod
    def read(cls, events: models.QuerySet[Event], chunk_size: int = 2000) -> Iterator["EventRow"]:
        """The rows of `events`, in its order, read `chunk_size` at a time."""
        rows = events.values_list(*cls._fields).iterator(chunk_size=chunk_size)
        return (cls(*row) for row in rows)
