"""Reach: where a unit's centre can legally end, and a legal path to any such point."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shapely.geometry import Point

Path2 = list[tuple[float, float]]


@dataclass(frozen=True)
class Reach:
    unit_id: str
    action_type: str
    #: Where the centre may end (a conservative subset of the truth).
    area: Any
    allowance: float
    _path_to: Callable[[tuple[float, float]], Path2 | None]

    def contains(self, point: tuple[float, float]) -> bool:
        return bool(self.area.covers(Point(point)))

    def path_to(self, point: tuple[float, float]) -> Path2 | None:
        """A shortest legal path (start first) to `point`, or None if it is not reachable."""
        return self._path_to((float(point[0]), float(point[1])))
