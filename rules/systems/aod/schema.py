"""The aod unit schema published for rosters (what a unit profile may contain)."""

from __future__ import annotations

from typing import Any

from rules.engine.unit_schema import base_field, unit_schema
from rules.systems.aod.units import UNIT_TYPES

UNIT_SCHEMA: dict[str, Any] = unit_schema(
    "aod",
    {
        "type": {
            "type": "string",
            "enum": sorted(UNIT_TYPES),
            # What players read (the roster form, the catalogue); else the key as words.
            "labels": {"vtol": "VTOL"},
        },
        "move": {
            "type": "number",
            "minimum": 0,
            "default": 8,
            "suggested": {"infantry": 6},
            "description": "speed value on the dial, inches",
        },
        # A mech's hex base; the web side's roster catalogue offers the others per type.
        "base": base_field(
            {"shape": "circle", "diameter": 1.75},
            {
                "infantry": {"shape": "circle", "diameter": 1.25},
                **{
                    t: {"shape": "rect", "width": 1.5, "length": 2.5}
                    for t in ("aquatic", "hover", "tracked", "wheeled")
                },
            },
        ),
        "faction": {
            "type": "string",
            "maxLength": 200,
            "description": '"Mercenary" joins any faction',
        },
        "points": {"type": "number", "minimum": 0, "description": "150 pts = 1 order"},
        "jump_jets": {"type": "boolean"},
        "evade": {"type": "boolean"},
        "grapple": {"type": "boolean"},
        "shutdown": {"type": "boolean"},
        "salvage": {"type": "boolean"},
        "capacity": {
            "type": "integer",
            "minimum": 0,
            "description": "transport capacity (infantry 1, vehicle 3)",
        },
        "altitude": {"type": "string", "enum": ["noe", "cruising"], "for": ["vtol"]},
        "infantry_mode": {
            "type": "string",
            "enum": ["foot", "wheeled", "tracked", "hover"],
            "for": ["infantry"],
        },
        "run_move": {"type": "number", "minimum": 0, "description": "run allowance (AOD-D2)"},
        "attack": {"type": "number", "description": "attack value (DFA needs > 0)"},
        "order_tokens": {"type": "integer", "minimum": 0, "maximum": 2},
        "captive_of": {
            "type": "string",
            "readOnly": True,  # the table sets it, not a roster
            "description": "id of the captor (table state)",
        },
    },
    required=("type", "move", "base"),
)
