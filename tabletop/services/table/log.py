"""Reading the event log: what a resuming client missed, snapshots (also late ones), and
the position at any sequence number (`position_at`, the one reader of past positions).

A table event keeps what it changed, and every changes.SNAPSHOT_EVERY seqs one keeps the
whole position before it (on a complex map some 140 KB): the log is read without those
(the Event manager defers them), and a position is read from one of them and the changes
since (changes.py).
"""

import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any, TypeVar

from django.core.cache import cache
from django.db.models import JSONField, Q, QuerySet
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Coalesce
from django.utils import timezone

from tabletop import events, limits
from tabletop.models import Battle, BattleResult, Event, EventRow
from tabletop.models.battle import BattleStatus
from tabletop.services import game_systems
from tabletop.services.table import (
    annotations,
    changes,
    piece_markers,
    position,
    referee,
    takeback_log,
)
from tabletop.services.table.command import TABLE_KINDS
from tabletop.services.table.compiled_query import STAND_ID, CompiledQuery

HISTORY = 50
logger = logging.getLogger(__name__)
T = TypeVar("T")
#: How long a position read from the log is kept in the cache (it never changes).
POSITION_CACHE_S = 600


def events_after(battle_id: int, seq: int, upto: int | None = None) -> list[dict] | None:
    """Event frames after `seq` (up to `upto`), in order, as clients were sent them; None
    when too many are missing."""
    query = Event.objects.filter(battle_id=battle_id, seq__gt=seq).order_by("seq")
    if upto is not None:
        query = query.filter(seq__lte=upto)
    found = list(query[: limits.RESUME_EVENTS + 1])
    if len(found) > limits.RESUME_EVENTS:
        return None
    frames = [events.event(e) for e in found]
    table = [(e, frame) for e, frame in zip(found, frames, strict=True) if e.kind in TABLE_KINDS]
    if table:
        follower = Follower(position_at(Battle.objects.defer("state").get(pk=battle_id), seq))
        for event, frame in table:
            frame.update(follower.unstored(event))
        # The board's view, for the position the client ends on (an older one's is moot).
        at = follower.at
        game = referee.readable((battle_id, table[-1][0].seq), at["state"])
        table[-1][1].update(game_systems.table_view(at["state"], at["turn"], game))
    return frames


def _last_seq_query(battle_id: int) -> QuerySet:
    return Battle.objects.filter(pk=battle_id).values_list("last_seq")


#: Built once per thread: every socket's ping reads it (delivery.catch_up).
_LAST_SEQ = CompiledQuery(_last_seq_query, STAND_ID)


def last_seq(battle_id: int) -> int:
    rows = _LAST_SEQ.rows(battle_id)
    return (rows[0][0] if rows else 0) or 0


def last_seqs(battle_ids: list[int]) -> list[int]:
    """`last_seq` of each battle, in one query (table_socket/batches.py)."""
    found = dict(Battle.objects.filter(pk__in=battle_ids).values_list("pk", "last_seq"))
    return [found.get(battle_id) or 0 for battle_id in battle_ids]


def _history(battle_id: int, upto: int) -> tuple[list[dict], list[dict]]:
    """The last chat lines and dice-log lines up to `upto`."""
    recent = Event.objects.filter(battle_id=battle_id, seq__lte=upto).order_by("-seq")
    chat = [events.event(e) for e in recent.filter(kind="chat")[:HISTORY]]
    rolled = [events.event(e) for e in recent.filter(kind__in=("roll", "act"))[:HISTORY]]
    dice = [roll for frame in rolled[::-1] for roll in events.dice_entries(frame)]
    return chat[::-1], dice[-HISTORY:]


def _last_table_seq(battle: Battle, seq: int) -> int | None:
    """The seq of the last table event up to `seq`: the one the position after `seq` is
    after; None when none is (the position is then the one before the first)."""
    table = Event.objects.filter(battle=battle, kind__in=TABLE_KINDS, seq__lte=seq)
    return table.order_by("-seq").values_list("seq", flat=True).first()


def position_at(battle: Battle, seq: int) -> dict[str, Any]:
    """{"state", "turn"} after event `seq`: the one way every reader reads a past position
    (replay, undo, the record and its files, a delayed snapshot). The last base kept up to
    the last table event, followed through the changes since (changes.py): one base read,
    and kept in the cache (what the log says at `seq` never changes)."""
    last = _last_table_seq(battle, seq)
    if last is None:
        return _before_first(battle)[0]
    return remember(f"{battle_key(battle)}:position:{last}", lambda: _followed(battle, last))


def position_before(battle: Battle, seq: int) -> dict[str, Any]:
    """The position table event `seq` was made on: the base it keeps, or the position after
    the event before it (the same unless the position changed outside the log)."""
    kept_base = Coalesce("base", kept("position_before"))
    found = Event.objects.filter(battle=battle, seq=seq).values_list(kept_base, flat=True).first()
    return found if found is not None else position_at(battle, seq - 1)


def _before_first(battle: Battle) -> tuple[dict[str, Any], int]:
    """(the position before the battle's first table event, that event's seq): its base,
    or the battle's own position (seq 0) while no table event keeps one."""
    table = Event.objects.filter(battle=battle, kind__in=TABLE_KINDS).order_by("seq")
    found = table.values_list(Coalesce("base", kept("position_before")), "seq").first()
    return found or ({"state": battle.state, "turn": battle.turn_state}, 0)


def _followed(battle: Battle, last: int) -> dict[str, Any]:
    """The position after table event `last`: from the newest base (or whole position an
    old release kept) up to it, through the changes since."""
    table = Event.objects.filter(battle=battle, kind__in=TABLE_KINDS, seq__lte=last)
    whole = Q(base__isnull=False) | Q(position_after__isnull=False) | Q(payload__has_key="_after")
    start = table.filter(whole).order_by("-seq").values_list("seq", flat=True).first()
    rows = table.filter(seq__gte=start or 0).order_by("seq")
    at: dict[str, Any] = {}
    for base, after, payload, change in rows.values_list(
        "base", kept("position_after"), "payload", "change"
    ):
        if after is not None:  # an old release's event: the whole position after it
            at = after
            continue
        at = changes.follow(base if base is not None else at, payload, change)
    return at


class Follower:
    """A position followed through the log's events, in order: how a reader of many
    events (a resume, the record, the export) has the position after each, reading a base
    only where the position changed outside the log (changes.REBASE)."""

    def __init__(self, at: dict[str, Any], base_seq: int = 0) -> None:
        self.at = at
        #: The seq of the event whose base `at` is (0: none): not read again.
        self._base_seq = base_seq

    @classmethod
    def from_start(cls, battle: Battle) -> "Follower":
        """At the position before the battle's first table event."""
        return cls(*_before_first(battle))

    def follow(self, event: Event | EventRow) -> dict[str, Any]:
        """The position after `event` (a table event changes it; any other leaves it)."""
        if event.kind not in TABLE_KINDS:
            return self.at
        if (event.change or {}).get(changes.REBASE) and event.seq != self._base_seq:
            base = Event.objects.filter(pk=event.pk).values_list("base", flat=True)[0]
            self.at = self.at if base is None else base
        self.at = changes.follow(self.at, event.payload, event.change)
        return self.at

    def unstored(self, event: Event | EventRow) -> dict[str, Any]:
        """Followed through table event `event`: what its frame says that the log does not
        keep (its engine turn state and turn)."""
        at = self.follow(event)
        return {"state": at["state"].get("state", {}), "turn": at["turn"]}


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

    last = _last_table_seq(battle, seq)
    if last is None:
        return digest()
    return remember(f"{battle_key(battle)}:hash:{last}", digest)


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
    # Read once per position in this process, and its view once: kept with the position.
    game = referee.readable((battle.id, seq), at["state"])
    frame.update(game_systems.table_view(at["state"], at["turn"], game))
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
