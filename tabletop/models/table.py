"""The live table's bookkeeping beside the event log: answers given, and who is connected."""

from django.conf import settings
from django.db import models

from tabletop.models.battle import Battle


class CommandReply(models.Model):
    """The answer given to one client message id, so that a resend gets the same answer.

    Written in the same transaction as the event it acknowledges (or alone, for
    a refusal): an id is applied at most once, whichever process sees it again.
    """

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="replies")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    client_msg_id = models.CharField(max_length=64)
    reply = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["battle", "actor", "client_msg_id"], name="one_reply_per_message"
            )
        ]

    def __str__(self) -> str:
        return f"{self.battle_id} {self.client_msg_id}"


class TableConnection(models.Model):
    """One open websocket on a battle's table (presence). Any process can list all of them.

    A process killed without closing leaves its rows behind; they stop counting
    once `last_seen` is older than the presence timeout.
    """

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="connections")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    role = models.CharField(max_length=16)
    channel_name = models.CharField(max_length=200, unique=True)
    last_seen = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["battle", "last_seen"])]

    def __str__(self) -> str:
        return f"{self.user} on {self.battle_id}"
