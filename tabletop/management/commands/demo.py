"""`python manage.py demo`: a GM, two players, a spectator, and a ready battle per system.

The command names no game system: it loads every entry of `tabletop.demo.DEMO_SYSTEMS`
the same way, and says which registered systems have no demo content yet.
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
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
from tabletop.services.battles import battle_create, battle_deploy, battle_start
from tabletop.services.campaigns import campaign_create, membership_set
from tabletop.services.maps import map_create
from tabletop.services.rosters import roster_create, unit_profile_add


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


def demo_users() -> dict[str, AbstractBaseUser]:
    """The demo people, created with their passwords the first time only."""
    User = get_user_model()
    users = {}
    for username, password, _ in DEMO_USERS:
        user, created = User.objects.get_or_create(username=username)
        if created:
            user.set_password(password)
            user.save()
        users[username] = user
    return users


def demo_battle(key: str, demo: DemoSystem, users: dict[str, AbstractBaseUser]) -> Battle:
    """The system's demo campaign, map and rosters, and its battle deployed and live."""
    campaign = campaign_create(
        gm=users["gm"], name=demo.campaign, system=key, points_limit=demo.points_limit
    )
    for username, _, role in DEMO_USERS:
        if role != "gm":
            membership_set(campaign=campaign, user=users[username], role=role)
    battle_map = map_create(
        campaign=campaign,
        name="Demo table",
        width=demo.width,
        height=demo.height,
        terrain=demo.terrain,
    )
    players = [username for username, _, role in DEMO_USERS if role == "player"]
    sides = []
    for (side, (roster_name, units)), username in zip(demo.forces.items(), players, strict=True):
        roster = roster_create(campaign=campaign, owner=users[username], name=roster_name)
        for unit in units:
            unit_profile_add(
                roster=roster,
                name=unit.name,
                unit_type=unit.unit_type,
                stats=unit.stats,
                points=unit.points,
            )
        sides.append((roster, side))
    # The system's own deployment zones, each along a table edge (sides in order).
    battle = battle_create(
        campaign=campaign,
        battle_map=battle_map,
        name="Demo battle",
        sides=sides,
        zone_depth=DEPLOYMENT_DEPTH,
    )
    battle = battle_deploy(
        actor=users["gm"],
        battle=battle,
        placements=spread_in_zones(battle.state, battle.deployment_zones),
    )
    return battle_start(battle=battle)
