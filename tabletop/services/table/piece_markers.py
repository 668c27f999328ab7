"""Free markers on pieces: a short text in a colour ("pinned", "objective") that a player
puts on their own pieces, or the GM on any (docs/protocol.md, "mark, unmark").

Like annotations (annotations.py) they are the table's talk, not its position: each is a
`mark` event (an `unmark` takes it off), never a table event, so the position, its hash
and the engine's verdicts are what they would be without them, and a marker never makes
an order `stale`. The `PieceMarker` rows index them, so that what is on the pieces at
any sequence number (a delayed spectator's horizon, a report's) is one query.
"""

from typing import Any

from tabletop import limits
from tabletop.events import reason
from tabletop.models import Battle, PieceMarker
from tabletop.services.table import command
from tabletop.services.table.actor import Actor
from tabletop.services.table.command import Change, Refusal


def as_json(row: PieceMarker) -> dict[str, Any]:
    """A marker as the snapshot and the `mark` event give it."""
    return {"seq": row.seq, "by": row.by, "unit": row.unit, "text": row.text, "colour": row.colour}


def live_at(battle_id: int, seq: int) -> list[dict[str, Any]]:
    """The markers on the pieces after event `seq`, oldest first."""
    rows = PieceMarker.objects.filter(battle_id=battle_id, seq__lte=seq).exclude(
        removed_seq__lte=seq
    )
    return [as_json(row) for row in rows.order_by("seq")]


def _not_markable(battle: Battle, actor: Actor, unit_id: str) -> Refusal | None:
    """A refusal unless `unit_id` is a piece of the table that `actor` may mark."""
    unit = next((u for u in battle.state.get("units", []) if u.get("id") == unit_id), None)
    if unit is None:
        return Refusal([reason("unknown_unit", f"There is no unit {unit_id!r} on the table.")])
    if not actor.controls(str(unit.get("side", ""))):
        name = battle.unit_labels.get(unit_id, {}).get("name") or unit_id
        return Refusal(
            [
                reason(
                    "not_your_unit",
                    f"{name} belongs to {unit.get('side')}: only its player or the GM may mark it.",
                )
            ]
        )
    return None


def battle_mark(
    *, battle_id: int, actor: Actor, client_msg_id: str, unit: str, text: str, colour: str
) -> dict[str, Any]:
    """Puts a marker (`text`, `colour` of COLOURS: protocol-checked) on piece `unit`."""
    command.require_player(actor)

    def decide(battle: Battle) -> Change | Refusal:
        refused = command.finished(battle, "markers") or _not_markable(battle, actor, unit)
        if refused is not None:
            return refused
        on = PieceMarker.objects.filter(battle=battle, unit=unit, removed_seq__isnull=True)
        if on.count() >= limits.MARKERS_PER_PIECE:
            return Refusal(
                [
                    reason(
                        "too_many_markers",
                        f"That piece already carries {limits.MARKERS_PER_PIECE} markers: "
                        "remove one first.",
                    )
                ]
            )
        # The event `command.run` appends next takes this seq (the battle row is locked).
        row = PieceMarker.objects.create(
            battle=battle,
            seq=battle.last_seq + 1,
            author_id=actor.user_id,
            by=actor.name,
            unit=unit,
            text=text,
            colour=colour,
        )
        return Change("mark", {"marker": as_json(row)})

    return command.run(battle_id=battle_id, actor=actor, client_msg_id=client_msg_id, decide=decide)


def battle_unmark(
    *, battle_id: int, actor: Actor, client_msg_id: str, marker: int
) -> dict[str, Any]:
    """Takes marker number `marker` off its piece: whoever may mark that piece may."""
    command.require_player(actor)

    def decide(battle: Battle) -> Change | Refusal:
        refused = command.finished(battle, "markers")
        if refused is not None:
            return refused
        on = PieceMarker.objects.filter(battle=battle, seq=marker, removed_seq__isnull=True)
        row = on.first()
        if row is None:
            return Refusal(
                [
                    reason(
                        "unknown_marker",
                        f"There is no marker #{marker} on a piece (removed already?).",
                    )
                ]
            )
        refused = _not_markable(battle, actor, row.unit)
        if refused is not None:
            return refused
        row.removed_seq = battle.last_seq + 1  # the unmark event's seq, as above
        row.save(update_fields=["removed_seq"])
        return Change("unmark", {"marker": marker, "unit": row.unit})

    return command.run(battle_id=battle_id, actor=actor, client_msg_id=client_msg_id, decide=decide)
