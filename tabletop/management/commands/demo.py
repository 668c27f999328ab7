"""`python manage.py demo`: a GM, two players, a spectator, and a ready battle per system.

The command names no game system: it loads every entry of `tabletop.demo.DEMO_SYSTEMS`
the same way, and says which registered systems have no demo content yet.
"""

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from tabletop.demo import (
    DEMO_SYSTEMS,
    DEMO_USERS,
    DEPLOYMENT_DEPTH,
    DemoSystem,
    spread_in_zones,
)
from tabletop.models import Battle, Campaign
from tabletop.services import game_systems
from tabletop.services.battle_setup import Force, Table, battle_set_up


class Command(BaseCommand):
    help = "Loads the demo campaigns (idempotent) and prints the demo logins."

    @transaction.atomic
    def handle(self, *args: object, **options: object) -> None:
        if not settings.DEMO_ALLOWED:
            # The demo accounts' passwords are public (tabletop/demo.py).
            raise CommandError("demo refuses to run with DEBUG false: its passwords are public")
        users = demo_users()
        for key, demo in DEMO_SYSTEMS.items():
            if key not in game_systems.system_keys():
                self.stdout.write(f"the rules engine has no system {key!r}; its demo is skipped")
                continue
            if Campaign.objects.filter(name=demo.campaign, system=key).exists():
                continue
            battle = demo_battle(key, demo, users)
            system = game_systems.system_name(key)
            named = demo.campaign if system in demo.campaign else f"{demo.campaign} ({system})"
            self.stdout.write(
                f"created {named}: {battle.name}, live, {len(battle.state['units'])} units"
            )
        for key in game_systems.system_keys():
            if key not in DEMO_SYSTEMS:
                self.stdout.write(f"no demo content for {game_systems.system_name(key)} yet")
        self.stdout.write("Demo logins (username / password):")
        for username, password, role in DEMO_USERS:
            self.stdout.write(f"  {username:6} / {password:18} {role}")


def demo_users() -> dict[str, User]:
    """The demo people, created with their passwords the first time only."""
    users = {}
    for username, password, _ in DEMO_USERS:
        user, created = User.objects.get_or_create(username=username)
        if created:
            user.set_password(password)
            user.save()
        users[username] = user
    return users


def demo_battle(key: str, demo: DemoSystem, users: dict[str, User]) -> Battle:
    """The system's demo campaign, map and rosters, and its battle deployed and live."""
    players = [users[username] for username, _, role in DEMO_USERS if role == "player"]
    forces = [
        Force(side, roster, owner, units)
        for (side, (roster, units)), owner in zip(demo.forces.items(), players, strict=True)
    ]
    # The system's own deployment zones, each along a table edge (sides in order).
    zones = game_systems.deployment_zones(
        key, demo.width, demo.height, list(demo.forces), DEPLOYMENT_DEPTH
    )
    return battle_set_up(
        system=key,
        gm=users["gm"],
        campaign=demo.campaign,
        members=[(users[username], role) for username, _, role in DEMO_USERS if role != "gm"],
        table=Table("Demo table", demo.width, demo.height, demo.terrain),
        forces=forces,
        battle="Demo battle",
        deployment_zones=zones,
        placements=demo.placements or spread_in_zones(demo.forces, zones),
        points_limit=demo.points_limit,
    )
