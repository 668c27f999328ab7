"""The event log: every change to a battle, in sequence, never deleted."""

from django.conf import settings
from django.db import models

from tabletop.models.battle import Battle


class EventManager(models.Manager["Event"]):
    """Events without the positions they keep: read only where one is needed
    (`values_list("position_after")`, or an instance's field read on its own)."""

    def get_queryset(self) -> models.QuerySet["Event"]:
        return super().get_queryset().defer(*POSITIONS)


#: The columns holding a table event's whole position before and after it (some 140 KB
#: each on a complex map): never part of what the log's readers get by default.
POSITIONS = ("position_before", "position_after")


class Event(models.Model):
    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveBigIntegerField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    kind = models.CharField(max_length=32)
    #: What clients get (the event frame's keys), and nothing else.
    payload = models.JSONField(default=dict)
    #: A table event's position ({"state", "turn"}) before and after it (None: not a table
    #: event). Deferred (EventManager): they were the payload's `_before` and `_after`
    #: until migration 0004 moved them here.
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
        indexes = [models.Index(fields=["battle", "client_msg_id"])]

    def __str__(self) -> str:
        return f"{self.battle_id}#{self.seq} {self.kind}"
