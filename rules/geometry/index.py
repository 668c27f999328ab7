"""A spatial index (shapely STRtree) of features with prepared geometries.

Built once per immutable GameState and cached on it, so that queries on a board
with many features only look at the few near the moving base.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, TypeVar

import shapely
from shapely.strtree import STRtree

T = TypeVar("T")


class FeatureIndex(Generic[T]):
    def __init__(self, items: Sequence[T], geoms: Sequence[Any], kinds: Sequence[str]) -> None:
        self.items = list(items)
        self.geoms = list(geoms)
        self.kinds = list(kinds)
        for g in self.geoms:
            shapely.prepare(g)
        self.tree = STRtree(self.geoms) if self.geoms else None

    def query(self, geom: Any, distance: float = 0.0) -> list[int]:
        """Indexes of features whose bounding boxes come within `distance` of geom."""
        if self.tree is None:
            return []
        if distance > 0:
            minx, miny, maxx, maxy = geom.bounds
            geom = shapely.box(minx - distance, miny - distance, maxx + distance,
                               maxy + distance)
        return sorted(int(i) for i in self.tree.query(geom))

    def near(self, geom: Any, distance: float = 0.0) -> list[tuple[T, Any, str]]:
        return [(self.items[i], self.geoms[i], self.kinds[i]) for i in self.query(geom, distance)]
