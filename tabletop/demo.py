"""The demo campaign's content: people, and for each game system a map and two forces.

`python manage.py demo` loads it; running it again changes nothing. Each system's
entry uses that system's own vocabulary (terrain types, unit keys), which is why this
file, unlike the rest of the web side, names systems: it is data.
"""

from dataclasses import dataclass, field

from tabletop.services.battle_setup import UnitEntry

DEMO_USERS: list[tuple[str, str, str]] = [
    # (username, password, what they are in every demo campaign)
    ("gm", "demo-gm-2026", "gm"),
    ("alice", "demo-alice-2026", "player"),
    ("bob", "demo-bob-2026", "player"),
    ("sam", "demo-sam-2026", "spectator"),
]


#: A demo unit profile: name, unit type, stats, points.
DemoUnit = UnitEntry


@dataclass(frozen=True)
class DemoSystem:
    campaign: str
    width: float
    height: float
    terrain: list[dict]
    forces: dict[str, tuple[str, list[DemoUnit]]] = field(default_factory=dict)
    # Above the largest demo force, so that every demo roster is legal.
    points_limit: int = 400
    # {unit name: [x, y]} inside its side's zone; none: spread along the zones.
    placements: dict[str, list[float]] = field(default_factory=dict)


def _rect(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


_MECH_BASE = {"shape": "circle", "diameter": 1.75}
_INFANTRY_BASE = {"shape": "circle", "diameter": 1.25}
_VEHICLE_BASE = {"shape": "rect", "width": 1.5, "length": 2.5}
_WALKER_BASE = {"shape": "circle", "diameter": 2.0}
_HEAVY_WALKER_BASE = {"shape": "circle", "diameter": 2.5}
_QUADRUPED_BASE = {"shape": "rect", "width": 2.0, "length": 3.0}
_TRACK_BASE = {"shape": "rect", "width": 2.0, "length": 3.0}
_HOVER_BASE = {"shape": "rect", "width": 1.75, "length": 2.75}

DEMO_SYSTEMS: dict[str, DemoSystem] = {
    "aod": DemoSystem(
        campaign="Demo: the Battle of Kearny Ridge",
        width=36,
        height=36,
        terrain=[
            {"id": "W1", "type": "hindering", "polygon": _rect(6, 14, 12, 20)},
            {"id": "B1", "type": "blocking", "polygon": _rect(16, 16, 20, 20)},
            {"id": "R1", "type": "elevated", "polygon": _rect(25, 13, 31, 19)},
            {"id": "L1", "type": "shallow_water", "polygon": _rect(14, 24, 22, 27)},
            {"id": "D1", "type": "deep_water", "polygon": _rect(2, 24, 6, 28)},
        ],
        forces={
            "P1": (
                "Republic strike lance",
                [
                    DemoUnit("Atlas", "mech", {"move": 8, "base": _MECH_BASE, "points": 180}, 180),
                    DemoUnit(
                        "Shadow Hawk",
                        "mech",
                        {"move": 10, "base": _MECH_BASE, "jump_jets": True, "points": 120},
                        120,
                    ),
                    DemoUnit(
                        "Republic Standard Infantry",
                        "infantry",
                        {"move": 6, "base": _INFANTRY_BASE, "points": 30},
                        30,
                    ),
                ],
            ),
            "P2": (
                "Steel Wolves pack",
                [
                    DemoUnit(
                        "Ryoken", "mech", {"move": 12, "base": _MECH_BASE, "points": 150}, 150
                    ),
                    DemoUnit(
                        "Heavy tank",
                        "tracked",
                        {"move": 8, "base": _VEHICLE_BASE, "points": 80},
                        80,
                    ),
                    DemoUnit(
                        "Hover APC",
                        "hover",
                        {"move": 14, "base": _VEHICLE_BASE, "capacity": 3, "points": 60},
                        60,
                    ),
                ],
            ),
        },
    ),
    "mswars": DemoSystem(
        campaign="Demo: the Siege of Harrow Flats (M.S. Wars)",
        width=48,
        height=36,
        # One feature per row of the cost table, two named features whose row depends on
        # the unit's size class, and an elevated one whose height gives it size class 2
        # (002 cost table, 002 Terrain; mswars.md sections 2 and 3).
        terrain=[
            {"id": "Landing Pad", "type": "flat", "polygon": _rect(40, 9, 46, 13)},
            {"id": "Broken Fields", "type": "rough", "polygon": _rect(3, 20, 12, 26)},
            {"id": "Mud Flats", "type": "difficult", "polygon": _rect(26, 8, 34, 12)},
            {"id": "Scree", "type": "very_difficult", "polygon": _rect(37, 16, 41, 22)},
            {"id": "Reed Bank", "type": "shallow_water", "polygon": _rect(22, 14, 26, 20)},
            {"id": "The Mere", "type": "deep_water", "polygon": _rect(15, 14, 22, 20)},
            {"id": "Harrow Wood", "type": "woodland", "polygon": _rect(3, 9, 12, 17)},
            {
                "id": "Mill River",
                "type": "river",
                "polygon": [[17, 20], [21, 20], [23, 29], [19, 29]],
            },
            {
                "id": "Harrow Tor",
                "type": "elevated",
                "height": 3.0,
                "polygon": _rect(30, 16, 36, 22),
            },
        ],
        forces={
            "P1": (
                "Harrow Flats garrison",
                [
                    DemoUnit(
                        "Warden",
                        "walker",
                        {
                            "move": 6,
                            "size_class": 3,
                            "base": _WALKER_BASE,
                            "skills": ["combat_manoeuvres"],
                            "free_hands": True,
                        },
                        120,
                    ),
                    DemoUnit(
                        "Bulwark",
                        "four_legged_walker",
                        {"move": 5, "size_class": 4, "base": _QUADRUPED_BASE, "skills": []},
                        150,
                    ),
                    DemoUnit(
                        "Rampart carrier",
                        "track",
                        {"move": 6, "size_class": 2, "base": _TRACK_BASE, "carrier": 2},
                        60,
                    ),
                    # Infantry walk (MSW-D2) and turn 90 degrees for an inch (002 Turning).
                    DemoUnit(
                        "Harrow militia",
                        "walker",
                        {
                            "move": 4,
                            "size_class": 0,
                            "infantry": True,
                            "base": _INFANTRY_BASE,
                            "free_hands": True,
                        },
                        30,
                    ),
                ],
            ),
            "P2": (
                "Mobius raiders",
                [
                    DemoUnit(
                        "Talon",
                        "walker",
                        {
                            "move": 7,
                            "size_class": 3,
                            "base": _WALKER_BASE,
                            "skills": ["combat_manoeuvres"],
                            "free_hands": True,
                        },
                        130,
                    ),
                    DemoUnit(
                        "Goliath",
                        "walker",
                        {"move": 5, "size_class": 5, "base": _HEAVY_WALKER_BASE, "skills": []},
                        170,
                    ),
                    DemoUnit(
                        "Skiff",
                        "hover",
                        {"move": 10, "size_class": 2, "base": _HOVER_BASE, "carrier": 2},
                        70,
                    ),
                    DemoUnit(
                        "Raider squad",
                        "walker",
                        {
                            "move": 4,
                            "size_class": 0,
                            "infantry": True,
                            "base": _INFANTRY_BASE,
                            "free_hands": True,
                        },
                        30,
                    ),
                ],
            ),
        },
        points_limit=500,
    ),
    "apskirmish": DemoSystem(
        campaign="Demo: the Scavenger at the Relay Yard (action-point skirmish)",
        width=30,
        height=30,
        # A wall across the yard with three gaps: B (2") and C (2.5") too narrow for the
        # Scavenger's 3" base, D (4") wide enough (004 Size Restrictions); rough ground
        # that asks for a Terrain roll, and a crate to traverse (004 Obstacles).
        terrain=[
            {
                "id": "Wall west",
                "type": "obstacle",
                "height": 1.0,
                "polygon": _rect(0, 14, 5, 14.5),
            },
            {
                "id": "Wall centre",
                "type": "obstacle",
                "height": 1.0,
                "polygon": _rect(7, 14, 13, 14.5),
            },
            {
                "id": "Wall east",
                "type": "obstacle",
                "height": 1.0,
                "polygon": _rect(15.5, 14, 22, 14.5),
            },
            {
                "id": "Wall end",
                "type": "obstacle",
                "height": 1.0,
                "polygon": _rect(26, 14, 30, 14.5),
            },
            {"id": "Crate", "type": "obstacle", "height": 0.5, "polygon": _rect(10, 19, 12, 21)},
            {"id": "Rubble", "type": "rough", "polygon": _rect(2, 8, 8, 11)},
            {"id": "Scrap heaps", "type": "rough", "polygon": _rect(18, 17, 24, 21)},
            {"id": "Yard floor", "type": "open", "polygon": _rect(12, 4, 18, 8)},
        ],
        forces={
            "P1": (
                "Relay Yard salvagers",
                [
                    DemoUnit(
                        name,
                        "soldier",
                        {
                            "base": {"shape": "circle", "diameter": 1.0},
                            "stance": "standing",
                            "ap_max": 3,
                            "stats": {"PSQ": psq, "INS": ins},
                        },
                        30,
                    )
                    for name, psq, ins in (("Kell", 6, 5), ("Brannock", 5, 6), ("Ivo", 5, 5))
                ],
            ),
            "P2": (
                "The Scavenger and its handlers",
                [
                    # A large synthetic unit: its own move per AP (APS-D14).
                    DemoUnit(
                        "The Scavenger",
                        "soldier",
                        {
                            "base": {"shape": "circle", "diameter": 3.0},
                            "move": 4,
                            "stance": "standing",
                            "ap_max": 3,
                            "stats": {"PSQ": 7, "INS": 3},
                        },
                        120,
                    ),
                    DemoUnit(
                        "Handler",
                        "soldier",
                        {
                            "base": {"shape": "circle", "diameter": 1.0},
                            "stance": "crouching",
                            "ap_max": 3,
                            "stats": {"PSQ": 5, "INS": 6},
                        },
                        30,
                    ),
                ],
            ),
        },
    ),
    "lasergrenadiers": DemoSystem(
        campaign="Demo: the Crossing at Vell Ford (LaserGrenadiers)",
        width=48,
        height=36,
        # A river across the middle, crossed only at the bridge that carries the road and
        # at the ford (003 Terrain 4, 5, 8); woods that halve everyone (LG-D6), soft
        # fields, a slope climbed northwards (LG-D5) and a building infantry may enter
        # but vehicles may not (LG-D20).
        terrain=[
            {"id": "Vell river west", "type": "river", "polygon": _rect(0, 17, 22, 19)},
            {"id": "Vell river east", "type": "river", "polygon": _rect(25, 17, 48, 19)},
            {"id": "Vell bridge", "type": "bridge", "polygon": _rect(22, 16.5, 25, 19.5)},
            {"id": "South road", "type": "road", "polygon": _rect(22, 6.5, 25, 16.5)},
            {"id": "North road", "type": "road", "polygon": _rect(22, 19.5, 25, 29.5)},
            {"id": "Vell ford", "type": "ford", "polygon": _rect(36, 16.5, 40, 19.5)},
            {"id": "Hollow wood", "type": "vegetation", "polygon": _rect(4, 9, 12, 14)},
            {"id": "Wet fields", "type": "soft", "polygon": _rect(40, 8, 46, 12)},
            {
                "id": "Signal hill",
                "type": "slope",
                "uphill": 90.0,
                "polygon": _rect(8, 21, 16, 27),
            },
            {
                "id": "Pump house",
                "type": "building",
                "height": 3.0,
                "vehicle_access": False,
                "polygon": _rect(30, 22, 35, 27),
            },
        ],
        forces={
            "P1": (
                "Hammer Company",
                [
                    # The seed's grav tank: 36" straight ahead (003 Ground vehicle movement).
                    DemoUnit(
                        "Grav tank",
                        "grav",
                        {"move": 36, "base": _TRACK_BASE, "armored": True, "size": 6},
                        120,
                    ),
                    # A 24" carrier with room for two pieces (003 Transport, LG-D29).
                    DemoUnit(
                        "Carrier",
                        "tracked",
                        {"move": 24, "base": _TRACK_BASE, "capacity": 2, "size": 5},
                        60,
                    ),
                    DemoUnit("Troopers", "foot", {"move": 6, "base": _INFANTRY_BASE}, 30),
                    DemoUnit("Jetpack squad", "jetpack", {"move": 24, "base": _INFANTRY_BASE}, 40),
                ],
            ),
            "P2": (
                "Vell Militia",
                [
                    # Damaged once: its rate is reduced to 12 (003 Damaged a, LG-D10).
                    DemoUnit(
                        "Armoured car",
                        "wheeled",
                        {
                            "move": 18,
                            "base": _VEHICLE_BASE,
                            "armored": True,
                            "size": 4,
                            "damage_levels": 1,
                            "current_rate": 12,
                        },
                        60,
                    ),
                    DemoUnit(
                        "Hover tank",
                        "hover",
                        {"move": 30, "base": _HOVER_BASE, "armored": True, "size": 5},
                        100,
                    ),
                    # Crewed and moving at its full 6" (003 Crew-served weapon 2).
                    DemoUnit(
                        "Laser team",
                        "crew_weapon",
                        {"move": 6, "base": _INFANTRY_BASE, "full_crew": True},
                        40,
                    ),
                    DemoUnit("Militia", "foot", {"move": 6, "base": _INFANTRY_BASE}, 30),
                ],
            ),
        },
    ),
}

# Each side deploys along its own table edge, 6" deep.
DEPLOYMENT_DEPTH = 6.0


def spread_in_zones(
    forces: dict[str, tuple[str, list[DemoUnit]]], zones: dict[str, list[list[float]]]
) -> dict[str, list[float]]:
    """{unit name: position} that spreads each side's units evenly along its deployment
    zone, halfway into its depth, so that the pieces' names overprint neither one another
    nor the table's edge on the demo board."""
    placements = {}
    for side, (_, units) in forces.items():
        xs = [p[0] for p in zones[side]]
        ys = [p[1] for p in zones[side]]
        x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
        along_x = x1 - x0 >= y1 - y0
        for i, unit in enumerate(units):
            share = (i + 0.5) / len(units)
            placements[unit.name] = (
                [x0 + (x1 - x0) * share, (y0 + y1) / 2]
                if along_x
                else [(x0 + x1) / 2, y0 + (y1 - y0) * share]
            )
    return placements
