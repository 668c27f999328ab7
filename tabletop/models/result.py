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
