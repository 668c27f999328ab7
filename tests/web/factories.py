"""Small builders of campaigns and battles for the web tests, through the services."""

from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model

from tabletop.models import Battle
from tabletop.services.battles import battle_create, battle_deploy, battle_start
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


# -- an M.S. Wars battle whose moves are certain (mswars.md sections 2, 3 and 6) ----------

#: Difficult ground across the Rampart's way north (y 8 to 11): a track pays 2 MP an inch
#: there (002 cost table). Woodland and an elevated tor fill the legend.
MSWARS_TERRAIN = [
    {"id": "Mud", "type": "difficult", "polygon": [[14, 8], [22, 8], [22, 11], [14, 11]]},
    {"id": "Copse", "type": "woodland", "polygon": [[26, 14], [32, 14], [32, 20], [26, 20]]},
    {
        "id": "Tor",
        "type": "elevated",
        "height": 3.0,
        "polygon": [[2, 16], [8, 16], [8, 22], [2, 22]],
    },
]

#: (name, move type, stats, position) per side; P1 faces north, P2 south (the centre).
MSWARS_UNITS: dict[str, list[tuple[str, str, dict, list[float]]]] = {
    "P1": [
        (
            "P1 Warden",
            "walker",
            {"move": 6, "size_class": 3, "base": {"shape": "circle", "diameter": 2.0}},
            [6.0, 3.0],
        ),
        (
            "P1 Rampart",
            "track",
            {"move": 5, "size_class": 2, "base": {"shape": "rect", "width": 2, "length": 3}},
            [18.0, 3.0],
        ),
    ],
    "P2": [
        (
            "P2 Talon",
            "walker",
            {"move": 7, "size_class": 3, "base": {"shape": "circle", "diameter": 2.0}},
            [6.0, 33.0],
        ),
        (
            "P2 Skiff",
            "hover",
            {
                "move": 8,
                "size_class": 2,
                "carrier": 1,
                "base": {"shape": "rect", "width": 1.75, "length": 2.75},
            },
            [18.0, 33.0],
        ),
    ],
}


def make_mswars_battle_sync(prefix: str = "") -> tuple[Battle, dict]:
    """A live M.S. Wars battle on a 36" table: MSWARS_UNITS deployed where they say,
    MSWARS_TERRAIN, gm / p1 / p2 / spectator members. Turn 1, Phase 1, P1 to act."""
    User = get_user_model()
    users = {
        role: User.objects.create_user(f"{prefix}{role}", password="pw-12345678")
        for role in ("gm", "p1", "p2", "spectator")
    }
    campaign = campaign_create(gm=users["gm"], name=f"{prefix}Campaign", system="mswars")
    membership_set(campaign=campaign, user=users["p1"], role="player")
    membership_set(campaign=campaign, user=users["p2"], role="player")
    membership_set(campaign=campaign, user=users["spectator"], role="spectator")
    battle_map = map_create(
        campaign=campaign, name="Table", width=36, height=36, terrain=MSWARS_TERRAIN
    )
    sides = []
    for side, owner in (("P1", users["p1"]), ("P2", users["p2"])):
        roster = roster_create(campaign=campaign, owner=owner, name=f"{side} force")
        for name, move_type, stats, _ in MSWARS_UNITS[side]:
            unit_profile_add(roster=roster, name=name, unit_type=move_type, stats=stats)
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
    ids = {label["name"]: unit_id for unit_id, label in battle.unit_labels.items()}
    placements = {
        ids[name]: {"position": position}
        for units in MSWARS_UNITS.values()
        for name, _, _, position in units
    }
    battle = battle_deploy(actor=users["gm"], battle=battle, placements=placements)
    return battle_start(battle=battle), users


# -- an action-point skirmish battle (apskirmish.md 2, 4, 5, 6b) ---------------------------

#: A wall across the middle (y 14 to 14.5) with rough Rubble before it on the west.
APSKIRMISH_TERRAIN = [
    {
        "id": "Wall",
        "type": "obstacle",
        "height": 1.0,
        "polygon": [[9, 14], [21, 14], [21, 14.5], [9, 14.5]],
    },
    {"id": "Rubble", "type": "rough", "polygon": [[2, 8], [8, 8], [8, 11], [2, 11]]},
]

#: (name, stats, position) per side; each soldier has 3 AP a round (APS-D22) and a
#: `name`, which the engine's header line uses ("Kell: 2 AP left"). P1 faces north.
APSKIRMISH_UNITS: dict[str, list[tuple[str, dict, list[float]]]] = {
    "P1": [
        # 1.5" south of the Rubble: a 3" move north ends in it (a Terrain roll).
        ("Kell", {"stats": {"PSQ": 4, "INS": 5}}, [5.0, 6.5]),
        # 1" short of the Wall with its base (radius 0.5): it may Traverse it.
        ("Brannock", {"stats": {"PSQ": 5, "INS": 6}}, [15.0, 12.5]),
    ],
    "P2": [
        ("Handler", {"stats": {"PSQ": 5, "INS": 6}}, [25.0, 26.0]),
        ("Rook", {"stats": {"PSQ": 5, "INS": 4}}, [5.0, 26.0]),
    ],
}


def make_apskirmish_battle_sync(prefix: str = "", tests: str = "d10") -> tuple[Battle, dict]:
    """A live action-point skirmish battle on a 30" table: APSKIRMISH_UNITS (standing,
    1" bases, ap_max 3) where they say, APSKIRMISH_TERRAIN, the table option `tests`
    ("d10": the engine rolls; "gm": the GM gives each result), gm / p1 / p2 / spectator
    members. Round 1, P1 to act, nobody activating yet."""
    User = get_user_model()
    users = {
        role: User.objects.create_user(f"{prefix}{role}", password="pw-12345678")
        for role in ("gm", "p1", "p2", "spectator")
    }
    campaign = campaign_create(
        gm=users["gm"],
        name=f"{prefix}Campaign",
        system="apskirmish",
        table_options={"tests": tests},
    )
    membership_set(campaign=campaign, user=users["p1"], role="player")
    membership_set(campaign=campaign, user=users["p2"], role="player")
    membership_set(campaign=campaign, user=users["spectator"], role="spectator")
    battle_map = map_create(
        campaign=campaign, name="Yard", width=30, height=30, terrain=APSKIRMISH_TERRAIN
    )
    sides = []
    for side, owner in (("P1", users["p1"]), ("P2", users["p2"])):
        roster = roster_create(campaign=campaign, owner=owner, name=f"{side} squad")
        for name, stats, _ in APSKIRMISH_UNITS[side]:
            soldier = {
                "base": {"shape": "circle", "diameter": 1.0},
                "stance": "standing",
                "ap_max": 3,
                "name": name,
                **stats,
            }
            unit_profile_add(roster=roster, name=name, unit_type="soldier", stats=soldier)
        sides.append((roster, side))
    battle = battle_create(
        campaign=campaign,
        battle_map=battle_map,
        name="Skirmish",
        sides=sides,
        deployment_zones={
            "P1": [[0, 0], [30, 0], [30, 14], [0, 14]],
            "P2": [[0, 16], [30, 16], [30, 30], [0, 30]],
        },
    )
    ids = {label["name"]: unit_id for unit_id, label in battle.unit_labels.items()}
    placements = {
        ids[name]: {"position": position}
        for units in APSKIRMISH_UNITS.values()
        for name, _, position in units
    }
    battle = battle_deploy(actor=users["gm"], battle=battle, placements=placements)
    return battle_start(battle=battle), users


#: Where the LaserGrenadiers demo's pieces stand in the tests' battle (inches): the
#: troopers in base contact with their carrier, so that they may load at once (003
#: Transport 1); the grav tank west of the wood; the armoured car clear of the slope.
LASERGRENADIERS_PLACEMENTS = {
    "Grav tank": [2.0, 3.0],
    "Carrier": [20.0, 3.0],
    "Troopers": [21.63, 3.0],
    "Jetpack squad": [36.0, 3.0],
    "Armoured car": [18.0, 33.0],
    "Hover tank": [28.0, 33.0],
    "Laser team": [36.0, 33.0],
    "Militia": [44.0, 33.0],
}


def make_lasergrenadiers_battle_sync(prefix: str = "") -> tuple[Battle, dict]:
    """A live LaserGrenadiers battle on the demo's map with the demo's forces (tabletop.demo),
    placed at LASERGRENADIERS_PLACEMENTS; gm / p1 / p2 / spectator members. Turn 1, P1 to
    act, no piece active yet (LG-D31)."""
    from tabletop.demo import DEMO_SYSTEMS

    demo = DEMO_SYSTEMS["lasergrenadiers"]
    User = get_user_model()
    users = {
        role: User.objects.create_user(f"{prefix}{role}", password="pw-12345678")
        for role in ("gm", "p1", "p2", "spectator")
    }
    campaign = campaign_create(
        gm=users["gm"],
        name=f"{prefix}Campaign",
        system="lasergrenadiers",
        points_limit=demo.points_limit,
    )
    membership_set(campaign=campaign, user=users["p1"], role="player")
    membership_set(campaign=campaign, user=users["p2"], role="player")
    membership_set(campaign=campaign, user=users["spectator"], role="spectator")
    battle_map = map_create(
        campaign=campaign,
        name="Table",
        width=demo.width,
        height=demo.height,
        terrain=demo.terrain,
    )
    sides = []
    for (side, (name, units)), owner in zip(
        demo.forces.items(), (users["p1"], users["p2"]), strict=True
    ):
        roster = roster_create(campaign=campaign, owner=owner, name=name)
        for unit in units:
            unit_profile_add(
                roster=roster, name=unit.name, unit_type=unit.unit_type, stats=unit.stats
            )
        sides.append((roster, side))
    battle = battle_create(
        campaign=campaign,
        battle_map=battle_map,
        name="Battle",
        sides=sides,
        deployment_zones={
            "P1": [[0, 0], [48, 0], [48, 6], [0, 6]],
            "P2": [[0, 30], [48, 30], [48, 36], [0, 36]],
        },
    )
    ids = {label["name"]: unit_id for unit_id, label in battle.unit_labels.items()}
    placements = {
        ids[name]: {"position": position} for name, position in LASERGRENADIERS_PLACEMENTS.items()
    }
    battle = battle_deploy(actor=users["gm"], battle=battle, placements=placements)
    return battle_start(battle=battle), users
