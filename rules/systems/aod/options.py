"""aod table options (`table.options`) and the movement matrix as data (6.1, AOD-D1)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.model.errors import InvalidActionError

TERRAIN_TYPES = (
    "clear",
    "hindering",
    "blocking",
    "shallow_water",
    "deep_water",
    "elevated",
    "abrupt_elevated",
)
CELLS = frozenset({"ok", "hind", "block", "proh", "elev", "ign"})

_GROUND = {
    "clear": "ok",
    "hindering": "hind",
    "blocking": "block",
    "shallow_water": "hind",
    "deep_water": "proh",
    "elevated": "elev",
    "abrupt_elevated": "elev",
}

#: Part I default matrix (aod.md 6.1). Rows are unit rows, columns terrain types.
DEFAULT_MATRIX: dict[str, dict[str, str]] = {
    "infantry": dict(_GROUND),
    "wheeled": dict(_GROUND),
    "tracked": dict(_GROUND),
    "hover": {**_GROUND, "deep_water": "hind"},
    "vtol_noe": {**_GROUND, "deep_water": "hind"},
    "vtol_cruising": {t: "ign" for t in TERRAIN_TYPES},
    # Aquatic units keep to water (AOD-D28).
    "aquatic": {
        **dict.fromkeys(TERRAIN_TYPES, "proh"),
        **{"blocking": "block", "shallow_water": "ok", "deep_water": "ok"},
    },
    "mech": dict(_GROUND),
    "quad_mech": dict(_GROUND),
    "colossal_mech": {**_GROUND, "deep_water": "hind"},
}
#: Row-name aliases accepted in a `terrain_matrix` option.
ROW_ALIASES = {
    "foot": "infantry",
    "vtol@noe": "vtol_noe",
    "vtol@cruising": "vtol_cruising",
    "vtol": "vtol_noe",
}
COLUMN_ALIASES = {"elevated/abrupt_elevated": ("elevated", "abrupt_elevated")}

#: Most restrictive first, for units that must respect two rows (captor + captive).
CELL_PRIORITY = ("block", "proh", "elev", "hind", "ok", "ign")


@dataclass(frozen=True)
class AodOptions:
    matrix: Mapping[str, Mapping[str, str]] = field(default_factory=lambda: DEFAULT_MATRIX)
    hindering_entry: str = "contact"
    run_multiplier: float = 1.0
    orders_from_points: bool = True

    def cell(self, rows: tuple[str, ...], terrain_type: str) -> str:
        cells = [self.matrix.get(r, {}).get(terrain_type, "ok") for r in rows]
        return min(cells, key=CELL_PRIORITY.index)


def parse_options(raw: Mapping[str, Any], key: str = "table.options") -> AodOptions:
    for k in raw:
        if k not in OPTION_SCHEMA:
            raise InvalidActionError(f"{key}.{k}", "unknown aod table option")
    matrix = {r: dict(c) for r, c in DEFAULT_MATRIX.items()}
    tm = raw.get("terrain_matrix", {})
    if not isinstance(tm, dict):
        raise InvalidActionError(f"{key}.terrain_matrix", "expected an object")
    for row_name, cols in tm.items():
        row = ROW_ALIASES.get(row_name, row_name)
        if row not in matrix or not isinstance(cols, dict):
            raise InvalidActionError(
                f"{key}.terrain_matrix.{row_name}", "unknown row or not an object"
            )
        for col, cell in cols.items():
            targets = COLUMN_ALIASES.get(col, (col,))
            if any(t not in TERRAIN_TYPES for t in targets) or cell not in CELLS:
                raise InvalidActionError(
                    f"{key}.terrain_matrix.{row_name}.{col}",
                    f"expected a terrain type and one of {sorted(CELLS)}",
                )
            for t in targets:
                matrix[row][t] = cell
    entry = raw.get("hindering_entry", "contact")
    if entry not in ("contact", "centre", "center"):
        raise InvalidActionError(f"{key}.hindering_entry", 'expected "contact" or "centre"')
    mult = raw.get("run_multiplier", 1.0)
    if isinstance(mult, bool) or not isinstance(mult, int | float) or mult <= 0:
        raise InvalidActionError(f"{key}.run_multiplier", "expected a positive number")
    ofp = raw.get("orders_from_points", True)
    if not isinstance(ofp, bool):
        raise InvalidActionError(f"{key}.orders_from_points", "expected true or false")
    return AodOptions(
        matrix=matrix,
        hindering_entry="centre" if entry != "contact" else entry,
        run_multiplier=float(mult),
        orders_from_points=ofp,
    )


#: What a GM may set, for the set-up form (rules/engine/system.py `table_option_schema`);
#: `parse_options` judges the values.
OPTION_SCHEMA: dict[str, dict[str, Any]] = {
    "hindering_entry": {
        "type": "string",
        "enum": ["contact", "centre"],
        "default": "contact",
        "labels": {"contact": "First contact of the base", "centre": "The base's centre"},
        "label": "Entering hindering terrain",
        "description": "when a unit enters (AOD-D3)",
    },
    "run_multiplier": {
        "type": "number",
        "exclusiveMinimum": 0,
        "default": 1.0,
        "label": "Run multiplier",
        "description": "run allowance = move x this, where a unit gives no run_move (AOD-D2)",
    },
    "orders_from_points": {
        "type": "boolean",
        "default": True,
        "label": "Orders from points",
        "description": "a side's orders are its points / 150, rounded up (AOD-D22)",
    },
    "terrain_matrix": {
        "type": "grid",
        "shape": "object",
        "rows": list(DEFAULT_MATRIX),
        "columns": list(TERRAIN_TYPES),
        "cells": ["ok", "hind", "block", "proh", "elev", "ign"],
        "labels": {
            "ok": "open",
            "hind": "hindering",
            "block": "blocking",
            "proh": "prohibited",
            "elev": "elevated",
            "ign": "ignored",
            "vtol_noe": "VTOL, nap of the earth",
            "vtol_cruising": "VTOL, cruising",
        },
        "default": DEFAULT_MATRIX,
        "label": "Movement matrix",
        "description": "what each movement type may enter (6.1, AOD-D1)",
    },
}
