"""The seed's tables as data (002 cost table, 002 Terrain, 002 Move Actions)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.engine import catalogue

CANT = None  # "Can't": the unit cannot be in, or move through, that terrain (002 cost table)

MOVE_TYPES = ("walker", "four_legged_walker", "track", "wheel", "hover", "static")
#: Columns of the cost table; hover borrows one (table option `hover_column`, MSW-D1).
COLUMNS = ("walker", "four_legged_walker", "track", "wheel", "static")
ROWS = ("flat", "difficult", "very_difficult", "rough", "shallow_water", "deep_water")

#: Cost per inch: row -> column -> MP (CANT: may not be there). On/In Deep Water are one
#: row (MSW-D20); "Standard Ground" is Flat Ground (MSW-D3).
COST_PER_INCH: dict[str, dict[str, float | None]] = {
    row: dict(zip(COLUMNS, costs, strict=True))
    for row, costs in {
        # walker, four_legged_walker, track, wheel, static
        "flat": (1, 1, 1, 1, 0),
        "difficult": (2, 1, 2, 4, 0),
        "very_difficult": (4, 2, CANT, CANT, CANT),
        "rough": (1, 1, 1, 2, 0),
        "shallow_water": (4, 4, 4, 4, 0),
        "deep_water": (4, CANT, CANT, CANT, 0),
    }.items()
}

#: Named features by the unit's size class: [SC 0, SC 1-3, SC 4+] (002 Terrain, MSW-D30).
SIZE_CLASS_TERRAIN: dict[str, tuple[str, str, str]] = {
    "woodland": ("difficult", "very_difficult", "very_difficult"),
    "river": ("deep_water", "very_difficult", "difficult"),
    "pond": ("very_difficult", "flat", "flat"),
    "fields": ("flat", "flat", "flat"),
    "desert": ("flat", "difficult", "very_difficult"),
    "hills": ("difficult", "very_difficult", "very_difficult"),
    "rubble": ("difficult", "very_difficult", "difficult"),
    "small_walls": ("very_difficult", "flat", "flat"),
}

#: Elevated terrain: the maximum height (inches, inclusive) of each size class (002 Terrain).
HEIGHT_MAX_BY_SIZE_CLASS: tuple[tuple[int, float], ...] = tuple(
    enumerate((1.5, 2.5, 4.0, 5.0, 6.5, 8.0))
)

TERRAIN_TYPES = frozenset(ROWS) | frozenset(SIZE_CLASS_TERRAIN) | {"elevated"}

#: Jump: the highest feature (its SC) a unit may jump from is its own SC minus this
#: (002 Jump Action; MSW-D44: the move type decides). Static may not jump.
JUMP_MARGIN: dict[str, int] = {
    "wheel": 2,
    "track": 2,
    "hover": 1,
    "walker": 0,
    "four_legged_walker": 0,
}

#: Free rotation per Movement Phase, degrees (002 Turning).
FREE_TURN: dict[str, float] = {"walker": 90.0, "four_legged_walker": 45.0}

#: Types that may move sideways, at the backward factor (cost table "Specials", MSW-D33).
SIDEWAYS_TYPES = frozenset({"walker", "four_legged_walker"})
#: Types whose base a small friendly unit may pass through (002 Rules: Movement, MSW-D8).
PASSABLE_TYPES = frozenset({"walker", "four_legged_walker", "hover"})
#: "Mecha" for Climb (MSW-D23).
MECHA_TYPES = frozenset({"walker", "four_legged_walker"})


@dataclass(frozen=True)
class ActionRow(catalogue.ActionRow):
    """One move action (002 Move Actions): the kernel's row with the Action Cost and the
    MP allowance ("move"; "double": over Move, at most twice; "half": Move / 2 exactly,
    MSW-D21; "none": no MP)."""

    ac: int = 1
    allowance: str = "move"


#: The player's line of help on each move action.
_HELP = {
    "standard_move": "Up to Move MP. Turn steps alone within the free turn cost nothing "
    "and use no action.",
    "run": "More than Move, up to twice Move MP.",
    "climb": "Onto elevated terrain the unit touches and faces; no weapons.",
    "break_away": "Leave base contact; adjacent enemies attack first.",
    "jump": "Off elevated terrain; one straight line after the edge.",
    "manoeuvre": "Half Move, staying in contact (Combat Manoeuvres).",
    "enter_unit": "Half Move, then board a friendly carrier.",
    "carrier_unloading": "Half Move and unload one, or stay and unload two (infantry count half).",
    "unit_exiting": "Placed at the carrier's rear, then half Move.",
    "charge": "Like a Run, ending in contact with the target.",
}
#: Each move action's label, rule, keys, whether a drag offers it, AC and MP allowance;
#: every path is free but a Climb's, the placement on top.
ACTIONS: dict[str, ActionRow] = {
    t: ActionRow(label, cite, keys, "placement" if t == "climb" else "free", drag, _HELP[t], ac, mp)
    for t, (label, cite, keys, drag, ac, mp) in {
        "standard_move": ("Standard Move", "002 Standard Move Action", (), True, 1, "move"),
        "run": ("Run", "002 Move Actions: Run", (), True, 2, "double"),
        "climb": ("Climb", "002 Climb Action", ("target",), False, 2, "none"),
        "break_away": ("Break Away", "002 Break Away Action", (), True, 1, "move"),
        "jump": ("Jump", "002 Jump Action", (), False, 1, "move"),
        "manoeuvre": ("Manoeuvre", "002 Manoeuvre Action", (), True, 1, "half"),
        "enter_unit": ("Enter Unit", "002 Enter Unit", ("carrier",), False, 1, "half"),
        "carrier_unloading": (
            "Carrier Unloading",
            "002 Carrier Unloading Action",
            ("unload",),
            False,
            1,
            "half",
        ),
        "unit_exiting": ("Unit Exiting", "002 Unit Exiting", ("placement",), False, 1, "half"),
        "charge": ("Charge", "002 Charge Move Action", ("target",), True, 2, "double"),
    }.items()
}
ACTION_COST = {t: row.ac for t, row in ACTIONS.items()}
LABEL = {t: row.label for t, row in ACTIONS.items()}

#: Actions allowed to a unit in base contact with an opposing unit (002 Move Actions).
IN_CONTACT_ACTIONS = frozenset({"break_away", "manoeuvre"})
#: Actions that count as a run for the phase rules (MSW-D12).
RUN_LIKE = frozenset({"run", "charge"})
#: Carrier restrictions after a unit entered or left it this phase (002 Enter Unit).
CARRIER_ACTIONS = frozenset({"enter_unit", "unit_exiting"})
