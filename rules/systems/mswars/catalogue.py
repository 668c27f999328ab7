"""What mswars offers the board and the roster editor: actions, terrain kinds, unit schema."""

from __future__ import annotations

from typing import Any

from rules.engine import terrain_style as look
from rules.engine.catalogue import ABOARD, ActionSpec, StateMarker, TerrainKind
from rules.engine.unit_schema import base_field, unit_schema
from rules.systems.mswars.tables import ACTIONS as ACTION_TABLE
from rules.systems.mswars.tables import MOVE_TYPES, SIZE_CLASS_TERRAIN

#: Picked on the board (002 Enter Unit, 002 Carrier Unloading Action): a unit in base
#: contact enters the carrier clicked, with no path; a carrier that stays sets down the
#: units aboard where clicked (the engine wants its rear). Others stay the drag's.
#: A unit aboard exits at the rear of the carrier selected, where clicked (002 Unit Exiting).
_UNIT_KEYS = {"enter_unit": ("carrier",)}
_PLACEMENT_KEYS = {"carrier_unloading": ("unload",), "unit_exiting": ("placement",)}
#: A charge's target is the piece the drag ends in contact with (002 Charge); a jump is
#: dragged off the top (002 Jump Action); a climb goes on one press, onto the elevated
#: terrain the unit touches and faces, its place on top the engine's (002 Climb Action).
_TARGET_KEYS = {"charge": ("target",)}
_DRAG = {"jump"}
_AT_ONCE = {"climb"}
#: Every move type moves only ahead, back or (walkers) sideways: a diagonal leg needs the
#: turn to face it first, which a move may include (002 Turning, MSW-D5, MSW-D7).
_FACES = tuple(MOVE_TYPES)

ACTIONS: tuple[ActionSpec, ...] = tuple(
    ActionSpec(
        t,
        row.label,
        row.keys,
        row.path,
        "MP",
        row.drag or t in _DRAG,
        f"{row.help} AC {row.ac}.",
        unit_keys=_UNIT_KEYS.get(t, ()),
        placement_keys=_PLACEMENT_KEYS.get(t, ()),
        target_keys=_TARGET_KEYS.get(t, ()),
        at_once=t in _AT_ONCE,
        from_aboard=t == "unit_exiting",
        faces_each_leg=_FACES if row.path == "free" else (),
    )
    for t, row in ACTION_TABLE.items()
)

#: The cost table's rows (002 cost table), elevated terrain, and the named features, whose
#: row depends on the unit's size class (002 Terrain): (label, sight, style), by terrain
#: type, in the order of tables.py.
#: Sight is what each type does to the board's line-of-sight tool. Not in the seed: 002 is
#: the movement post and says nothing of sight, so this is what a player would expect.
#: Hills and elevated terrain stand in the way; woodland, rubble and walls hide part of
#: what is behind them; open ground, water and the plain cost rows (which say how hard
#: the going is, not how tall) hide nothing. Style is how the board and the report draw
#: each type (rules/engine/terrain_style.py).
_KINDS: dict[str, tuple[str, str, look.TerrainStyle]] = {
    "flat": ("Flat Ground", "", look.OPEN_GROUND),
    "difficult": ("Difficult Terrain", "", look.DIFFICULT),
    "very_difficult": ("Very Difficult Terrain", "", look.VERY_DIFFICULT),
    "rough": ("Rough Ground", "", look.ROUGH),
    "shallow_water": ("Shallow Water", "", look.SHALLOW_WATER),
    "deep_water": ("Deep Water", "", look.DEEP_WATER),
    "elevated": ("Elevated terrain", "blocks", look.HILL),
    "woodland": ("Woodland / Forest / Jungle", "hinders", look.WOODS),
    "river": ("River / Lake", "", look.RUNNING_WATER),
    "pond": ("Pond", "", look.RUNNING_WATER),
    "fields": ("Fields / Barren Ground", "", look.TerrainStyle("#e3d98f", "horizontal")),
    "desert": ("Desert", "", look.TerrainStyle("#ead9a6", "dots")),
    "hills": ("Hills", "blocks", look.HILL),
    "rubble": ("Building Rubble", "hinders", look.TerrainStyle("#9a8f84", "cross")),
    "small_walls": ("Small Walls and Fences", "hinders", look.LOW_OBSTACLE),
}
_HELP = {
    "elevated": 'Size class from its height (8" at most) unless given; climb on, jump off.',
    **dict.fromkeys(SIZE_CLASS_TERRAIN, "Its row depends on the unit's size class."),
}

TERRAIN_KINDS: tuple[TerrainKind, ...] = tuple(
    TerrainKind(
        t,
        label,
        ("height", "size_class") if t == "elevated" else (),
        help=_HELP.get(t, ""),
        sight=sight,
        style=style,
    )
    for t, (label, sight, style) in _KINDS.items()
)

UNIT_SCHEMA: dict[str, Any] = unit_schema(
    "mswars",
    {
        "type": {
            "type": "string",
            "enum": list(MOVE_TYPES),
            "description": "move type",
            # What players read (the roster form); else the key as words.
            "labels": {"four_legged_walker": "Four-legged walker"},
        },
        "move": {
            "type": "number",
            "minimum": 0,
            "default": 6,
            "description": "Move value, movement points (MP)",
        },
        # A walker's round base; the roster catalogue offers the others per move type.
        "base": base_field(
            {"shape": "circle", "diameter": 2.0},
            {
                "hover": {"shape": "rect", "width": 1.75, "length": 2.75},
                **{
                    t: {"shape": "rect", "width": 2.0, "length": 3.0}
                    for t in ("four_legged_walker", "track", "wheel")
                },
            },
        ),
        "size_class": {"type": "integer", "minimum": 0, "description": "SC"},
        "infantry": {"type": "boolean", "description": "turns 90 degrees per inch"},
        "skills": {
            "type": "array",
            "items": {"type": "string", "maxLength": 200},
            "description": 'e.g. "combat_manoeuvres"',
        },
        "carrier": {"type": "number", "minimum": 0, "description": "units it can carry"},
        "free_hands": {"type": "boolean", "description": "two free hands or claws (Climb)"},
        "used_weapon": {"type": "boolean"},
        "action_points": {
            "type": "number",
            "minimum": 0,
            "description": "AP per turn (refilled at the turn change)",
        },
        "ap": {"type": "number", "minimum": 0, "description": "AP per turn (same as above)"},
        "name": {"type": "string", "maxLength": 200},
        "fallen": {
            "type": "string",
            "enum": ["this_turn", "straighten"],
            "readOnly": True,
            "description": "table state: fell this turn / must straighten up",
        },
        "pinned": {"type": "boolean", "readOnly": True, "description": "table state (MSW-D11)"},
        "charge_target": {
            "type": "string",
            "maxLength": 200,
            "readOnly": True,
            "description": "table state: last charge",
        },
    },
    required=("move", "base"),
    # Only infantry may go without a move type: they walk (MSW-D49).
    conditions=(
        {
            "if": {"not": {"properties": {"infantry": {"const": True}}, "required": ["infantry"]}},
            "then": {"required": ["type"]},
        },
    ),
)

#: What a unit shows of its state (rules/engine/markers.py), in the order drawn.
STATE_MARKERS: tuple[StateMarker, ...] = (
    StateMarker(
        "actions_taken",
        "moved",
        source="state",
        help="Has made a move action this turn (mswars.md, state.actions_taken).",
    ),
    StateMarker(
        "fallen",
        "fallen",
        values=(("this_turn", "fallen"), ("straighten", "fallen")),
        help="Fallen: it must straighten up (002).",
    ),
    StateMarker("pinned", "pinned", help="Pinned (002)."),
    ABOARD,
)
