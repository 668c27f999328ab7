"""A table event's positions move out of its payload into their own columns.

Every table event kept the whole position before and after it in its payload (`_before`,
`_after`: large on a complex map), so that every read of the log read them
all. They move, unchanged, into `position_before` and `position_after`, which the log's
readers read only where they need one (EventManager); the payload keeps what clients get,
its position hash included, as it was. One UPDATE on PostgreSQL and SQLite (the JSON moved
inside the database); row by row elsewhere. Reversible.
"""

from typing import Any

from django.db import migrations, models

KEYS = (("_before", "position_before"), ("_after", "position_after"))

FORWARD = {
    "postgresql": """
        UPDATE tabletop_event SET position_before = payload -> '_before',
            position_after = payload -> '_after', payload = payload - '_before' - '_after'
        WHERE payload ? '_before' OR payload ? '_after'""",
    "sqlite": """
        UPDATE tabletop_event SET position_before = json_extract(payload, '$._before'),
            position_after = json_extract(payload, '$._after'),
            payload = json_remove(payload, '$._before', '$._after')
        WHERE json_type(payload, '$._before') IS NOT NULL
            OR json_type(payload, '$._after') IS NOT NULL""",
}
BACKWARD = {
    "postgresql": """
        UPDATE tabletop_event SET payload = payload
            || jsonb_build_object('_before', position_before, '_after', position_after),
            position_before = NULL, position_after = NULL
        WHERE position_before IS NOT NULL OR position_after IS NOT NULL""",
    "sqlite": """
        UPDATE tabletop_event SET payload = json_set(payload,
            '$._before', json(position_before), '$._after', json(position_after)),
            position_before = NULL, position_after = NULL
        WHERE position_before IS NOT NULL OR position_after IS NOT NULL""",
}


def _each_event(apps: Any, schema_editor: Any, sql: dict[str, str], change: Any) -> None:
    """`sql` for the database's vendor, or `change(event)` for every event, saved."""
    if schema_editor.connection.vendor in sql:
        schema_editor.execute(sql[schema_editor.connection.vendor])
        return
    Event = apps.get_model("tabletop", "Event")
    for event in Event.objects.all().iterator(chunk_size=100):
        if change(event):
            event.save(update_fields=["payload", *(column for _, column in KEYS)])


def _out_of_payload(event: Any) -> bool:
    if not any(key in event.payload for key, _ in KEYS):
        return False
    for key, column in KEYS:
        setattr(event, column, event.payload.pop(key, None))
    return True


def _into_payload(event: Any) -> bool:
    if event.position_before is None and event.position_after is None:
        return False
    for key, column in KEYS:
        event.payload[key] = getattr(event, column)
        setattr(event, column, None)
    return True


def move_positions(apps: Any, schema_editor: Any) -> None:
    """The payload's `_before` and `_after` into their columns."""
    _each_event(apps, schema_editor, FORWARD, _out_of_payload)


def put_positions_back(apps: Any, schema_editor: Any) -> None:
    _each_event(apps, schema_editor, BACKWARD, _into_payload)


class Migration(migrations.Migration):
    dependencies = [
        ("tabletop", "0003_campaign_log_result_recorder"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="position_after",
            field=models.JSONField(blank=True, default=None, null=True),
        ),
        migrations.AddField(
            model_name="event",
            name="position_before",
            field=models.JSONField(blank=True, default=None, null=True),
        ),
        migrations.RunPython(move_positions, put_positions_back),
    ]
