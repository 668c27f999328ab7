"""A spatial index (shapely STRtree) of features with prepared geometries.

Built once per immutable GameState and cached on it, so that queries on a board
with many features only look at the few near the moving base.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, TypeVar

import numpy as np
import shapely
from shapely.strtree import STRtree

T = TypeVar("T")

#: Up to this many features a numpy scan of bounding boxes beats building and
#: querying an STRtree from Python; beyond it the tree is used.
SCAN_LIMIT = 150


class FeatureIndex(Generic[T]):
    def __init__(self, items: Sequence[T], geoms: Sequence[Any], kinds: Sequence[str]) -> None:
        self.items = list(items)
        self.geoms = list(geoms)
        self.kinds = list(kinds)
        for g in self.geoms:
            shapely.prepare(g)
        self.tree = STRtree(self.geoms) if len(self.geoms) > SCAN_LIMIT else None
        boxes = (
            shapely.bounds(np.array(self.geoms, dtype=object)) if self.geoms else np.zeros((0, 4))
        )
        self._scan(boxes)

    @classmethod
    def of_bounds(
        cls, items: Sequence[T], shapes: Sequence[Any], kinds: Sequence[str]
    ) -> FeatureIndex[T]:
        """An index of at most SCAN_LIMIT features read from their shapes' `bounds` alone
        (bases' bodies, say): nothing made or prepared; `near` gives the shapes."""
        assert len(items) <= SCAN_LIMIT, "a tree of more features needs their geometries"
        index = cls.__new__(cls)
        index.items, index.geoms, index.kinds = list(items), list(shapes), list(kinds)
        index.tree = None
        index._scan(np.array([s.bounds for s in shapes], dtype=float).reshape(-1, 4))
        return index

    def _scan(self, boxes: Any) -> None:
        # Contiguous columns: the scan below is four comparisons on them.
        self._minx, self._miny, self._maxx, self._maxy = (
            np.ascontiguousarray(boxes[:, k]) for k in range(4)
        )

    def query_box(self, minx: float, miny: float, maxx: float, maxy: float) -> list[int]:
        """Indexes (ascending) of features whose bounding boxes meet the box."""
        if not self.items:
            return []
        if self.tree is not None:
            return sorted(self.tree.query(shapely.box(minx, miny, maxx, maxy)).tolist())
        hit = (self._minx <= maxx) & (self._maxx >= minx)
        hit &= self._miny <= maxy
        hit &= self._maxy >= miny
        return list(hit.nonzero()[0].tolist())

    def query(self, geom: Any, distance: float = 0.0) -> list[int]:
        """Indexes of features whose bounding boxes come within `distance` of geom."""
        minx, miny, maxx, maxy = geom.bounds
        return self.query_box(minx - distance, miny - distance, maxx + distance, maxy + distance)

    def near(self, geom: Any, distance: float = 0.0) -> list[tuple[T, Any, str]]:
        """(item, geometry, kind) of the features near geom (a geometry or a Body)."""
        return [(self.items[i], self.geoms[i], self.kinds[i]) for i in self.query(geom, distance)]
