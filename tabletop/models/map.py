"""A map: the table's size and its terrain features."""

from django.db import models

from tabletop.models.campaign import Campaign
from tabletop.models.map_image import MapImage


class Map(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="maps")
    name = models.CharField(max_length=120)
    width = models.FloatField(help_text="inches")
    height = models.FloatField(help_text="inches")
    # Terrain features exactly as the scenario format's TERRAIN objects:
    # {"id", "type", "polygon": [[x, y], ...], "height", "size_class", "access"}.
    terrain = models.JSONField(default=list, blank=True)
    # The background picture under the terrain, and where it lies on the table:
    # {"x", "y", "width", "height"} in inches, (x, y) its bottom-left corner.
    image = models.ForeignKey(
        MapImage, null=True, blank=True, on_delete=models.SET_NULL, related_name="maps"
    )
    image_place = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f'{self.name} ({self.width:g}" x {self.height:g}")'
