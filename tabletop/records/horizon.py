"""How far into a battle's log a reader may see: everything, or for a spectator of a
delayed table, nothing newer than the delay (docs/protocol.md, `set_delay`)."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from tabletop.models import Battle, Event, Role


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
