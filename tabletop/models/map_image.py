"""A map's background picture: pixels only, as the server re-encoded them.

Kept in the database, not in MEDIA_ROOT: the deployment runs several app hosts behind one
nginx (docs/deploy) with no shared disk, and PostgreSQL is already what every host reads
and what the backups keep. A picture is at most `services.picture.MAX_BYTES`.

A row never changes: a new upload is a new row, so its URL (which carries `digest`) may be
cached for good, and a battle keeps the picture it was set up with (`Battle.backdrop`).
"""

from django.db import models

from tabletop.models.campaign import Campaign


class MapImage(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="map_images")
    data = models.BinaryField()
    content_type = models.CharField(max_length=16)  # image/png, image/jpeg, image/webp
    width_px = models.PositiveIntegerField()
    height_px = models.PositiveIntegerField()
    digest = models.CharField(max_length=64)  # SHA-256 of `data`, hex
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.content_type} {self.width_px}x{self.height_px}"
