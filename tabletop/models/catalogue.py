"""A campaign's catalogue: named unit profiles with points that the GM curates and players
pick from when they build a roster. A pick copies the profile into the roster,
so a later change to the catalogue never changes a roster that already fields the unit."""

from django.db import models

from tabletop.models.campaign import Campaign


class CatalogueProfile(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="catalogue")
    name = models.CharField(max_length=120)
    # As a roster's UnitProfile: one of the system's unit types, stats per its unit schema.
    unit_type = models.CharField(max_length=40)
    stats = models.JSONField(default=dict, blank=True)
    points = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "name"], name="one_profile_name_per_campaign"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.points} pts)"
