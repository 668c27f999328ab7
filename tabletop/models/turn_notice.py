"""Play by correspondence: how a user wants to hear that it is their turn, and the last
turn each player was told of (so that a turn is never announced twice)."""

from django.conf import settings
from django.db import models

from tabletop.models.battle import Battle


class TurnNoticeSettings(models.Model):
    """A user's choice; both off until they opt in (no row: both off)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="turn_notice_settings"
    )
    mail = models.BooleanField(default=False)
    browser = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"turn notices of {self.user}: mail {self.mail}, browser {self.browser}"


class TurnNotified(models.Model):
    """The last turn a player was mailed about in a battle (`turn_key`): an undo and the
    same end of turn again, or a resent frame, reach the same key and mail no one."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    turn_key = models.CharField(max_length=200)
    at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["battle", "user"], name="one_turn_notice_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.user} told of {self.turn_key} in {self.battle}"
