"""What lasergrenadiers offers the board, the map editor and the roster editor: actions,
terrain kinds and the unit schema (lasergrenadiers.md 2, 6, 12)."""

from __future__ import annotations

from typing import Any

from rules.engine import terrain_style as look
from rules.engine.catalogue import (
    ABOARD,
    ActionSpec,
    ActionVariant,
    StateMarker,
    TerrainKind,
    VerdictNote,
)
from rules.engine.unit_schema import base_field, unit_schema
from rules.systems.lasergrenadiers.tables import (
    ADVANCED_RATES,
    ALTITUDE_LIMITS,
    BASIC_RATES,
    FACTORS,
    INFANTRY_RATES,
    UNIT_TYPES,
    VEHICLES,
)

_BOARDERS = tuple(t for t in UNIT_TYPES if t not in VEHICLES)
#: Pieces that may leave the ground (003 Altitude limits, lasergrenadiers.md 7): their
#: `move`, `overrun` and `enter_board` paths take z; surface pieces stay at z = 0.
_FLYING = tuple(t for t, limit in ALTITUDE_LIMITS.items() if limit != 0)
#: Tracked and wheeled pieces may not slide (LG-D12): a diagonal leg needs a turn to face
#: it first, paid from the allowance (003 Turning).
_FACES = tuple(t for t, f in FACTORS.items() if f.sideways is None)

ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(
        "move",
        "Move",
        drag=True,
        help="Up to the rate left; turns cost a fraction of the rate. (003 Movement)",
        path_z=_FLYING,
        faces_each_leg=_FACES,
    ),
    # A piece in base contact boards the carrier clicked, with no approach path; a
    # vehicle's variant takes aboard pieces already in contact (`passengers` by id)
    # without moving: click the pieces, then the vehicle (lasergrenadiers.md 9).
    ActionSpec(
        "load",
        "Load",
        ("carrier", "passengers"),
        help="Board a vehicle in base contact: one-third of both allowances. (003 Transport 1)",
        unit_types=_BOARDERS,
        unit_keys=("carrier",),
        variants=(
            ActionVariant(VEHICLES, path="none", unit_keys=(), unit_list_keys=("passengers",)),
        ),
    ),
    # The vehicle sets its passengers down where clicked (lasergrenadiers.md 9).
    ActionSpec(
        "unload",
        "Unload",
        ("passengers",),
        "placement",
        help="Set pieces down in contact with the vehicle: one-third of both allowances. "
        "(003 Transport 1)",
        unit_types=VEHICLES,
        placement_keys=("passengers",),
    ),
    # Dragged: the `target` is the piece its path passes over (003 Overrun).
    ActionSpec(
        "overrun",
        "Overrun",
        ("target",),
        drag=True,
        help="Run into and over a piece three sizes smaller: 3x cost over it. "
        "(003 Overrun attacks)",
        unit_types=VEHICLES,
        needs=("armored",),
        target_keys=("target",),
        path_z=_FLYING,
        faces_each_leg=_FACES,
    ),
    # Dragged from the entry area on its edge (003 Off-board movement).
    ActionSpec(
        "enter_board",
        "Enter the board",
        drag=True,
        help="From the entry area on a table edge, or descending from above. "
        "(003 Off-board movement)",
        path_z=_FLYING,
        faces_each_leg=_FACES,
    ),
)

#: Looks of its own where the engine's common ones do not fit (rules/engine/terrain_style.py).
_BRIDGE = look.TerrainStyle("#bfae8f", "horizontal")
_ANTITANK = look.TerrainStyle("#6e5a4a", "cross")
_STAIRS = look.TerrainStyle("#7a7e85", "steps")
_LADDER = look.TerrainStyle("#7a7e85", "vertical")

#: Each terrain type's label, look and the rule its refusals cite, and its help
#: (003 Terrain effects on movement; lasergrenadiers.md 6).
_TERRAIN_ROWS: tuple[tuple[str, str, look.TerrainStyle, str], ...] = (
    ("firm", "Firm ground", look.OPEN_GROUND, "003 Terrain 1"),
    ("soft", "Soft ground", look.SOFT, "003 Terrain 2"),
    ("slope", "Slope", look.SLOPE, "003 Terrain 3, LG-D5"),
    ("river", "River or stream", look.RUNNING_WATER, "003 Terrain 4"),
    ("lake", "Lake or pond", look.DEEP_WATER, "003 Terrain 6"),
    ("ford", "Ford", look.SHALLOW_WATER, "003 Terrain 5"),
    ("road", "Road", look.ROAD, "003 Terrain 7"),
    ("bridge", "Bridge", _BRIDGE, "003 Terrain 8"),
    ("vegetation", "Vegetation", look.LIGHT_WOODS, "003 Terrain 9, LG-D6"),
    ("dense_vegetation", "Dense vegetation", look.DENSE_WOODS, "003 Terrain 9, LG-D18"),
    ("low_obstacle", "Low obstacle", look.LOW_OBSTACLE, "003 Terrain 10"),
    ("high_wall", "High wall", look.HIGH_WALL, "003 Terrain 10a, LG-D7"),
    ("antitank_obstacle", "Antitank obstacle", _ANTITANK, "003 Terrain 10b, LG-D19"),
    ("building", "Building interior", look.BLOCKING, "003 Terrain 11, LG-D20"),
    ("stairs", "Stairs", _STAIRS, "003 Terrain 12, LG-D20"),
    ("ladder", "Ladder", _LADDER, "003 Terrain 13"),
)
_TERRAIN_HELP = {
    "firm": "Normal movement for all (003 Terrain 1).",
    "soft": "Halved for foot, tracked, walker, wheeled.",
    "slope": "Halved going uphill (bearing within 90 degrees of `uphill`) for all "
    "but grav, thruster, gravpack and jetpack (LG-D5).",
    "river": "Crossed only at a bridge or ford; halved for amphibious pieces.",
    "lake": "As for a river.",
    "ford": "Overrides a river; halved for foot and ground vehicles.",
    "road": "Doubled for foot and ground vehicles; a wet unpaved road is soft.",
    "bridge": "As for road; overrides a river.",
    "vegetation": "Halved for all (LG-D6).",
    "dense_vegetation": "Impassable (table option `dense_vegetation`, LG-D18).",
    "low_obstacle": "Halved but for grav, thruster, gravpack and jetpack.",
    "high_wall": "Only thruster vehicles and jetpack troops pass (LG-D7).",
    "antitank_obstacle": "Impassable to tracked and wheeled; else as a low obstacle (LG-D19).",
    "building": "Doubled for foot; vehicles need `vehicle_access`; rubble uses the "
    "table option `rubble_multiplier` (LG-D20).",
    "stairs": "Halved for foot; vehicles need `vehicle_access` (LG-D20).",
    "ladder": "Infantry only: tripled on foot, normal with gravpacks (003 Terrain 13).",
}
#: The keys a feature may carry; a slope must say which way is uphill (LG-D5).
_TERRAIN_KEYS = {
    "slope": ("uphill",),
    "road": ("wet",),
    "building": ("height", "vehicle_access", "rubble"),
    "stairs": ("height", "vehicle_access"),
    **dict.fromkeys(("low_obstacle", "high_wall", "antitank_obstacle", "ladder"), ("height",)),
}
_SIGHT = {
    "vegetation": "hinders",
    **dict.fromkeys(("dense_vegetation", "high_wall", "building"), "blocks"),
}
TERRAIN_KINDS: tuple[TerrainKind, ...] = tuple(
    TerrainKind(
        t,
        label,
        _TERRAIN_KEYS.get(t, ()),
        ("uphill",) if t == "slope" else (),
        _TERRAIN_HELP[t],
        _SIGHT.get(t, ""),
        style,
    )
    for t, label, style, _ in _TERRAIN_ROWS
)
TERRAIN_CITES = {t: cite for t, _, _, cite in _TERRAIN_ROWS}

UNIT_SCHEMA: dict[str, Any] = unit_schema(
    "lasergrenadiers",
    {
        "type": {
            "type": "string",
            "enum": list(UNIT_TYPES),
            "description": "movement type",
        },
        "move": {
            "type": "number",
            "minimum": 0,
            "description": "the original movement rate, inches",
            "suggested": {**INFANTRY_RATES, **BASIC_RATES},
            "advanced": {t: list(r) for t, r in ADVANCED_RATES.items()},
        },
        "base": base_field({"shape": "circle", "diameter": 1.0}),  # a figure's round base
        "name": {"type": "string", "maxLength": 200},
        "damage_levels": {
            "type": "integer",
            "minimum": 0,
            "maximum": 2,
            "description": "movement reduced by damage (vehicles)",
        },
        "current_rate": {
            "type": "number",
            "minimum": 0,
            "description": "the reduced rate of a damaged vehicle",
        },
        "amphibious": {"type": "boolean"},
        "dual_drivers": {"type": "boolean", "description": "front and rear driver positions"},
        "jointed": {"type": "boolean", "description": "moves sideways freely"},
        "armored": {"type": "boolean", "description": "may overrun"},
        "size": {"type": "integer", "minimum": 0, "description": "size class"},
        "full_crew": {
            "type": "boolean",
            "for": ["crew_weapon"],
            "description": "without it, half speed",
        },
        "aircraft": {"type": "boolean", "description": "helicopter, hoverjet, hoverprop"},
        "capacity": {"type": "integer", "minimum": 0, "description": "pieces it carries"},
        "foxhole": {"type": "boolean", "for": list(_BOARDERS)},
    },
    required=("type", "move", "base"),
)

#: How fast the piece has moved this turn, turning included (stationary, slow, moderate,
#: fast): every verdict says it (scenario-format.md, lasergrenadiers: "verdict adds
#: `speed_band`"), the band fire at it and its own fire use.
SPEED_BAND = VerdictNote(
    "speed_band",
    "Speed band",
    help="Its speed band for fire this turn (003 Movement and fire).",
)
VERDICT_NOTES: tuple[VerdictNote, ...] = (SPEED_BAND,)

#: What a piece shows of its state (rules/engine/markers.py), in the order drawn; its
#: speed band is worked out from the allowance spent (LaserGrenadiersSystem.markers).
STATE_MARKERS: tuple[StateMarker, ...] = (
    StateMarker(
        "activated", "activated", source="state", help="Has activated this turn (003 Movement)."
    ),
    StateMarker(
        "damage_levels",
        "damaged",
        values=((1, "damaged"), (2, "badly damaged")),
        help="Damaged vehicle: its rate is capped (003 Damaged a).",
    ),
    ABOARD,
)
