"""Table annotations: lines, arrows, circles and labels players draw for everyone to see.

They are the table's talk, not its position: each is an `annotate` event (an `erase`
removes it), never a table event, so the position, its hash and the engine's verdicts are
what they would be without them, and an annotation never makes an order `stale`. The
`Annotation` rows index them, so that what is on the table at any sequence number (a
delayed spectator's horizon, a report's) is one query.
"""

from typing import Any

from tabletop import limits
from tabletop.events import reason
from tabletop.models import Annotation, Battle
from tabletop.services.table import command
from tabletop.services.table.actor import Actor
from tabletop.services.table.command import Change, Refusal

#: The keys of a shape that are points on the table.
POINT_KEYS = ("from", "to", "at")


def as_json(row: Annotation) -> dict[str, Any]:
    """An annotation as the snapshot and the `annotate` event give it."""
    return {"seq": row.seq, "by": row.by, **row.shape}


def live_at(battle_id: int, seq: int) -> list[dict[str, Any]]:
    """The annotations on the table after event `seq`, oldest first."""
    rows = Annotation.objects.filter(battle_id=battle_id, seq__lte=seq).exclude(erased_seq__lte=seq)
    return [as_json(row) for row in rows.order_by("seq")]


def _off_table(battle: Battle, shape: dict[str, Any]) -> Refusal | None:
    """A refusal when a point of `shape` (or its circle) leaves the table."""
    table = battle.state.get("table", {})
    width, height = float(table.get("width", 0)), float(table.get("height", 0))
    for key in POINT_KEYS:
        if key not in shape:
            continue
        x, y = shape[key]
        if not (0 <= x <= width and 0 <= y <= height):
            return Refusal([reason("off_table", f"({x:g}, {y:g}) is off the table.", [x, y])])
    if shape["kind"] == "circle" and shape["radius"] > max(width, height):
        return Refusal(
            [
                reason(
                    "off_table",
                    f"A circle of {shape['radius']:g}″ is larger than the table "
                    f"({width:g}″ x {height:g}″).",
                    shape["at"],
                )
            ]
        )
    return None


def battle_annotate(
    *, battle_id: int, actor: Actor, client_msg_id: str, shape: dict[str, Any]
) -> dict[str, Any]:
    """Draws `shape` (protocol.shape, checked) on the table for everyone."""
    command.require_player(actor)

    def decide(battle: Battle) -> Change | Refusal:
        refused = command.finished(battle, "drawing") or _off_table(battle, shape)
        if refused is not None:
            return refused
        drawn = Annotation.objects.filter(battle=battle, erased_seq__isnull=True).count()
        if drawn >= limits.ANNOTATIONS_PER_BATTLE:
            return Refusal(
                [
                    reason(
                        "too_many_annotations",
                        f"The table already has {drawn} annotations, as many as it takes: "
                        "remove one first.",
                    )
                ]
            )
        # The event `command.run` appends next takes this seq (the battle row is locked):
        # the annotation's number is its event's, in the same transaction.
        seq = battle.last_seq + 1
        row = Annotation.objects.create(
            battle=battle, seq=seq, author_id=actor.user_id, by=actor.name, shape=shape
        )
        return Change("annotate", {"annotation": as_json(row)})

    return command.run(battle_id=battle_id, actor=actor, client_msg_id=client_msg_id, decide=decide)


def battle_erase(
    *, battle_id: int, actor: Actor, client_msg_id: str, annotation: int
) -> dict[str, Any]:
    """Removes annotation number `annotation`: its author's or the GM's to remove."""
    command.require_player(actor)

    def decide(battle: Battle) -> Change | Refusal:
        refused = command.finished(battle, "drawing")
        if refused is not None:
            return refused
        row = Annotation.objects.filter(
            battle=battle, seq=annotation, erased_seq__isnull=True
        ).first()
        if row is None:
            return Refusal(
                [
                    reason(
                        "unknown_annotation",
                        f"There is no annotation #{annotation} on the table (removed already?).",
                    )
                ]
            )
        if row.author_id != actor.user_id and not actor.is_gm:
            return Refusal(
                [
                    reason(
                        "not_your_annotation",
                        f"Annotation #{annotation} is {row.by}'s: only they or the GM may "
                        "remove it.",
                    )
                ]
            )
        row.erased_seq = battle.last_seq + 1  # the erase event's seq, as above
        row.save(update_fields=["erased_seq"])
        return Change("erase", {"annotation": annotation})

    return command.run(battle_id=battle_id, actor=actor, client_msg_id=client_msg_id, decide=decide)
