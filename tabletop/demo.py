"""The demo campaign's content: people, and for each game system a map and two forces.

`python manage.py demo` loads it; running it again changes nothing.
"""

from dataclasses import dataclass, field

DEMO_USERS: list[tuple[str, str, str]] = [
    # (username, password, what they are in every demo campaign)
    ("gm", "demo-gm-2026", "gm"),
    ("alice", "demo-alice-2026", "player"),
    ("bob", "demo-bob-2026", "player"),
    ("sam", "demo-sam-2026", "spectator"),
]


@dataclass(frozen=True)
class DemoUnit:
    name: str
    unit_type: str
    stats: dict
    points: int


@dataclass(frozen=True)
class DemoSystem:
    campaign: str
    width: float
    height: float
    terrain: list[dict]
    forces: dict[str, tuple[str, list[DemoUnit]]] = field(default_factory=dict)
    # Above the largest demo force, so that every demo roster is legal.
    points_limit: int = 400


def _rect(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


_MECH_BASE = {"shape": "circle", "diameter": 1.75}
_INFANTRY_BASE = {"shape": "circle", "diameter": 1.25}
_VEHICLE_BASE = {"shape": "rect", "width": 1.5, "length": 2.5}

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
}

# Each side deploys along its own table edge, 6" deep.
DEPLOYMENT_DEPTH = 6.0


def spread_along_edges(state: dict, width: float) -> dict[str, dict]:
    """Placements that spread each side's units evenly along its table edge, so that the
    pieces' names do not overprint one another on the demo board."""
    by_side: dict[str, list[dict]] = {}
    for unit in state["units"]:
        by_side.setdefault(unit["side"], []).append(unit)
    return {
        unit["id"]: {"position": [width * (i + 0.5) / len(units), unit["position"][1]]}
        for units in by_side.values()
        for i, unit in enumerate(units)
    }
