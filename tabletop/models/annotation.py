"""What players draw on the table (a line, an arrow, a circle, a label): seen by everyone,
kept with the battle, never part of the rules' position (docs/protocol.md, `annotate`).

Each annotation is drawn by an `annotate` event and may be removed by an `erase` event;
the log says both. This row is the index of them, so that the annotations on the table
at any sequence number (a delayed spectator's, a report's horizon) are one query, not a
replay of the log: those drawn at or before it and not erased by then.
"""

from django.conf import settings
from django.db import models

from tabletop.models.battle import Battle


class Annotation(models.Model):
    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="annotations")
    #: The seq of the `annotate` event that drew it: its number on the wire.
    seq = models.PositiveBigIntegerField()
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    #: The author's name as the event gives it (the account may be renamed or deleted).
    by = models.CharField(max_length=150)
    #: {"kind": "line" | "arrow" | "circle" | "label", and its geometry and text}.
    shape = models.JSONField()
    #: The seq of the `erase` event that removed it; None while it is on the table.
    erased_seq = models.PositiveBigIntegerField(null=True, blank=True, default=None)

    class Meta:
        ordering = ["battle", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "seq"], name="one_annotation_per_event"),
        ]

    def __str__(self) -> str:
        return f"{self.battle_id}#{self.seq} {self.shape.get('kind', '?')}"
