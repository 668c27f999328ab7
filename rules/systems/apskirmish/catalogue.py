"""What apskirmish offers the board and the roster editor: actions, terrain kinds, the
unit schema (apskirmish.md 2, 4, 5; scenario-format.md, apskirmish vocabulary)."""

from __future__ import annotations

from typing import Any

from rules.engine import terrain_style as look
from rules.engine.catalogue import ABOARD, ActionSpec, StateMarker, TerrainKind
from rules.engine.unit_schema import base_field, unit_schema
from rules.systems.apskirmish.tables import ACTIONS as ACTION_TABLE
from rules.systems.apskirmish.tables import STANCE_MOVE, UNIT_TYPES

ACTIONS: tuple[ActionSpec, ...] = tuple(
    # The label shows the AP an action spends; its cost counts inches (the distance the
    # front moves, or the centre on a Traverse or Dodge).
    ActionSpec(
        t,
        f"{row.label} ({row.ap} AP)" if row.activates else f"{row.label} (1 AP or 1 Threshold)",
        row.keys,
        row.path,
        "in",
        row.drag,
        f"{row.help} ({row.cite})",
        # Every key of its actions is a point (a Dodge's source), picked on the board.
        point_keys=row.keys,
    )
    for t, row in ACTION_TABLE.items()
)

TERRAIN_KINDS: tuple[TerrainKind, ...] = (
    TerrainKind("open", "Open ground", help="No effect on movement.", style=look.OPEN_GROUND),
    TerrainKind(
        "rough",
        "Rough Terrain",
        help="A line of movement over it needs a Terrain roll (Normal PSQ).",
        sight="",
        style=look.ROUGH,
    ),
    TerrainKind(
        "obstacle",
        "Obstacle",
        ("height",),
        help="Movement cannot be measured across it: go around or Traverse. "
        "Height (inches) sets the Traverse difficulty.",
        sight="blocks",
        style=look.OBSTACLE,
    ),
)

UNIT_SCHEMA: dict[str, Any] = unit_schema(
    "apskirmish",
    {
        "type": {
            "type": "string",
            "enum": list(UNIT_TYPES),
            "description": "soldier",
        },
        "move": {
            "type": "number",
            "minimum": 0,
            "description": "inches per AP for a large unit; else the stance table "
            '(standing 3", crouching 2", prone 1")',
        },
        "base": base_field({"shape": "circle", "diameter": 1.0}),  # a soldier's round base
        "stance": {
            "type": "string",
            "enum": list(STANCE_MOVE),
            "description": "standing, crouching or prone",
        },
        "ap_max": {
            "type": "integer",
            "minimum": 0,
            "description": "AP per round (else the table's ap_per_round, 3)",
        },
        "stats": {
            "type": "object",
            "properties": {
                "PSQ": {"type": "integer", "minimum": 0},
                "INS": {"type": "integer", "minimum": 0},
            },
            "additionalProperties": {"type": "number"},
            "description": "Physique (Terrain rolls) and Instinct (Traverse, Dodge)",
        },
        "name": {"type": "string", "maxLength": 200},
        # Table state: what the round has left of the soldier (apskirmish.md 2, 5).
        "ap": {"type": "number", "minimum": 0, "readOnly": True, "description": "AP left"},
        "threshold": {"type": "integer", "minimum": 0, "readOnly": True},
        "activated": {"type": "boolean", "readOnly": True},
        "running": {"type": "boolean", "readOnly": True},
    },
    # A soldier may go without its (only) type, and without a move (APS-D36).
    required=("base",),
)

#: What a soldier shows of its state (rules/engine/markers.py), in the order drawn.
STATE_MARKERS: tuple[StateMarker, ...] = (
    StateMarker("activated", "activated", help="Has activated this round (004 Activation)."),
    StateMarker("running", "running", help="Ran this activation (004 Running)."),
    StateMarker(
        "stance",
        "stance",
        values=(("crouching", "crouching"), ("prone", "prone")),
        help="Its stance, where not standing (004 Standard Movement).",
    ),
    ABOARD,
)
