"""Straight edges as arrays: the boundary segments of polygons, and where rays (or
segments) meet the lines through them. The cones (cones.py), the stars of free space
(visibility.py) and the crossings of a segment (intervals.py) share this maths."""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely


def ring_segments(geom: Any) -> Any:
    """Every ring's segments of the polygons of `geom`, as an (n, 4) array
    [x0, y0, x1, y1] ((0, 4) where it has none)."""
    rows = [
        np.hstack([c[:-1], c[1:]])
        for g in getattr(geom, "geoms", [geom])
        if not g.is_empty
        for ring in [g.exterior, *g.interiors]
        for c in [shapely.get_coordinates(ring)]
    ]
    return np.vstack(rows) if rows else np.zeros((0, 4))


def ray_crossings(wx: Any, wy: Any, ex: Any, ey: Any, dx: Any, dy: Any) -> tuple[Any, Any, Any]:
    """Where rays from an origin along (dx, dy) meet the lines of segments starting at
    (wx, wy) from the origin along (ex, ey), arrays broadcast: (t, along the ray in units
    of (dx, dy); u, along the segment, 0 at its start and 1 at its end; the denominator,
    0 where they are parallel)."""
    den = dx * ey - dy * ex
    with np.errstate(divide="ignore", invalid="ignore"):
        return (wx * ey - wy * ex) / den, (wx * dy - wy * dx) / den, den
