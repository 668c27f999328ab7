"""A free marker a player or the GM puts on a piece ("pinned", "objective"): a short text
in a colour of the table's palette, seen by everyone, kept with the battle, never part of
the rules' position (docs/protocol.md, `mark`).

Each is put by a `mark` event and may be taken off by an `unmark` event; the log says
both. This row indexes them as `Annotation` does drawings, so that the markers on the
table at any sequence number (a delayed spectator's, a report's horizon) are one query.
"""

from django.conf import settings
from django.db import models

from tabletop.models.battle import Battle


class PieceMarker(models.Model):
    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="piece_markers")
    #: The seq of the `mark` event that put it: its number on the wire.
    seq = models.PositiveBigIntegerField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    #: The author's name as the event gives it (the account may be renamed or deleted).
    by = models.CharField(max_length=150)
    #: The piece's unit id.
    unit = models.CharField(max_length=64)
    text = models.CharField(max_length=64)
    #: A name from the palette (tabletop/services/table/markers.py, COLOURS).
    colour = models.CharField(max_length=16)
    #: The seq of the `unmark` event that took it off; None while it is on the piece.
    removed_seq = models.PositiveBigIntegerField(null=True, blank=True, default=None)

    class Meta:
        ordering = ["battle", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "seq"], name="one_marker_per_event"),
        ]

    def __str__(self) -> str:
        return f"{self.battle_id}#{self.seq} {self.unit}: {self.text}"
