"""Rosters: a player's force for a campaign, and its unit profiles."""

from django.conf import settings
from django.db import models

from tabletop.models.campaign import Campaign


class Roster(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="rosters")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rosters"
    )
    name = models.CharField(max_length=120)
    faction = models.CharField(max_length=80, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class UnitStatus(models.TextChoices):
    READY = "ready", "Ready"
    DESTROYED = "destroyed", "Destroyed"
    # Seed 003, "Leaving the board": a unit that left the board may return next battle.
    OFF_BOARD = "off_board", "Left the board"


class UnitProfile(models.Model):
    roster = models.ForeignKey(Roster, on_delete=models.CASCADE, related_name="units")
    name = models.CharField(max_length=120)
    # The system's unit type (one of its unit schema's types); stats are checked against the
    # unit schema that the rules engine publishes for the campaign's system.
    unit_type = models.CharField(max_length=40)
    stats = models.JSONField(default=dict, blank=True)
    points = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=16, choices=UnitStatus.choices, default=UnitStatus.READY)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.unit_type})"
