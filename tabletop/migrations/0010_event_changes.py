"""A table event keeps what it changed, not the whole position before and after.

Every table event kept the whole position before and after it (`position_before`,
`position_after`; before migration 0004, its payload's `_before` and `_after`). Each
battle's table events are followed in order: each keeps its change (its payload's patch,
and `change` where that does not say it all: services/table/changes.py), the first and
then one every SNAPSHOT_EVERY seqs keeps the position before it (`base`), as does one
whose position before is not what the log's changes lead to (the position changed
outside the log: deployment, the battle's start). The positions are then emptied and the
board's view (changes.VIEW_ONLY) leaves the payloads; the payloads' position hashes stay
as they were, and following the changes gives back every position exactly. Every
battle's `base_seq` is 0: its next table event keeps its base. Reversible (the
positions written back from the changes). An index on (battle, kind, seq): the newest
events of a kind are found without reading a long log back to them.
"""

from typing import Any

from django.db import migrations, models

from tabletop.services.table import changes

TABLE_KINDS = ("act", "fiat", "undo", "turn")
LEGACY = (("_before", "position_before"), ("_after", "position_after"))


def _table_events(apps: Any) -> Any:
    """Each battle's table events, in order, a few at a time (positions are large)."""
    Event = apps.get_model("tabletop", "Event")
    table = Event.objects.filter(kind__in=TABLE_KINDS)
    for battle_id in table.values_list("battle_id", flat=True).distinct().order_by("battle_id"):
        yield table.filter(battle_id=battle_id).order_by("seq").iterator(chunk_size=20)


def _positions(event: Any) -> tuple[Any, Any]:
    """(before, after) as the event keeps them: in its columns, or (written before 0004,
    or by such a process since) in its payload."""
    return tuple(
        getattr(event, column) if getattr(event, column) is not None else event.payload.get(key)
        for key, column in LEGACY
    )


def to_changes(apps: Any, schema_editor: Any) -> None:
    for battle_events in _table_events(apps):
        base_seq, followed = 0, None
        for event in battle_events:
            before, after = _positions(event)
            if before is None or after is None:
                continue  # kept as a change already
            payload = {k: v for k, v in event.payload.items() if k not in ("_before", "_after")}
            event.payload = changes.stored(payload)
            rebase = followed != before
            if rebase or event.seq - base_seq >= changes.SNAPSHOT_EVERY:
                event.base, base_seq = before, event.seq
            event.change = changes.change_of(before, after, event.payload, rebase=rebase)
            followed = changes.follow(before, event.payload, event.change)
            event.position_before = event.position_after = None
            event.save(update_fields=["payload", "base", "change", "position_before",
                                      "position_after"])  # fmt: skip


def to_positions(apps: Any, schema_editor: Any) -> None:
    for battle_events in _table_events(apps):
        at = None
        for event in battle_events:
            if event.position_after is not None:
                at = event.position_after
                continue
            before = event.base if event.base is not None else at
            at = changes.follow(before, event.payload, event.change)
            event.position_before, event.position_after = before, at
            event.base = event.change = None
            event.save(update_fields=["base", "change", "position_before", "position_after"])


class Migration(migrations.Migration):
    dependencies = [
        ("tabletop", "0009_piece_markers"),
    ]

    operations = [
        migrations.AddField(
            model_name="battle",
            name="base_seq",
            field=models.PositiveBigIntegerField(db_default=0, default=0),
        ),
        migrations.AddField(
            model_name="event",
            name="base",
            field=models.JSONField(blank=True, default=None, null=True),
        ),
        migrations.AddField(
            model_name="event",
            name="change",
            field=models.JSONField(blank=True, default=None, null=True),
        ),
        migrations.AddIndex(
            model_name="event",
            index=models.Index(fields=["battle", "kind", "seq"], name="event_battle_kind_seq"),
        ),
        migrations.RunPython(to_changes, to_positions),
    ]
