"""The event log: every change to a battle, in sequence, never deleted."""

from django.conf import settings
from django.db import models

from tabletop.models.battle import Battle


class Event(models.Model):
    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveBigIntegerField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    kind = models.CharField(max_length=32)
    payload = models.JSONField(default=dict)
    # The client's message id: a resent id gets the same answer, never a second event.
    client_msg_id = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["battle", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "seq"], name="one_event_per_seq"),
        ]
        indexes = [models.Index(fields=["battle", "client_msg_id"])]

    def __str__(self) -> str:
        return f"{self.battle_id}#{self.seq} {self.kind}"
