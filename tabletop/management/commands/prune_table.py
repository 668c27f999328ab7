"""`python manage.py prune_table`: deletes the live table's stale bookkeeping rows.

- Presence rows (TableConnection) not seen for longer than the presence timeout: their
  socket's process died without closing them (a crash, a SIGKILL); they no longer count
  for presence and nothing reads them again.
- Command replies (CommandReply) older than `--replies-days`: a reply is kept so that a
  client resending a message id after a lost answer gets the same answer; clients
  resend within seconds of reconnecting, never days later.
- Expired login sessions: Django never deletes them by itself (its `clearsessions`),
  so a site left running for a year would keep every one.
- Sign-ups whose verification link expired unopened (services/accounts.py
  `unverified_lapsed`: never logged in, in no campaign): their name and address are free
  again.

The event log is never touched. Run it daily (docs/deploy/README.md has the timer).
"""

from datetime import timedelta
from typing import Any

from django.contrib.sessions.models import Session
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from tabletop.models import CommandReply, TableConnection
from tabletop.services.accounts import unverified_lapsed
from tabletop.services.table.presence import TIMEOUT


class Command(BaseCommand):
    help = (
        "Deletes stale presence rows, command replies older than --replies-days "
        "expired login sessions and sign-ups never verified."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--replies-days",
            type=int,
            default=7,
            help="keep the command replies of the last N days (default 7)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        days = options["replies_days"]
        if days < 1:
            raise CommandError("--replies-days must be at least 1")
        now = timezone.now()
        presence, _ = TableConnection.objects.filter(last_seen__lt=now - TIMEOUT).delete()
        replies, _ = CommandReply.objects.filter(created_at__lt=now - timedelta(days=days)).delete()
        sessions, _ = Session.objects.filter(expire_date__lt=now).delete()
        lapsed = unverified_lapsed()
        unverified = len(lapsed)
        lapsed.delete()
        self.stdout.write(
            f"pruned {presence} stale presence rows (silent > {int(TIMEOUT.total_seconds())} s), "
            f"{replies} command replies (older than {days} days), "
            f"{sessions} expired login sessions "
            f"and {unverified} sign-ups whose verification link expired unopened"
        )
