"""How far into a battle's log a reader may see: everything, or for a spectator of a
delayed table, nothing newer than the delay (docs/protocol.md, `set_delay`)."""

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from tabletop.models import Battle, BattleResult, Event, Role
from tabletop.models.battle import BattleStatus
from tabletop.services.table import log


@dataclass(frozen=True)
class Horizon:
    #: The last event the reader may see.
    seq: int
    #: Nothing recorded after this moment is shown; None: no delay, all of it.
    until: datetime | None = None

    def shows(self, moment: datetime) -> bool:
        return self.until is None or moment <= self.until


def horizon(battle: Battle, role: str) -> Horizon:
    """The GM and the players see the whole log; a spectator sees what happened at least
    the battle's delay ago, strictly (no event newer than the delay, however busy the table)."""
    if role != Role.SPECTATOR or not battle.spectator_delay_s:
        return Horizon(battle.last_seq)
    until = timezone.now() - timedelta(seconds=battle.spectator_delay_s)
    seen = Event.objects.filter(battle=battle, created_at__lte=until).order_by("-seq")
    return Horizon(seen.values_list("seq", flat=True).first() or 0, until)


@dataclass(frozen=True)
class Seen:
    """The battle as a reader sees it at their horizon: the position, the status, the
    result (None: none recorded, or not before the horizon)."""

    state: dict[str, Any]
    turn: dict[str, Any]
    status: str
    result: BattleResult | None

    @property
    def status_label(self) -> str:
        return str(BattleStatus(self.status).label)


def battle_seen(battle: Battle, seen: Horizon) -> Seen:
    """The battle page's view: the table now, or for a delayed spectator the table, status
    and result as they were at the horizon (no position, status or result newer than it)."""
    if seen.until is None:
        result = getattr(battle, "result", None) if battle.status == BattleStatus.FINISHED else None
        return Seen(battle.state, battle.turn_state, battle.status, result)
    at = log.position_at(battle, seen.seq)
    status = log.status_seen(battle, seen.until)
    result = getattr(battle, "result", None) if status == BattleStatus.FINISHED else None
    return Seen(at["state"], at["turn"], status, result)


def status_label(battle: Battle, seen: Horizon) -> str:
    """The battle's status, in words, as the reader knows it."""
    return Seen({}, {}, log.status_seen(battle, seen.until), None).status_label
