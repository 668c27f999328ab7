"""The aod unit schema published for rosters (what a unit profile may contain)."""

from __future__ import annotations

from typing import Any

from rules.systems.aod.units import UNIT_TYPES

UNIT_SCHEMA: dict[str, Any] = {
    "system": "aod",
    "fields": {
        "type": {"type": "string", "enum": sorted(UNIT_TYPES), "required": True},
        "move": {"type": "number", "minimum": 0, "required": True, "default": 8,
                 "suggested": {"infantry": 6},
                 "description": "speed value on the dial, inches"},
        "base": {"type": "object", "required": True,
                 "default": {"shape": "circle", "diameter": 1.75},  # a mech's hex base
                 # The web side's roster catalogue offers these per unit type.
                 "suggested": {
                     "infantry": {"shape": "circle", "diameter": 1.25},
                     **{t: {"shape": "rect", "width": 1.5, "length": 2.5}
                        for t in ("aquatic", "hover", "tracked", "wheeled")}},
                 "oneOf": [{"shape": "circle", "diameter": {"type": "number", "minimum": 0}},
                           {"shape": "rect", "width": {"type": "number", "minimum": 0},
                            "length": {"type": "number", "minimum": 0}}]},
        "faction": {"type": "string", "description": "\"Mercenary\" joins any faction"},
        "points": {"type": "number", "minimum": 0, "description": "150 pts = 1 order"},
        "jump_jets": {"type": "boolean"},
        "evade": {"type": "boolean"},
        "grapple": {"type": "boolean"},
        "shutdown": {"type": "boolean"},
        "salvage": {"type": "boolean"},
        "capacity": {"type": "integer", "minimum": 0,
                     "description": "transport capacity (infantry 1, vehicle 3)"},
        "altitude": {"type": "string", "enum": ["noe", "cruising"], "for": ["vtol"]},
        "infantry_mode": {"type": "string", "enum": ["foot", "wheeled", "tracked", "hover"],
                          "for": ["infantry"]},
        "run_move": {"type": "number", "minimum": 0, "description": "run allowance (AOD-D2)"},
        "attack": {"type": "number", "description": "attack value (DFA needs > 0)"},
        "order_tokens": {"type": "integer", "minimum": 0, "maximum": 2},
        "captive_of": {"type": "string", "description": "id of the captor (table state)"},
    },
}
