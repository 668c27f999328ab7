"""A base at a pose, as a "body": a core geometry plus a radius.

A circle base is its centre point with radius r; a rect base is its polygon with
radius 0. Distance from a body to anything = distance from the core minus the
radius, so a circle is exact (no polygon approximation). `shrink` gives the body
used for overlap tests: overlap (penetration deeper than 0.01") <=> the body
shrunk by 0.01" still intersects.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from rules.model.state import BaseShape

#: A rect body keeps a vanishing radius so that "distance < 0" means "intersects".
_TINY = 1e-9
#: The radius of every rect body.
RECT_RADIUS = _TINY


class Body:
    """A core geometry and a radius. A circle keeps its centre (or a circle's sweep its
    centre polyline) as plain numbers and builds the shapely geometry only when asked:
    base-to-base distances between circles are plain arithmetic, and bounds need no
    geometry (the hot path of every move)."""

    __slots__ = ("_core", "radius", "xy", "line")

    def __init__(
        self,
        core: BaseGeometry | None,
        radius: float,
        xy: tuple[float, float] | None = None,
        line: list[tuple[float, float]] | None = None,
    ) -> None:
        self._core = core
        self.radius = radius
        self.xy = xy
        self.line = line

    @property
    def core(self) -> BaseGeometry:
        if self._core is None:
            if self.line is not None:
                self._core = LineString(self.line)
            else:
                assert self.xy is not None
                self._core = Point(self.xy)
        return self._core

    def distance(self, other: BaseGeometry | Body) -> float:
        """Signed-ish gap: > 0 apart, <= 0 touching or overlapping (exact for circles)."""
        if isinstance(other, Body):
            if self.xy is not None and other.xy is not None:
                return math.dist(self.xy, other.xy) - self.radius - other.radius
            return float(self.core.distance(other.core)) - self.radius - other.radius
        return float(self.core.distance(other)) - self.radius

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """Bounding box of the whole body (core grown by the radius)."""
        if self.xy is not None:
            x, y = self.xy
            r = self.radius
            return (x - r, y - r, x + r, y + r)
        if self.line is not None:
            xs = [p[0] for p in self.line]
            ys = [p[1] for p in self.line]
            r = self.radius
            return (min(xs) - r, min(ys) - r, max(xs) + r, max(ys) + r)
        minx, miny, maxx, maxy = self.core.bounds
        r = self.radius
        return (minx - r, miny - r, maxx + r, maxy + r)

    def polygon(self) -> BaseGeometry:
        """The body as an area (circles buffered finely), for drawing and unions."""
        if self.radius > 1e-6:
            return self.core.buffer(self.radius, quad_segs=32)
        return self.core


def rect_corners(
    x: float, y: float, facing_deg: float, width: float, length: float
) -> list[tuple[float, float]]:
    """Corners of a rect base: `length` along the facing, `width` across it."""
    a = math.radians(facing_deg)
    fx, fy = math.cos(a) * length / 2, math.sin(a) * length / 2
    sx, sy = -math.sin(a) * width / 2, math.cos(a) * width / 2
    return [
        (x + fx + sx, y + fy + sy),
        (x - fx + sx, y - fy + sy),
        (x - fx - sx, y - fy - sy),
        (x + fx - sx, y + fy - sy),
    ]


def body_at(base: BaseShape, x: float, y: float, facing: float, shrink: float = 0.0) -> Body:
    if base.is_circle:
        return Body(None, base.diameter / 2 - shrink, (float(x), float(y)))
    w = max(base.width - 2 * shrink, 1e-6)
    ln = max(base.length - 2 * shrink, 1e-6)
    return Body(Polygon(rect_corners(x, y, facing, w, ln)), _TINY)


def bodies_at(
    base: BaseShape, xs: Any, ys: Any, facings: Any, shrink: float = 0.0
) -> tuple[Any, float]:
    """Vectorised body_at: an array of core geometries and the common radius."""
    if base.is_circle:
        xs = np.asarray(xs, dtype=float)
        ys = np.asarray(ys, dtype=float)
        return shapely.points(xs, ys), base.diameter / 2 - shrink
    return shapely.polygons(rects_at(base, xs, ys, facings, shrink)), _TINY


def rects_at(base: BaseShape, xs: Any, ys: Any, facings: Any, shrink: float = 0.0) -> Any:
    """The corners of a rect base at many poses, a (n, 4, 2) array: what `bodies_at`
    builds its polygons from, so that their bounds need no polygon."""
    xs = np.asarray(xs, dtype=float)
    ys = np.asarray(ys, dtype=float)
    a = np.radians(np.asarray(facings, dtype=float))
    ln = max(base.length - 2 * shrink, 1e-6) / 2
    w = max(base.width - 2 * shrink, 1e-6) / 2
    cos, sin = np.cos(a), np.sin(a)
    fx, fy = cos * ln, sin * ln
    sx, sy = -sin * w, cos * w
    out = np.empty((len(xs), 4, 2))
    out[:, 0, 0], out[:, 1, 0] = xs + fx + sx, xs - fx + sx
    out[:, 2, 0], out[:, 3, 0] = xs - fx - sx, xs + fx - sx
    out[:, 0, 1], out[:, 1, 1] = ys + fy + sy, ys - fy + sy
    out[:, 2, 1], out[:, 3, 1] = ys - fy - sy, ys + fy - sy
    return out


def box_gaps(a: Any, b: Any) -> Any:
    """The gap between boxes (minx, miny, maxx, maxy rows of `a` against those of `b`,
    broadcast): a lower bound of the distance between anything inside them."""
    dx = np.maximum(np.maximum(b[..., 0] - a[..., 2], a[..., 0] - b[..., 2]), 0.0)
    dy = np.maximum(np.maximum(b[..., 1] - a[..., 3], a[..., 1] - b[..., 3]), 0.0)
    return np.hypot(dx, dy)
