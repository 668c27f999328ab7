"""What mswars offers the board and the roster editor: actions, terrain kinds, unit schema."""

from __future__ import annotations

from typing import Any

from rules.engine.catalogue import ActionSpec, TerrainKind
from rules.systems.mswars.tables import (
    ACTION_COST,
    LABEL,
    MOVE_TYPES,
    ROWS,
    SIZE_CLASS_TERRAIN,
)

#: (keys, path shape, offered when dragging, help) per action type, in the board's order.
_ACTIONS: dict[str, tuple[tuple[str, ...], str, bool, str]] = {
    "standard_move": ((), "free", True, "Up to Move MP. Turn steps alone within the free "
                      "turn cost nothing and use no action."),
    "run": ((), "free", True, "More than Move, up to twice Move MP."),
    "climb": (("target",), "placement", False, "Onto elevated terrain the unit touches and "
              "faces; no weapons this turn."),
    "break_away": ((), "free", True, "Leave base contact; adjacent enemies attack first."),
    "jump": ((), "free", False, "Off elevated terrain; one straight line after the edge."),
    "manoeuvre": ((), "free", True, "Half Move, staying in contact (Combat Manoeuvres)."),
    "enter_unit": (("carrier",), "free", False, "Half Move, then board a friendly carrier."),
    "carrier_unloading": (("unload",), "free", False, "Half Move and unload one, or stay "
                          "and unload two (infantry count half)."),
    "unit_exiting": (("placement",), "free", False, "Placed at the carrier's rear, then "
                     "half Move."),
    "charge": (("target",), "free", True, "Like a Run, ending in contact with the target."),
}

ACTIONS: tuple[ActionSpec, ...] = tuple(
    ActionSpec(t, LABEL[t], keys, path, "MP", drag, f"{help_} AC {ACTION_COST[t]}.")
    for t, (keys, path, drag, help_) in _ACTIONS.items())

_ROW_LABELS = {"flat": "Flat Ground", "rough": "Rough Ground", "difficult": "Difficult Terrain",
               "very_difficult": "Very Difficult Terrain", "shallow_water": "Shallow Water",
               "deep_water": "Deep Water"}
_FEATURE_LABELS = {"woodland": "Woodland / Forest / Jungle", "river": "River / Lake",
                   "pond": "Pond", "fields": "Fields / Barren Ground", "desert": "Desert",
                   "hills": "Hills", "rubble": "Building Rubble",
                   "small_walls": "Small Walls and Fences"}

TERRAIN_KINDS: tuple[TerrainKind, ...] = (
    *(TerrainKind(r, _ROW_LABELS[r]) for r in ROWS),
    TerrainKind("elevated", "Elevated terrain", ("height", "size_class"),
                help="Size class from its height (8\" at most) unless given; climb on, "
                "jump off."),
    *(TerrainKind(f, _FEATURE_LABELS[f], help="Its row depends on the unit's size class.")
      for f in SIZE_CLASS_TERRAIN),
)

UNIT_SCHEMA: dict[str, Any] = {
    "system": "mswars",
    "fields": {
        "type": {"type": "string", "enum": list(MOVE_TYPES), "required": True,
                 "description": "move type"},
        "move": {"type": "number", "minimum": 0, "required": True,
                 "description": "Move value, movement points (MP)"},
        "base": {"type": "object", "required": True,
                 "oneOf": [{"shape": "circle", "diameter": {"type": "number", "minimum": 0}},
                           {"shape": "rect", "width": {"type": "number", "minimum": 0},
                            "length": {"type": "number", "minimum": 0}}]},
        "size_class": {"type": "integer", "minimum": 0, "description": "SC"},
        "infantry": {"type": "boolean", "description": "turns 90 degrees per inch"},
        "skills": {"type": "array", "items": {"type": "string"},
                   "description": "e.g. \"combat_manoeuvres\""},
        "carrier": {"type": "integer", "minimum": 0, "description": "units it can carry"},
        "free_hands": {"type": "boolean", "description": "two free hands or claws (Climb)"},
        "used_weapon": {"type": "boolean"},
        "action_points": {"type": "integer", "minimum": 0,
                          "description": "AP per turn (refilled at the turn change)"},
        "name": {"type": "string"},
    },
}
