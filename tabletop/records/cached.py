"""What the record views keep in Django's cache, and how often one reader may ask.

A battle's record up to an event never changes: the log only grows. So a file built up
to the reader's horizon is kept under the battle and that event's number, and every
reader at the same horizon gets it without reading the log again. The report also counts
the orders the rules refused (the server's answers, in no event) and shows the result:
its key names the newest answer and whether the result is shown, so that neither is
ever stale.

Building a record of a long battle is work for the server, so each user may ask for so
many a minute (`RECORD_READS_PER_MINUTE`); beyond that the answer is 429. A cache that
does not answer costs only the work: the file is built, the read allowed.
"""

from django.conf import settings
from django.contrib.auth.models import User

from tabletop import rate_limits
from tabletop.models import Battle, BattleResult, CommandReply, Event
from tabletop.records.horizon import Horizon
from tabletop.services.table.command import TABLE_KINDS
from tabletop.services.table.log import battle_key, remember

__all__ = ["log_key", "piece_key", "read_allowed", "remember", "settled", "story_key"]
#: Record reads one user may make a minute (report page, report SVG, event log, files).
READS_PER_MINUTE = 30


def log_key(battle: Battle, horizon: Horizon, what: str) -> str:
    """Under this key: what is built from the log alone, up to the horizon's event."""
    return f"{battle_key(battle, 'record')}:{what}:{horizon.seq}"


def piece_key(battle: Battle, what: str, first: int) -> str:
    """Under this key: a piece of what is built from the log alone, from the event after
    `first` on (a piece is kept once the log holds all of its events)."""
    return f"{battle_key(battle, 'record')}:{what}:after:{first}"


def story_key(battle: Battle, horizon: Horizon, what: str) -> str:
    """Under this key: what is built from the log, the server's answers and the result, as
    far as the reader sees them."""
    replies = CommandReply.objects.filter(battle=battle)
    results = BattleResult.objects.filter(battle=battle)
    if horizon.until is not None:
        replies = replies.filter(created_at__lte=horizon.until)
        results = results.filter(recorded_at__lte=horizon.until)
    newest = replies.order_by("-id").values_list("id", flat=True).first() or 0
    shown = results.exists()
    return f"{log_key(battle, horizon, what)}:{newest}:{int(shown)}"


def settled(battle: Battle) -> bool:
    """Whether the battle's story starts from a position its log keeps (a table event's):
    before the first one it starts from the battle's own, which deployment changes."""
    return Event.objects.filter(battle=battle, kind__in=TABLE_KINDS).exists()


def read_allowed(user: User) -> bool:
    """Counts one record read of `user`'s in this minute; False once over the limit."""
    limit = getattr(settings, "RECORD_READS_PER_MINUTE", READS_PER_MINUTE)
    minute = int(rate_limits.now() // 60)
    joined = getattr(user, "date_joined", None)
    key = f"record-reads:{user.pk}:{joined.timestamp() if joined else ''}:{minute}"
    return rate_limits.safely(1, lambda: rate_limits.increment(key, 90)) <= limit
