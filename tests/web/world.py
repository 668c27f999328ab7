"""Two campaigns with every kind of person in them, built through the services.

Campaign A ("home"): its GM, a player who owns a roster ("owner"), another
player with a roster ("other"), a spectator, and an outsider who belongs to
none of it but is the GM of campaign B ("away"), which has objects of its own.
"""

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser

from tabletop.models import Battle, Campaign, Map, Roster, UnitProfile
from tabletop.services.battles import battle_create
from tabletop.services.campaigns import campaign_create, membership_set
from tabletop.services.maps import map_create
from tabletop.services.rosters import roster_create, unit_profile_add

MECH = {"move": 10, "base": {"shape": "circle", "diameter": 1.75}}
ZONES = {
    "P1": [[0, 0], [36, 0], [36, 6], [0, 6]],
    "P2": [[0, 30], [36, 30], [36, 36], [0, 36]],
}
PASSWORD = "pw-12345678"


@dataclass
class CampaignObjects:
    campaign: Campaign
    map: Map
    spare_map: Map  # a map no battle uses, so that it may be deleted
    roster: Roster
    other_roster: Roster
    unit: UnitProfile
    battle: Battle


@dataclass
class World:
    users: dict[str, AbstractBaseUser] = field(default_factory=dict)
    home: CampaignObjects | None = None
    away: CampaignObjects | None = None


def _campaign(name: str, gm: AbstractBaseUser, owner: AbstractBaseUser, other: AbstractBaseUser):
    campaign = campaign_create(gm=gm, name=name, system="aod", points_limit=300)
    battle_map = map_create(campaign=campaign, name="Ridge", width=36, height=36, terrain=[])
    spare = map_create(campaign=campaign, name="Spare", width=24, height=24, terrain=[])
    rosters = []
    for user, force in ((owner, "Lance"), (other, "Pack")):
        if user.pk != gm.pk:
            membership_set(campaign=campaign, user=user, role="player")
        roster = roster_create(campaign=campaign, owner=user, name=f"{name} {force}")
        unit_profile_add(
            roster=roster, name=f"{force} Atlas", unit_type="mech", stats=MECH, points=100
        )
        rosters.append(roster)
    battle = battle_create(
        campaign=campaign,
        battle_map=battle_map,
        name=f"{name} battle",
        sides=[(rosters[0], "P1"), (rosters[1], "P2")],
        deployment_zones=ZONES,
    )
    return CampaignObjects(
        campaign=campaign,
        map=battle_map,
        spare_map=spare,
        roster=rosters[0],
        other_roster=rosters[1],
        unit=rosters[0].units.get(),
        battle=battle,
    )


def build_world() -> World:
    User = get_user_model()
    world = World()
    for name in ("gm", "owner", "other", "spectator", "outsider", "away_player"):
        world.users[name] = User.objects.create_user(name, password=PASSWORD)
    u = world.users
    world.home = _campaign("Home", u["gm"], u["owner"], u["other"])
    membership_set(campaign=world.home.campaign, user=u["spectator"], role="spectator")
    world.away = _campaign("Away", u["outsider"], u["away_player"], u["outsider"])
    return world
