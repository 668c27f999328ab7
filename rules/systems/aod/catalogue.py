"""What aod offers a player: its orders and terrain types with their labels (aod.md 6, 12).

Data only: the board and the map editor read it; the handlers judge the orders.
Eligibility here is the plain part of the `001` orders table (which unit types, which
keys they need); preconditions that depend on the position stay with the judge.
"""

from __future__ import annotations

from rules.engine import terrain_style as look
from rules.engine.catalogue import ABOARD, ActionSpec, StateMarker, TerrainKind

_MECHS = ("mech", "quad_mech", "colossal_mech")
_RUNNERS = ("mech", "quad_mech")  # Colossals may not run (001 [CCURoW])
_RAMMERS = ("wheeled", "tracked", "hover", "aquatic")  # not VTOLs (001 [27-28])
_CARRIERS = ("wheeled", "tracked", "hover", "vtol", "aquatic", *_MECHS)
_FORMATION = ("infantry", "wheeled", "tracked", "hover", "aquatic")  # no 'Mechs, no VTOLs

ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(
        "move", "Move", drag=True, unit_types=(), help="Up to its move in inches (001 [16])."
    ),
    ActionSpec(
        "run", "Run", drag=True, unit_types=_RUNNERS, help="Up to its run allowance (001 [17])."
    ),
    ActionSpec(
        "assault_half",
        "Half-speed assault",
        drag=True,
        unit_types=_MECHS,
        help="Half its move, then a ranged attack (001 [27]).",
    ),
    # The target of a close combat order is the piece the drag ends in base contact with.
    ActionSpec(
        "ram",
        "Ram",
        keys=("target",),
        unit_types=_RAMMERS,
        drag=True,
        target_keys=("target",),
        help="Drag into base contact with an opposing unit (001 [27-28]).",
    ),
    ActionSpec(
        "charge",
        "Charge",
        keys=("target",),
        unit_types=_RUNNERS,
        drag=True,
        target_keys=("target",),
        help="Run into base contact with an opposing unit (001 [27-28]).",
    ),
    ActionSpec(
        "dfa",
        "Death from Above",
        keys=("target",),
        unit_types=_MECHS,
        needs=("jump_jets",),
        drag=True,
        target_keys=("target",),
        help="Jump onto an opposing unit; a failed attack lets it spin (001 [27-28]).",
    ),
    ActionSpec(
        "assault_full",
        "Full-speed assault",
        keys=("target",),
        unit_types=_MECHS,
        drag=True,
        target_keys=("target",),
        help="Move into base contact with an opposing unit (001 [27]).",
    ),
    ActionSpec(
        "board",
        "Board",
        keys=("passengers",),
        unit_types=_CARRIERS,
        needs=("capacity",),
        unit_list_keys=("passengers",),
        help="Take passengers aboard (click each), then move half: drag the "
        "transport, or click it to stay (000 [18]).",
    ),
    # `unload` ("after", the default, or "before" the move) is the engine's option; the
    # board sets the passengers down where the transport stands (001 [19]).
    ActionSpec(
        "disembark",
        "Disembark",
        keys=("passengers", "unload"),
        unit_types=_CARRIERS,
        needs=("capacity",),
        placement_keys=("passengers",),
        help="Set the passengers down at the rear: click where each goes (001 [18-19]).",
    ),
    ActionSpec(
        "formation_move",
        "Formation move",
        keys=("moves",),
        unit_types=_FORMATION,
        group=True,
        help="3 to 5 touching units move as one order (000 [29]): Shift-click them, then drag one.",
    ),
    ActionSpec(
        "capture",
        "Capture",
        keys=("target",),
        path="none",
        unit_types=("infantry",),
        unit_keys=("target",),
        help="Infantry on foot take an opposing unit in contact captive (001 [26]).",
    ),
    ActionSpec(
        "vent",
        "Vent",
        path="none",
        unit_types=_MECHS,
        at_once=True,
        help="Stand and vent heat; counts as an order (001 [22]).",
    ),
    ActionSpec(
        "free_spin",
        "Free spin",
        path="turn",
        help="Turn in place when entitled (Q/E or the handle, then Enter); not an "
        "order (000 FREE SPINS).",
    ),
)

TERRAIN_KINDS: tuple[TerrainKind, ...] = (
    TerrainKind("clear", "Clear terrain", style=look.OPEN_GROUND),
    TerrainKind(
        "hindering",
        "Hindering terrain",
        sight="hinders",
        help="A unit entering it from clear must stop (000 [32]).",
        style=look.LIGHT_WOODS,
    ),
    TerrainKind(
        "blocking",
        "Blocking terrain",
        sight="blocks",
        help="No unit may enter it (000 [33]).",
        style=look.BLOCKING,
    ),
    TerrainKind(
        "shallow_water",
        "Shallow water",
        help="Hindering for most units (6.1).",
        style=look.SHALLOW_WATER,
    ),
    TerrainKind(
        "deep_water", "Deep water", help="Prohibited to most units (6.1).", style=look.DEEP_WATER
    ),
    TerrainKind(
        "elevated",
        "Elevated terrain",
        keys=("height",),
        help="Stop on climbing it or leaving it (000 [33]).",
        style=look.HILL,
    ),
    TerrainKind(
        "abrupt_elevated",
        "Abrupt elevated terrain",
        keys=("height", "access"),
        sight="blocks",
        help="Entered only by jump jets or at its access segments (000 [34]).",
        style=look.CLIFF,
    ),
)

#: What a piece shows of its state (rules/engine/markers.py), in the order drawn.
STATE_MARKERS: tuple[StateMarker, ...] = (
    StateMarker(
        "ordered",
        "ordered",
        source="state",
        help="Given an order this turn (001 [1], orders table).",
    ),
    StateMarker(
        "shutdown", "shut down", help="Shut down: attacks on it hit automatically (000 [16-17])."
    ),
    StateMarker(
        "captive_of", "captive", help="A captive: neither friendly nor opposing (001 [26])."
    ),
    StateMarker("evade", "evading", help="Evading (000 [17])."),
    StateMarker(
        "altitude",
        "altitude",
        values=(("cruising", "cruising"),),
        help="A VTOL at cruising altitude.",
    ),
    ABOARD,
)
