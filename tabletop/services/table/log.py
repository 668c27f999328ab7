"""Reading the event log: what a resuming client missed, and snapshots (also late ones)."""

from datetime import timedelta
from typing import Any

from django.utils import timezone

from tabletop import events
from tabletop.models import Battle, Event
from tabletop.services import game_systems
from tabletop.services.table import limits, position
from tabletop.services.table.command import TABLE_KINDS

HISTORY = 50


def events_after(battle_id: int, seq: int, upto: int | None = None) -> list[dict] | None:
    """Event frames after `seq` (up to `upto`), in order; None when too many are missing."""
    query = Event.objects.filter(battle_id=battle_id, seq__gt=seq).order_by("seq")
    if upto is not None:
        query = query.filter(seq__lte=upto)
    found = list(query[: limits.RESUME_EVENTS + 1])
    if len(found) > limits.RESUME_EVENTS:
        return None
    return [events.event(e) for e in found]


def last_seq(battle_id: int) -> int:
    return Battle.objects.filter(pk=battle_id).values_list("last_seq", flat=True).first() or 0


def _history(battle_id: int, upto: int) -> tuple[list[dict], list[dict]]:
    """The last chat lines and dice-log lines up to `upto`."""
    recent = Event.objects.filter(battle_id=battle_id, seq__lte=upto).order_by("-seq")
    chat = [events.event(e) for e in recent.filter(kind="chat")[:HISTORY]]
    rolled = [events.event(e) for e in recent.filter(kind__in=("roll", "act"))[:HISTORY]]
    dice = [roll for frame in rolled[::-1] for roll in events.dice_entries(frame)]
    return chat[::-1], dice[-HISTORY:]


def position_at(battle: Battle, seq: int) -> dict[str, Any]:
    """{"state", "turn"} after event `seq`, from the positions the table events keep."""
    table = Event.objects.filter(battle=battle, kind__in=TABLE_KINDS)
    last = table.filter(seq__lte=seq).order_by("-seq").first()
    if last is not None:
        return last.payload["_after"]
    first = table.order_by("seq").first()
    if first is not None:
        return first.payload["_before"]
    return {"state": battle.state, "turn": battle.turn_state}


def snapshot(battle_id: int, *, watching: bool = False) -> tuple[dict[str, Any], list[dict]]:
    """(snapshot frame, events still to come): the table now, or as spectators see it:
    the battle's delay ago, with the events since to be released at their time."""
    battle = Battle.objects.get(pk=battle_id)
    delay_s = battle.spectator_delay_s if watching else 0
    seq, later = battle.last_seq, []
    at = {"state": battle.state, "turn": battle.turn_state}
    if delay_s:
        cutoff = timezone.now() - timedelta(seconds=delay_s)
        seen = Event.objects.filter(battle=battle, created_at__lte=cutoff).order_by("-seq")
        seq = seen.values_list("seq", flat=True).first() or 0
        # A long delay over a busy table: start late enough that what is held back fits.
        seq = max(seq, battle.last_seq - limits.RESUME_EVENTS)
        at = position_at(battle, seq)
        later = events_after(battle.id, seq, upto=battle.last_seq) or []
    chat, dice = _history(battle.id, seq)
    frame = events.snapshot(
        seq=seq,
        status=battle.status,
        state=at["state"],
        turn=at["turn"],
        labels=battle.unit_labels,
        hash=position.position_hash(at["state"], at["turn"]),
        delay_s=delay_s,
        chat=chat,
        dice=dice,
    )
    # The engine's words for the position, as every table event carries them (position.patch).
    frame.update(game_systems.table_view(at["state"], at["turn"]))
    return frame, later


def visible_seq(battle_id: int, delay_s: int) -> int:
    """The newest event a reader delayed by `delay_s` may know of: the last one recorded at
    least that long ago (the log's last for everyone else)."""
    if delay_s <= 0:
        return last_seq(battle_id)
    cutoff = timezone.now() - timedelta(seconds=delay_s)
    seen = Event.objects.filter(battle_id=battle_id, created_at__lte=cutoff).order_by("-seq")
    return seen.values_list("seq", flat=True).first() or 0


def spectator_delay(battle_id: int) -> int:
    return (
        Battle.objects.filter(pk=battle_id).values_list("spectator_delay_s", flat=True).first()
        or 0
    )
