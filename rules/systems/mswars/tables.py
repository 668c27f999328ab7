"""The seed's tables as data (002 cost table, 002 Terrain, 002 Move Actions)."""

from __future__ import annotations

CANT = None  # "Can't": the unit cannot be in, or move through, that terrain (002 cost table)

MOVE_TYPES = ("walker", "four_legged_walker", "track", "wheel", "hover", "static")
#: Columns of the cost table; hover borrows one (table option `hover_column`, MSW-D1).
COLUMNS = ("walker", "four_legged_walker", "track", "wheel", "static")
ROWS = ("flat", "difficult", "very_difficult", "rough", "shallow_water", "deep_water")

#: Cost per inch: row -> column -> MP (CANT: may not be there). On/In Deep Water are one
#: row (MSW-D20); "Standard Ground" is Flat Ground (MSW-D3).
COST_PER_INCH: dict[str, dict[str, float | None]] = {
    "flat":           {"walker": 1, "four_legged_walker": 1, "track": 1, "wheel": 1,
                       "static": 0},
    "difficult":      {"walker": 2, "four_legged_walker": 1, "track": 2, "wheel": 4,
                       "static": 0},
    "very_difficult": {"walker": 4, "four_legged_walker": 2, "track": CANT, "wheel": CANT,
                       "static": CANT},
    "rough":          {"walker": 1, "four_legged_walker": 1, "track": 1, "wheel": 2,
                       "static": 0},
    "shallow_water":  {"walker": 4, "four_legged_walker": 4, "track": 4, "wheel": 4,
                       "static": 0},
    "deep_water":     {"walker": 4, "four_legged_walker": CANT, "track": CANT, "wheel": CANT,
                       "static": 0},
}

#: Named features by the unit's size class: [SC 0, SC 1-3, SC 4+] (002 Terrain, MSW-D30).
SIZE_CLASS_TERRAIN: dict[str, tuple[str, str, str]] = {
    "woodland":    ("difficult", "very_difficult", "very_difficult"),
    "river":       ("deep_water", "very_difficult", "difficult"),
    "pond":        ("very_difficult", "flat", "flat"),
    "fields":      ("flat", "flat", "flat"),
    "desert":      ("flat", "difficult", "very_difficult"),
    "hills":       ("difficult", "very_difficult", "very_difficult"),
    "rubble":      ("difficult", "very_difficult", "difficult"),
    "small_walls": ("very_difficult", "flat", "flat"),
}

#: Elevated terrain: the maximum height (inches, inclusive) of each size class (002 Terrain).
HEIGHT_MAX_BY_SIZE_CLASS: tuple[tuple[int, float], ...] = (
    (0, 1.5), (1, 2.5), (2, 4.0), (3, 5.0), (4, 6.5), (5, 8.0))

TERRAIN_TYPES = frozenset(ROWS) | frozenset(SIZE_CLASS_TERRAIN) | {"elevated"}

#: Jump: the highest feature (its SC) a unit may jump from is its own SC minus this
#: (002 Jump Action; MSW-D44: the move type decides). Static may not jump.
JUMP_MARGIN: dict[str, int] = {"wheel": 2, "track": 2, "hover": 1, "walker": 0,
                               "four_legged_walker": 0}

#: Free rotation per Movement Phase, degrees (002 Turning).
FREE_TURN: dict[str, float] = {"walker": 90.0, "four_legged_walker": 45.0}

#: Types that may move sideways, at the backward factor (cost table "Specials", MSW-D33).
SIDEWAYS_TYPES = frozenset({"walker", "four_legged_walker"})
#: Types whose base a small friendly unit may pass through (002 Rules: Movement, MSW-D8).
PASSABLE_TYPES = frozenset({"walker", "four_legged_walker", "hover"})
#: "Mecha" for Climb (MSW-D23).
MECHA_TYPES = frozenset({"walker", "four_legged_walker"})

#: Action Cost (AC) of each move action (002 Move Actions).
ACTION_COST: dict[str, int] = {
    "standard_move": 1, "run": 2, "climb": 2, "break_away": 1, "jump": 1, "manoeuvre": 1,
    "enter_unit": 1, "carrier_unloading": 1, "unit_exiting": 1, "charge": 2}

#: The MP allowance of each action: "move", "double" (run, charge: over move, at most
#: twice), "half" (move / 2, exact, MSW-D21) or "none" (climb spends no MP).
ALLOWANCE_KIND: dict[str, str] = {
    "standard_move": "move", "run": "double", "climb": "none", "break_away": "move",
    "jump": "move", "manoeuvre": "half", "enter_unit": "half", "carrier_unloading": "half",
    "unit_exiting": "half", "charge": "double"}

#: Seed sections, as the notes cite them.
CITE: dict[str, str] = {
    "standard_move": "002 Standard Move Action", "run": "002 Move Actions: Run",
    "climb": "002 Climb Action", "break_away": "002 Break Away Action",
    "jump": "002 Jump Action", "manoeuvre": "002 Manoeuvre Action",
    "enter_unit": "002 Enter Unit", "carrier_unloading": "002 Carrier Unloading Action",
    "unit_exiting": "002 Unit Exiting", "charge": "002 Charge Move Action"}

LABEL: dict[str, str] = {
    "standard_move": "Standard Move", "run": "Run", "climb": "Climb",
    "break_away": "Break Away", "jump": "Jump", "manoeuvre": "Manoeuvre",
    "enter_unit": "Enter Unit", "carrier_unloading": "Carrier Unloading",
    "unit_exiting": "Unit Exiting", "charge": "Charge"}

#: Actions allowed to a unit in base contact with an opposing unit (002 Move Actions).
IN_CONTACT_ACTIONS = frozenset({"break_away", "manoeuvre"})
#: Actions that count as a run for the phase rules (MSW-D12).
RUN_LIKE = frozenset({"run", "charge"})
#: Carrier restrictions after a unit entered or left it this phase (002 Enter Unit).
CARRIER_ACTIONS = frozenset({"enter_unit", "unit_exiting"})
