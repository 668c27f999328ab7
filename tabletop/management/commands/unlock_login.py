"""`python manage.py unlock_login NAME...`: forgets every failed login counted for these
user names, so their owners may log in at once (the admin's "Forget their failed logins"
action does the same; a completed password reset too). tabletop/login_throttle.py."""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tabletop import login_throttle


class Command(BaseCommand):
    help = "Forgets the failed logins of these user names: they may log in again at once."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("usernames", nargs="+", metavar="NAME")

    def handle(self, *args: Any, **options: Any) -> None:
        names = options["usernames"]
        known = set(
            get_user_model().objects.filter(username__in=names).values_list("username", flat=True)
        )
        unknown = [name for name in names if name not in known]
        if unknown:
            raise CommandError(f"No account is called {', '.join(unknown)}; nothing was changed.")
        for name in names:
            login_throttle.forget_name(name)
            self.stdout.write(f"{name} may log in again: their failed logins are forgotten.")
