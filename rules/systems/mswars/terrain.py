"""How one unit sees the terrain: its cost column, each feature's row for its size class,
elevated features (002 cost table, 002 Terrain; mswars.md sections 2-4)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from shapely.geometry import Point

from rules.engine.position import Position
from rules.engine.pricing import TerrainAlong
from rules.geometry.direction import BACKWARD, FORWARD, SIDEWAYS, travel_direction
from rules.model.errors import InvalidActionError
from rules.model.state import Point2, Terrain, Unit
from rules.systems.mswars.tables import (
    COLUMNS,
    COST_PER_INCH,
    HEIGHT_MAX_BY_SIZE_CLASS,
    ROWS,
    SIDEWAYS_TYPES,
    SIZE_CLASS_TERRAIN,
)

ELEVATED = "elevated"


@dataclass(frozen=True)
class Options:
    """The table options (MSW-D41): hover's column and the size-class terrain table."""

    hover_column: str = "track"
    size_class_terrain: Mapping[str, tuple[str, str, str]] = field(
        default_factory=lambda: dict(SIZE_CLASS_TERRAIN)
    )


#: What a GM may set, for the set-up form (rules/engine/system.py `table_option_schema`);
#: `parse_options` judges the values (MSW-D41).
OPTION_SCHEMA: dict[str, dict[str, Any]] = {
    "hover_column": {
        "type": "string",
        "enum": list(COLUMNS),
        "default": "track",
        "label": "Hover's cost column",
        "description": "the cost table's column hover uses (MSW-D1)",
    },
    "size_class_terrain": {
        "type": "grid",
        "shape": "list",
        "rows": list(SIZE_CLASS_TERRAIN),
        "columns": ["Size Class 0", "Size Class 1 to 3", "Size Class 4 or more"],
        "cells": list(ROWS),
        "default": {k: list(v) for k, v in SIZE_CLASS_TERRAIN.items()},
        "label": "Terrain by size class",
        "description": "how each named feature counts for each size class (MSW-D30)",
    },
}


def parse_options(raw: Mapping[str, Any], key: str = "table.options") -> Options:
    unknown = set(raw) - {"hover_column", "size_class_terrain"}
    if unknown:
        raise InvalidActionError(f"{key}.{sorted(unknown)[0]}", "unknown mswars table option")
    column = raw.get("hover_column", "track")
    if column not in COLUMNS:
        raise InvalidActionError(f"{key}.hover_column", f"expected one of {', '.join(COLUMNS)}")
    table = dict(SIZE_CLASS_TERRAIN)
    given = raw.get("size_class_terrain", {})
    if not isinstance(given, dict):
        raise InvalidActionError(f"{key}.size_class_terrain", "expected an object")
    for feature, rows in given.items():
        k = f"{key}.size_class_terrain.{feature}"
        if feature not in SIZE_CLASS_TERRAIN:
            raise InvalidActionError(k, f"unknown feature; known: {', '.join(SIZE_CLASS_TERRAIN)}")
        if not isinstance(rows, list) or len(rows) != 3 or any(r not in ROWS for r in rows):
            raise InvalidActionError(
                k, f"expected three rows (SC 0, SC 1-3, SC 4+) from {', '.join(ROWS)}"
            )
        table[feature] = (rows[0], rows[1], rows[2])
    return Options(column, table)


def size_class_for_height(height: float) -> int | None:
    """The smallest size class whose maximum height is >= height (None over 8")."""
    return next((sc for sc, top in HEIGHT_MAX_BY_SIZE_CLASS if height <= top + 1e-9), None)


def elevated_size_class(t: Terrain) -> int:
    """`size_class` if given, else from `height` (002 Terrain); taller than 8" needs an
    explicit size class (MSW-D15)."""
    if t.size_class is not None:
        return t.size_class
    if t.height is None:
        raise InvalidActionError(
            f"terrain {t.id}", "elevated terrain needs a height or a size_class"
        )
    found = size_class_for_height(t.height)
    if found is None:
        raise InvalidActionError(
            f"terrain {t.id}.height",
            f'{t.height}" is over 8": the seed\'s height table stops there, give a size_class',
        )
    return found


def unit_size_class(unit: Unit) -> int:
    sc = unit.get("size_class", 0)
    return int(sc) if isinstance(sc, int | float) else 0


def is_infantry(unit: Unit) -> bool:
    return unit.flag("infantry")


def move_type(unit: Unit) -> str:
    """Infantry without a move type walk (MSW-D2, MSW-D49)."""
    return "walker" if unit.type == "" else unit.type


def opposing(a: Unit, b: Unit) -> bool:
    return a.side != b.side


class MswarsPosition(Position):
    """The kernel's position data plus mswars's options and elevated size classes."""

    @cached_property
    def options(self) -> Options:
        return parse_options(self.state.table.options)

    @cached_property
    def elevated_classes(self) -> dict[str, int]:
        """SC of every elevated feature (raises InvalidActionError when one has none)."""
        return {t.id: elevated_size_class(t) for t in self.state.terrain if t.type == ELEVATED}

    @property
    def malformed(self) -> InvalidActionError | None:
        """Why the terrain is malformed (an elevated feature over 8" without a size class,
        MSW-D15), or None: then no unit may act, and nothing is offered or shaded."""
        try:
            self.elevated_classes  # noqa: B018
        except InvalidActionError as err:
            return err
        return None

    def view(self, unit: Unit) -> UnitView:
        return self.unit_view(unit, UnitView)


class UnitView:
    """The terrain as one unit sees it; also the kernel's Pricing hooks for its paths."""

    def __init__(self, position: MswarsPosition, unit: Unit) -> None:
        self.position = position
        self.unit = unit
        self.type = move_type(unit)
        options = position.options
        self.column = options.hover_column if self.type == "hover" else self.type
        self.size_class = unit_size_class(unit)
        self._rows: dict[str, str] = {}

    @property
    def immobile(self) -> bool:
        """Static units, and hovers given the static column (MSW-D41), cannot move: "0"
        means set up there but not move (002 cost table, 002 Turning)."""
        return self.column == "static"

    # -- rows and rates ---------------------------------------------------------
    def row(self, t: Terrain) -> str:
        """The cost-table row of a feature for this unit, or "elevated"."""
        if t.id not in self._rows:
            self._rows[t.id] = self._row(t)
        return self._rows[t.id]

    def _row(self, t: Terrain) -> str:
        if t.type == ELEVATED:
            # Quarter rule (MSW-D16): strictly less than a quarter, real division.
            if self.position.elevated_classes[t.id] < self.size_class / 4:
                return "very_difficult"
            return ELEVATED
        named = self.position.options.size_class_terrain.get(t.type)
        if named is not None:
            return named[0 if self.size_class == 0 else 1 if self.size_class <= 3 else 2]
        return t.type

    def rate_of_row(self, row: str) -> float | None:
        # The top of elevated terrain counts as Flat Ground (MSW-D24).
        return COST_PER_INCH["flat" if row == ELEVATED else row][self.column]

    def rate(self, t: Terrain | None) -> float | None:
        return self.rate_of_row("flat" if t is None else self.row(t))

    def rank(self, t: Terrain) -> float:
        """Overlap precedence: the most expensive row, "Can't" above every number; an
        elevated top lies under whatever lies on it (MSW-D4, MSW-D24)."""
        if self.row(t) == ELEVATED:
            return -1.0
        r = self.rate(t)
        return math.inf if r is None else r

    def near(self, minx: float, miny: float, maxx: float, maxy: float) -> list[tuple[Terrain, Any]]:
        ts = self.position.state.terrain
        found = self.position.terrain.query_box(minx, miny, maxx, maxy)
        return [(ts[i], ts[i].shape) for i in found]

    def elevated(self) -> list[Terrain]:
        return [
            t for t in self.position.state.terrain if t.type == ELEVATED and self.row(t) == ELEVATED
        ]

    def top_under(self, xy: Point2) -> Terrain | None:
        """The elevated feature whose polygon holds the centre (the unit is on top)."""
        for t in self.elevated():
            if t.shape.intersects(Point(xy)):
                return t
        return None

    def name(self, t: Terrain | None) -> str:
        if t is None:
            return "flat ground"
        row = self.row(t).replace("_", " ")
        return f"{t.id} ({t.type}: {row})" if row != t.type.replace("_", " ") else f"{t.id} ({row})"

    # -- the kernel's TerrainRates hooks -----------------------------------------
    def along(self, bounds: tuple[float, float, float, float]) -> TerrainAlong:
        """The pricing hooks for a path within `bounds` (one index query for the path)."""
        return TerrainAlong(self, self.near(*bounds))

    def rate_at(self, x: float, y: float) -> tuple[float | None, str]:
        return self.along((x, y, x, y)).rate_at(x, y)

    def direction(self, facing: float, dx: float, dy: float) -> tuple[float, bool, str]:
        """Backwards at double the cost (002 Rules: Movement); sideways too, for the move
        types of the Specials row only (MSW-D33)."""
        d = travel_direction(facing, dx, dy)
        sideways = (2.0, self.type in SIDEWAYS_TYPES)
        factor, allowed = {FORWARD: (1.0, True), BACKWARD: (2.0, True), SIDEWAYS: sideways}.get(
            d, (1.0, False)
        )
        return factor, allowed, d

    def turn_cost(self, angle: float, rate: float, free: float) -> float:
        """Each turn of up to 45 degrees costs 1" of the terrain, half turns half; infantry
        turn 90 degrees per inch (002 Turning, MSW-D6); `free` degrees are free (MSW-D7)."""
        step = 45.0 if is_infantry(self.unit) else 22.5
        rest = max(0.0, abs(angle) - free)
        return rate * 0.5 * math.ceil(rest / step - 1e-9)
