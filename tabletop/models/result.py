"""The result of a finished battle, written back to the rosters."""

from django.conf import settings
from django.db import models

from tabletop.models.battle import Battle


class BattleResult(models.Model):
    battle = models.OneToOneField(Battle, on_delete=models.CASCADE, related_name="result")
    winner_side = models.CharField(max_length=16, blank=True)
    outcome = models.CharField(max_length=200)
    # {unit profile id (as a string, JSON keys): "ready" | "destroyed" | "off_board"}
    unit_fates = models.JSONField(default=dict, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.battle}: {self.outcome}"


class ResultCorrection(models.Model):
    """One correction of a recorded result by the GM: who, when, and each value before and
    after ({"field", "old", "new"} in words a reader follows), kept for good (the audit)."""

    result = models.ForeignKey(BattleResult, on_delete=models.CASCADE, related_name="corrections")
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    corrected_at = models.DateTimeField(auto_now_add=True)
    changes = models.JSONField(default=list)

    class Meta:
        ordering = ["corrected_at", "id"]

    def __str__(self) -> str:
        return f"correction of {self.result}"
