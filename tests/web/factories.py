"""Small builders of campaigns and battles for the web tests, through the services."""

from collections.abc import Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser

from tabletop.models import Battle
from tabletop.services.battle_setup import Force, Table, UnitEntry, battle_set_up

MECH = {"move": 10, "base": {"shape": "circle", "diameter": 1.75}}
ROLES = ("gm", "p1", "p2", "spectator")


def zones(width: float, height: float, depth: float = 6) -> dict[str, list[list[float]]]:
    """P1's zone along the south edge, P2's along the north one, `depth` inches deep."""
    return {
        "P1": [[0, 0], [width, 0], [width, depth], [0, depth]],
        "P2": [[0, height - depth], [width, height - depth], [width, height], [0, height]],
    }


def battle_for_people(
    prefix: str, system: str, forces: dict[str, tuple[str, list[UnitEntry]]], **setup: Any
) -> tuple[Battle, dict[str, AbstractBaseUser]]:
    """A live `system` battle in "{prefix}Campaign" of the users "{prefix}gm" (its GM),
    "{prefix}p1" and "{prefix}p2" (players: P1's force is p1's, P2's p2's) and
    "{prefix}spectator", password pw-12345678. `setup` goes to battle_set_up."""
    User = get_user_model()
    users = {
        role: User.objects.create_user(f"{prefix}{role}", password="pw-12345678") for role in ROLES
    }
    battle = battle_set_up(
        system=system,
        gm=users["gm"],
        campaign=f"{prefix}Campaign",
        members=[
            (users["p1"], "player"),
            (users["p2"], "player"),
            (users["spectator"], "spectator"),
        ],
        forces=[
            Force(side, roster, users[side.lower()], units)
            for side, (roster, units) in forces.items()
        ],
        **setup,
    )
    return battle, users


def battle_from_rows(
    prefix: str,
    system: str,
    rows: dict[str, list[tuple]],
    entry: Callable[..., UnitEntry],
    roster: str,
    **setup: Any,
) -> tuple[Battle, dict[str, AbstractBaseUser]]:
    """battle_for_people with each side's roster "{side} {roster}" made from its rows:
    a row's last item is where the unit stands, `entry(*the others)` its profile."""
    forces = {
        side: (f"{side} {roster}", [entry(*row[:-1]) for row in units])
        for side, units in rows.items()
    }
    placements = {row[0]: row[-1] for units in rows.values() for row in units}
    return battle_for_people(prefix, system, forces, placements=placements, **setup)


def make_battle_sync(prefix: str = "", table: Table | None = None) -> tuple[Battle, dict]:
    """A live aod battle on a 36" table (`table`: its map, 36" square, with terrain or a
    picture): a 0-point mech a side where battle_create lays it out, gm / p1 / p2 /
    spectator members."""
    forces = {
        side: (f"{side} force", [UnitEntry(f"{side} mech", "mech", MECH)]) for side in ("P1", "P2")
    }
    table = table or Table("Table", 36, 36, [])
    return battle_for_people(prefix, "aod", forces, table=table, deployment_zones=zones(36, 36))


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
    return battle_from_rows(
        prefix,
        "mswars",
        MSWARS_UNITS,
        UnitEntry,
        "force",
        table=Table("Table", 36, 36, MSWARS_TERRAIN),
        deployment_zones=zones(36, 36),
    )


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

#: Every soldier's profile but its name and stats: a 1" base, standing, 3 AP a round.
SOLDIER = {"base": {"shape": "circle", "diameter": 1.0}, "stance": "standing", "ap_max": 3}

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
    return battle_from_rows(
        prefix,
        "apskirmish",
        APSKIRMISH_UNITS,
        lambda name, stats: UnitEntry(name, "soldier", {**SOLDIER, "name": name, **stats}),
        "squad",
        table=Table("Yard", 30, 30, APSKIRMISH_TERRAIN),
        battle="Skirmish",
        deployment_zones=zones(30, 30, depth=14),
        table_options={"tests": tests},
    )


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
    # The demo's profiles, at 0 points each here.
    forces = {
        side: (roster, [UnitEntry(u.name, u.unit_type, u.stats) for u in units])
        for side, (roster, units) in demo.forces.items()
    }
    return battle_for_people(
        prefix,
        "lasergrenadiers",
        forces,
        table=Table("Table", demo.width, demo.height, demo.terrain),
        deployment_zones=zones(48, 36),
        placements=LASERGRENADIERS_PLACEMENTS,
        points_limit=demo.points_limit,
    )
