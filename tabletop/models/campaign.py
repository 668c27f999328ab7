"""A campaign: a GM, its members, and the links that invite new ones."""

import secrets

from django.conf import settings
from django.db import models


class Campaign(models.Model):
    name = models.CharField(max_length=120)
    # A key of the rules engine's registry (rules.SYSTEMS); players read its name.
    system = models.CharField(max_length=32)
    gm = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="campaigns_run"
    )
    # The system's table options (as its rules notes name them), passed to the
    # engine as the scenario's table.options for every battle of the campaign.
    table_options = models.JSONField(default=dict, blank=True)
    points_limit = models.PositiveIntegerField(default=300)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.system})"


class Role(models.TextChoices):
    GM = "gm", "Game master"
    PLAYER = "player", "Player"
    SPECTATOR = "spectator", "Spectator"


class Membership(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=16, choices=Role.choices)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} as {self.role} in {self.campaign}"


def new_invitation_token() -> str:
    return secrets.token_urlsafe(24)


class Invitation(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True, default=new_invitation_token)
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.PLAYER)
    expires_at = models.DateTimeField()
    single_use = models.BooleanField(default=True)
    uses = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"invitation to {self.campaign} as {self.role}"
