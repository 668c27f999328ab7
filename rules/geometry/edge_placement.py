"""A base at a polygon's edge: does it face the polygon, and where does it stand once
moved across that edge to lie inside, still touching it?

mswars's Climb reads it so (002 Climb Action, MSW-D23): the unit faces the feature when
the direction from its centre to the feature's nearest point lies within +-45 degrees of
its facing; it is then moved inward, perpendicular to the contacted edge, to the nearest
pose where the base lies entirely inside the polygon and touches that edge.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from shapely.geometry import Point
from shapely.ops import nearest_points

from rules.geometry.bases import body_at
from rules.geometry.direction import angle_between, bearing
from rules.geometry.intervals import polygon_edges
from rules.geometry.tolerance import OVERLAP
from rules.model.state import BaseShape


def faces_polygon(x: float, y: float, facing: float, polygon: Any, half_arc: float = 45.0) -> bool:
    """The polygon's nearest point lies within +-half_arc degrees of the facing."""
    q = nearest_points(polygon.boundary, Point(x, y))[0]
    return angle_between(bearing(q.x - x, q.y - y), facing) <= half_arc + 1e-6


def inside_across_edge(
    base: BaseShape, x: float, y: float, facing: float, polygon: Any
) -> tuple[float, float] | None:
    """The centre moved inward, perpendicular to the edge nearest it, until the base lies
    inside touching that edge (facing kept); None if the base does not fit there."""
    e = polygon_edges(polygon)
    x0, y0, x1, y1 = e[:, 0], e[:, 1], e[:, 2], e[:, 3]
    ex, ey = x1 - x0, y1 - y0
    length2 = np.maximum(ex * ex + ey * ey, 1e-300)
    u = np.clip(((x - x0) * ex + (y - y0) * ey) / length2, 0, 1)
    px, py = x0 + ex * u - x, y0 + ey * u - y
    gap = np.hypot(px, py)
    # The nearest edge; at a corner, the edge that faces the centre most squarely.
    squareness = np.abs(ex * px + ey * py) / np.sqrt(length2)
    k = int(np.lexsort((squareness, np.round(gap, 9)))[0])
    length = math.sqrt(length2[k])
    nx, ny = -ey[k] / length, ex[k] / length
    mx, my = (x0[k] + x1[k]) / 2, (y0[k] + y1[k]) / 2
    if not polygon.contains(Point(mx + nx * 1e-4, my + ny * 1e-4)):
        nx, ny = -nx, -ny  # (nx, ny) points inward
    if base.is_circle:
        extent = base.diameter / 2
    else:  # half the rect's extent across the edge
        phi = math.radians(facing) - math.atan2(ny, nx)
        extent = base.length / 2 * abs(math.cos(phi)) + base.width / 2 * abs(math.sin(phi))
    outside = (x - x0[k]) * -nx + (y - y0[k]) * -ny
    cx, cy = x + (outside + extent) * nx, y + (outside + extent) * ny
    if not polygon.contains(body_at(base, cx, cy, facing, OVERLAP).polygon()):
        return None
    return (cx, cy)
