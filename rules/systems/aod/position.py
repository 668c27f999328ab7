"""Per-position data for aod: the kernel's `Position` plus aod's options and water."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import shapely
from shapely.geometry.base import BaseGeometry

from rules.engine.position import Position
from rules.geometry.occupancy import occupies
from rules.model.state import Terrain
from rules.systems.aod.options import AodOptions, parse_options


@dataclass(frozen=True)
class AodPosition(Position):
    """The kernel's position data plus aod's table options and water."""

    @cached_property
    def options(self) -> AodOptions:
        return parse_options(self.state.table.options)

    @cached_property
    def has_water(self) -> bool:
        return any(t.type in ("shallow_water", "deep_water") for t in self.state.terrain)

    def occupied(self, x: float, y: float, types: tuple[str, ...]) -> list[Terrain]:
        """The features of these types that the centre dot at (x, y) occupies: inside the
        polygon or on its boundary (000 [32], AOD-D18)."""
        near = self.terrain.query_box(x - 0.01, y - 0.01, x + 0.01, y + 0.01)
        found = [self.state.terrain[i] for i in near]
        return [t for t in found if t.type in types and occupies(t.shape, x, y)]

    def forbidden_to(self, rows: tuple[str, ...]) -> Callable[[Terrain], bool]:
        """Terrain a unit of these matrix rows may not stand in: blocking and prohibited
        cells (6.3, AOD-D44), the placement check's `forbidden`."""
        return lambda t: self.options.cell(rows, t.type) in ("block", "proh")

    def water_union(self, rows: tuple[str, ...]) -> BaseGeometry:
        """Where a unit whose row prohibits clear may be: the features it may enter
        (aquatic: the water polygons, AOD-D28)."""

        def union() -> BaseGeometry:
            polys = [
                t.shape
                for t in self.state.terrain
                if self.options.cell(rows, t.type) not in ("block", "proh")
            ]
            return shapely.union_all(polys) if polys else shapely.Polygon()

        # Of the terrain and the table's options alone: once per map (a map's geometry
        # is kept per system, table and terrain, rules/model/map_geometry.py).
        return self.state.map_memo(f"aod.water.{'|'.join(rows)}", union)


#: The position of a state as aod reads it, made once per state (the kernel's memo).
aod_position = AodPosition.of
