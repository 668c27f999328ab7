"""The campaign log: what happened in a campaign, in words, for its members to read."""

from django.conf import settings
from django.db import models

from tabletop.models.campaign import Campaign


class CampaignLogEntry(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="log")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    text = models.CharField(max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "campaign log entries"

    def __str__(self) -> str:
        return f"{self.campaign_id}: {self.text}"
