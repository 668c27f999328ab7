"""Reading the event log: what a resuming client missed, and snapshots (also late ones).

A table event keeps the whole position before and after it (on a complex map some 140 KB
each). Nothing here reads them per event: the log is read without them (the Event
manager defers them), and a position is read alone, one at a time (`position_at`).
"""

import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any, TypeVar

from django.core.cache import cache
from django.db.models import JSONField
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Coalesce
from django.utils import timezone

from tabletop import events, limits
from tabletop.models import Battle, BattleResult, Event
from tabletop.models.battle import BattleStatus
from tabletop.services import game_systems
from tabletop.services.table import annotations, piece_markers, position, takeback_log
from tabletop.services.table.command import TABLE_KINDS

HISTORY = 50
logger = logging.getLogger(__name__)
T = TypeVar("T")
#: How long a position read from the log is kept in the cache (it never changes).
POSITION_CACHE_S = 600


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


def _kept_at(battle: Battle, seq: int) -> tuple[int, str] | None:
    """(event id, column) of the position after event `seq`: the last table event's up to
    it, or before the first; None while no table event keeps one (the battle's own)."""
    table = Event.objects.filter(battle=battle, kind__in=TABLE_KINDS)
    last = table.filter(seq__lte=seq).order_by("-seq").values_list("id", flat=True).first()
    if last is not None:
        return last, "position_after"
    first = table.order_by("seq").values_list("id", flat=True).first()
    return None if first is None else (first, "position_before")


def position_at(battle: Battle, seq: int) -> dict[str, Any]:
    """{"state", "turn"} after event `seq`, from the positions the table events keep: one
    position read (and kept in the cache: what the log says at `seq` never changes)."""
    found = _kept_at(battle, seq)
    if found is None:
        return {"state": battle.state, "turn": battle.turn_state}
    return _cached_position(battle, *found)


def remember(key: str, make: Callable[[], T], timeout: int = POSITION_CACHE_S) -> T:
    """The value kept in the cache under `key`, or `make()` kept there. A cache that does
    not answer costs only the work."""
    try:
        found = cache.get(key)
    except Exception as error:
        logger.warning("the cache did not answer (%r)", error)
        return make()
    if found is not None:
        return found
    made = make()
    try:
        cache.set(key, made, timeout)
    except Exception as error:
        logger.warning("the cache did not answer (%r)", error)
    return made


def battle_key(battle: Battle, kind: str = "log") -> str:
    """The cache's prefix for what is kept of `battle` (`kind`: who keeps it). The battle's
    creation moment too: a database restored or rebuilt may give its id again."""
    return f"{kind}:{battle.pk}:{battle.created_at.timestamp()}"


def _cached_position(battle: Battle, event_id: int, column: str) -> dict[str, Any]:
    """The one position `column` of event `event_id`, read alone."""
    return remember(
        f"{battle_key(battle)}:position:{event_id}:{column}",
        lambda: Event.objects.filter(pk=event_id).values_list(kept(column), flat=True)[0],
    )


def kept(column: str) -> Coalesce:
    """A table event's position `column`, or, for an event that a process of the release
    before migration 0004 wrote during the rolling restart, its payload's `_before` or
    `_after` (docs/deploy/README.md: migrations run while the old processes still do)."""
    key = {"position_before": "_before", "position_after": "_after"}[column]
    return Coalesce(column, KeyTransform(key, "payload"), output_field=JSONField())


def hash_at(battle: Battle, seq: int, at: dict[str, Any]) -> str:
    """The hash of `at`, the position after event `seq`: kept with the position it is of
    (RFC 8785 over a large map takes a while); the battle's own position is not kept."""

    def digest() -> str:
        return position.position_hash(at["state"], at["turn"])

    found = _kept_at(battle, seq)
    if found is None:
        return digest()
    return remember(f"{battle_key(battle)}:hash:{found[0]}:{found[1]}", digest)


def snapshot(battle_id: int, *, watching: bool = False) -> tuple[dict[str, Any], list[dict]]:
    """(snapshot frame, events still to come): the table now, or as spectators see it:
    the battle's delay ago, with the events since to be released at their time."""
    # The live position is read only for a reader who sees it (`state` is deferred).
    battle = Battle.objects.defer("state").get(pk=battle_id)
    delay_s = battle.spectator_delay_s if watching else 0
    seq, later = battle.last_seq, []
    cutoff = timezone.now() - timedelta(seconds=delay_s)
    if not delay_s:
        at = {"state": battle.state, "turn": battle.turn_state}
    else:
        seen = Event.objects.filter(battle=battle, created_at__lte=cutoff).order_by("-seq")
        seq = seen.values_list("seq", flat=True).first() or 0
        # A long delay over a busy table: start late enough that what is held back fits.
        seq = max(seq, battle.last_seq - limits.RESUME_EVENTS)
        at = position_at(battle, seq)
        later = events_after(battle.id, seq, upto=battle.last_seq) or []
    chat, dice = _history(battle.id, seq)
    frame = events.snapshot(
        seq=seq,
        status=status_seen(battle, cutoff) if delay_s else battle.status,
        state=at["state"],
        turn=at["turn"],
        labels=battle.unit_labels,
        hash=(
            hash_at(battle, seq, at) if delay_s else position.position_hash(at["state"], at["turn"])
        ),
        delay_s=delay_s,
        chat=chat,
        dice=dice,
        annotations=annotations.live_at(battle.id, seq),
        markers=piece_markers.live_at(battle.id, seq),
    )
    # The engine's words for the position, as every table event carries them (position.patch).
    frame.update(game_systems.table_view(at["state"], at["turn"]))
    # The order that may be taken back and the request waiting, as of the snapshot's seq.
    frame["takeback"] = takeback_log.take_backs(battle, seq).as_json()
    return frame, later


def status_seen(battle: Battle, until: Any) -> str:
    """The battle's status as a reader who sees nothing recorded after `until` knows it:
    finished only once its result is older than that (the result finishes the battle)."""
    if battle.status != BattleStatus.FINISHED or until is None:
        return battle.status
    recorded = BattleResult.objects.filter(battle=battle).values_list("recorded_at", flat=True)
    moment = recorded.first()
    return battle.status if moment is not None and moment <= until else BattleStatus.ACTIVE


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
        Battle.objects.filter(pk=battle_id).values_list("spectator_delay_s", flat=True).first() or 0
    )
