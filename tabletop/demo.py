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


def _terrain(*rows: tuple) -> list[dict]:
    """Terrain features from rows (id, type, where[, other keys]); `where` is a rectangle
    (x0, y0, x1, y1) or the polygon's points."""
    features = []
    for name, kind, where, *more in rows:
        polygon = _rect(*where) if isinstance(where, tuple) else where
        features.append({"id": name, "type": kind, "polygon": polygon, **(more[0] if more else {})})
    return features


def _force(roster: str, *rows: tuple[str, str, int, dict]) -> tuple[str, list[DemoUnit]]:
    """A roster's name and its units from rows (name, unit type, points, stats)."""
    return roster, [DemoUnit(name, kind, stats, points) for name, kind, points, stats in rows]


_MECH_BASE = {"shape": "circle", "diameter": 1.75}
_INFANTRY_BASE = {"shape": "circle", "diameter": 1.25}
_VEHICLE_BASE = {"shape": "rect", "width": 1.5, "length": 2.5}
_WALKER_BASE = {"shape": "circle", "diameter": 2.0}
_HEAVY_WALKER_BASE = {"shape": "circle", "diameter": 2.5}
_QUADRUPED_BASE = {"shape": "rect", "width": 2.0, "length": 3.0}
_TRACK_BASE = {"shape": "rect", "width": 2.0, "length": 3.0}
_HOVER_BASE = {"shape": "rect", "width": 1.75, "length": 2.75}
_SOLDIER_BASE = {"shape": "circle", "diameter": 1.0}
#: An M.S. Wars pilot who fights hand to hand with free hands (002 Combat Manoeuvres).
_DUELLIST = {"skills": ["combat_manoeuvres"], "free_hands": True}


def _msw(move: int, size_class: int, base: dict, **more: object) -> dict:
    """An M.S. Wars unit's stats: Move in MP, its size class and base (002 Movement)."""
    return {"move": move, "size_class": size_class, "base": base, **more}


#: M.S. Wars infantry: they walk (MSW-D2) and turn 90 degrees for an inch (002 Turning).
_MSW_INFANTRY = _msw(4, 0, _INFANTRY_BASE, infantry=True, free_hands=True)


def _lg(move: int, base: dict, **more: object) -> dict:
    """A LaserGrenadiers piece's stats: its rate in inches and its base (003 Movement)."""
    return {"move": move, "base": base, **more}


def _soldier(psq: int, ins: int, stance: str = "standing", **more: object) -> dict:
    """An action-point skirmish soldier: 3 AP a round (APS-D22), its two stats."""
    base = more.pop("base", _SOLDIER_BASE)
    return {"base": base, **more, "stance": stance, "ap_max": 3, "stats": {"PSQ": psq, "INS": ins}}


DEMO_SYSTEMS: dict[str, DemoSystem] = {
    "aod": DemoSystem(
        campaign="Demo: the Battle of Kearny Ridge",
        width=36,
        height=36,
        terrain=_terrain(
            ("W1", "hindering", (6, 14, 12, 20)),
            ("B1", "blocking", (16, 16, 20, 20)),
            ("R1", "elevated", (25, 13, 31, 19)),
            ("L1", "shallow_water", (14, 24, 22, 27)),
            ("D1", "deep_water", (2, 24, 6, 28)),
        ),
        forces={
            "P1": _force(
                "Republic strike lance",
                ("Atlas", "mech", 180, {"move": 8, "base": _MECH_BASE, "points": 180}),
                (
                    "Shadow Hawk",
                    "mech",
                    120,
                    {"move": 10, "base": _MECH_BASE, "jump_jets": True, "points": 120},
                ),
                (
                    "Republic Standard Infantry",
                    "infantry",
                    30,
                    {"move": 6, "base": _INFANTRY_BASE, "points": 30},
                ),
            ),
            "P2": _force(
                "Steel Wolves pack",
                ("Ryoken", "mech", 150, {"move": 12, "base": _MECH_BASE, "points": 150}),
                ("Heavy tank", "tracked", 80, {"move": 8, "base": _VEHICLE_BASE, "points": 80}),
                (
                    "Hover APC",
                    "hover",
                    60,
                    {"move": 14, "base": _VEHICLE_BASE, "capacity": 3, "points": 60},
                ),
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
        terrain=_terrain(
            ("Landing Pad", "flat", (40, 9, 46, 13)),
            ("Broken Fields", "rough", (3, 20, 12, 26)),
            ("Mud Flats", "difficult", (26, 8, 34, 12)),
            ("Scree", "very_difficult", (37, 16, 41, 22)),
            ("Reed Bank", "shallow_water", (22, 14, 26, 20)),
            ("The Mere", "deep_water", (15, 14, 22, 20)),
            ("Harrow Wood", "woodland", (3, 9, 12, 17)),
            ("Mill River", "river", [[17, 20], [21, 20], [23, 29], [19, 29]]),
            ("Harrow Tor", "elevated", (30, 16, 36, 22), {"height": 3.0}),
        ),
        forces={
            "P1": _force(
                "Harrow Flats garrison",
                ("Warden", "walker", 120, _msw(6, 3, _WALKER_BASE, **_DUELLIST)),
                ("Bulwark", "four_legged_walker", 150, _msw(5, 4, _QUADRUPED_BASE, skills=[])),
                ("Rampart carrier", "track", 60, _msw(6, 2, _TRACK_BASE, carrier=2)),
                ("Harrow militia", "walker", 30, _MSW_INFANTRY),
            ),
            "P2": _force(
                "Mobius raiders",
                ("Talon", "walker", 130, _msw(7, 3, _WALKER_BASE, **_DUELLIST)),
                ("Goliath", "walker", 170, _msw(5, 5, _HEAVY_WALKER_BASE, skills=[])),
                ("Skiff", "hover", 70, _msw(10, 2, _HOVER_BASE, carrier=2)),
                ("Raider squad", "walker", 30, _MSW_INFANTRY),
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
        terrain=_terrain(
            ("Wall west", "obstacle", (0, 14, 5, 14.5), {"height": 1.0}),
            ("Wall centre", "obstacle", (7, 14, 13, 14.5), {"height": 1.0}),
            ("Wall east", "obstacle", (15.5, 14, 22, 14.5), {"height": 1.0}),
            ("Wall end", "obstacle", (26, 14, 30, 14.5), {"height": 1.0}),
            ("Crate", "obstacle", (10, 19, 12, 21), {"height": 0.5}),
            ("Rubble", "rough", (2, 8, 8, 11)),
            ("Scrap heaps", "rough", (18, 17, 24, 21)),
            ("Yard floor", "open", (12, 4, 18, 8)),
        ),
        forces={
            "P1": _force(
                "Relay Yard salvagers",
                ("Kell", "soldier", 30, _soldier(6, 5)),
                ("Brannock", "soldier", 30, _soldier(5, 6)),
                ("Ivo", "soldier", 30, _soldier(5, 5)),
            ),
            "P2": _force(
                "The Scavenger and its handlers",
                # A large synthetic unit: its own move per AP (APS-D14).
                (
                    "The Scavenger",
                    "soldier",
                    120,
                    _soldier(7, 3, base={"shape": "circle", "diameter": 3.0}, move=4),
                ),
                ("Handler", "soldier", 30, _soldier(5, 6, stance="crouching")),
            ),
        },
        # Each salvager faces a gap in the wall: Kell gap B beyond the Rubble, Brannock
        # gap C across the yard floor, Ivo gap D; the Scavenger waits behind gap D, the
        # only one its base passes (004 Size Restrictions), its handler to the west.
        placements={
            "Kell": [6.0, 4.5],
            "Brannock": [14.25, 4.5],
            "Ivo": [24.0, 4.5],
            "The Scavenger": [24.0, 26.0],
            "Handler": [12.0, 26.0],
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
        terrain=_terrain(
            ("Vell river west", "river", (0, 17, 22, 19)),
            ("Vell river east", "river", (25, 17, 48, 19)),
            ("Vell bridge", "bridge", (22, 16.5, 25, 19.5)),
            ("South road", "road", (22, 6.5, 25, 16.5)),
            ("North road", "road", (22, 19.5, 25, 29.5)),
            ("Vell ford", "ford", (36, 16.5, 40, 19.5)),
            ("Hollow wood", "vegetation", (4, 9, 12, 14)),
            ("Wet fields", "soft", (40, 8, 46, 12)),
            ("Signal hill", "slope", (8, 21, 16, 27), {"uphill": 90.0}),
            (
                "Pump house",
                "building",
                (30, 22, 35, 27),
                {"height": 3.0, "vehicle_access": False},
            ),
        ),
        forces={
            "P1": _force(
                "Hammer Company",
                # The seed's grav tank: 36" straight ahead (003 Ground vehicle movement).
                ("Grav tank", "grav", 120, _lg(36, _TRACK_BASE, armored=True, size=6)),
                # A 24" carrier with room for two pieces (003 Transport, LG-D29).
                ("Carrier", "tracked", 60, _lg(24, _TRACK_BASE, capacity=2, size=5)),
                ("Troopers", "foot", 30, _lg(6, _INFANTRY_BASE)),
                ("Jetpack squad", "jetpack", 40, _lg(24, _INFANTRY_BASE)),
            ),
            "P2": _force(
                "Vell Militia",
                # Damaged once: its rate is reduced to 12 (003 Damaged a, LG-D10).
                (
                    "Armoured car",
                    "wheeled",
                    60,
                    _lg(18, _VEHICLE_BASE, armored=True, size=4, damage_levels=1, current_rate=12),
                ),
                ("Hover tank", "hover", 100, _lg(30, _HOVER_BASE, armored=True, size=5)),
                # Crewed and moving at its full 6" (003 Crew-served weapon 2).
                ("Laser team", "crew_weapon", 40, _lg(6, _INFANTRY_BASE, full_crew=True)),
                ("Militia", "foot", 30, _lg(6, _INFANTRY_BASE)),
            ),
        },
        # Hammer Company's carrier at the foot of the south road with the troopers in base
        # contact on its west side, so that they may load at once (003 Transport 1,
        # lasergrenadiers.md 9: a piece loads only in base contact); the jetpacks face the
        # ford. The militia hold the north road, the pump house and the ford's far bank.
        placements={
            "Grav tank": [10.0, 3.0],
            "Carrier": [23.5, 3.5],
            "Troopers": [21.87, 3.5],
            "Jetpack squad": [38.0, 3.0],
            "Militia": [10.0, 33.0],
            "Armoured car": [23.5, 33.0],
            "Laser team": [32.0, 33.0],
            "Hover tank": [41.0, 33.0],
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
