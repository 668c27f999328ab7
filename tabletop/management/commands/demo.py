"""`python manage.py demo`: a GM, two players, a spectator, and a ready battle per system."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from tabletop.demo import DEMO_SYSTEMS, DEMO_USERS, DEPLOYMENT_DEPTH, spread_along_edges
from tabletop.models import Campaign
from tabletop.services import game_systems
from tabletop.services.battles import battle_create, battle_deploy, battle_start
from tabletop.services.campaigns import campaign_create, membership_set
from tabletop.services.maps import map_create
from tabletop.services.rosters import roster_create, unit_profile_add


class Command(BaseCommand):
    help = "Loads the demo campaigns (idempotent) and prints the demo logins."

    @transaction.atomic
    def handle(self, *args: object, **options: object) -> None:
        User = get_user_model()
        users = {}
        for username, password, _ in DEMO_USERS:
            user, created = User.objects.get_or_create(username=username)
            if created:
                user.set_password(password)
                user.save()
            users[username] = user
        for key in game_systems.system_keys():
            demo = DEMO_SYSTEMS.get(key)
            if demo is None:
                self.stdout.write(f"no demo content for system {key!r} yet; skipped")
                continue
            if Campaign.objects.filter(name=demo.campaign, system=key).exists():
                continue
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
            players = [u for u, _, role in DEMO_USERS if role == "player"]
            sides = []
            zones = {}
            for (side, (roster_name, units)), username in zip(
                demo.forces.items(), players, strict=True
            ):
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
                y0 = 0.0 if not zones else demo.height - DEPLOYMENT_DEPTH
                zones[side] = [
                    [0, y0],
                    [demo.width, y0],
                    [demo.width, y0 + DEPLOYMENT_DEPTH],
                    [0, y0 + DEPLOYMENT_DEPTH],
                ]
            battle = battle_create(
                campaign=campaign,
                battle_map=battle_map,
                name="Demo battle",
                sides=sides,
                deployment_zones=zones,
            )
            battle = battle_deploy(
                actor=users["gm"],
                battle=battle,
                placements=spread_along_edges(battle.state, demo.width),
            )
            battle_start(battle=battle)
            self.stdout.write(f"created {campaign}")
        self.stdout.write("Demo logins (username / password):")
        for username, password, role in DEMO_USERS:
            self.stdout.write(f"  {username:6} / {password:18} {role}")
