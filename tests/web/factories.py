"""Small builders of campaigns and battles for the web tests, through the services."""

from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model

from tabletop.models import Battle
from tabletop.services.battles import battle_create, battle_start
from tabletop.services.campaigns import campaign_create, membership_set
from tabletop.services.maps import map_create
from tabletop.services.rosters import roster_create, unit_profile_add

MECH = {"move": 10, "base": {"shape": "circle", "diameter": 1.75}}


def make_battle_sync(prefix: str = "") -> tuple[Battle, dict]:
    User = get_user_model()
    users = {
        role: User.objects.create_user(f"{prefix}{role}", password="pw-12345678")
        for role in ("gm", "p1", "p2", "spectator")
    }
    campaign = campaign_create(gm=users["gm"], name=f"{prefix}Campaign", system="aod")
    membership_set(campaign=campaign, user=users["p1"], role="player")
    membership_set(campaign=campaign, user=users["p2"], role="player")
    membership_set(campaign=campaign, user=users["spectator"], role="spectator")
    battle_map = map_create(campaign=campaign, name="Table", width=36, height=36, terrain=[])
    sides = []
    for side, owner in (("P1", users["p1"]), ("P2", users["p2"])):
        roster = roster_create(campaign=campaign, owner=owner, name=f"{side} force")
        unit_profile_add(roster=roster, name=f"{side} mech", unit_type="mech", stats=MECH)
        sides.append((roster, side))
    battle = battle_create(
        campaign=campaign,
        battle_map=battle_map,
        name="Battle",
        sides=sides,
        deployment_zones={
            "P1": [[0, 0], [36, 0], [36, 6], [0, 6]],
            "P2": [[0, 30], [36, 30], [36, 36], [0, 36]],
        },
    )
    return battle_start(battle=battle), users


make_battle = sync_to_async(make_battle_sync)
