"""Does a line of movement pass over an area, and where does it first do so?

The action-point skirmish game draws a line from the old front of a base to the new
one and asks whether it "traces over" rough terrain or crosses an obstacle
(apskirmish 004 Rough Terrain, 004 Obstacles, APS-D8). Passing over means meeting the
area's interior by more than 0.001": grazing the boundary, or running along a face,
does not count (APS-D18, APS-D32); a line that ends inside the area does. Any system
that judges a line (not a swept base) against areas can use this.
"""

from __future__ import annotations

import math
from typing import Any

from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry

#: How far into an area's interior a line must reach to pass over it (APS-D18).
PASSES_OVER = 0.001


def inner_part(area: BaseGeometry, depth: float = PASSES_OVER) -> BaseGeometry:
    """The area without the band of `depth` along its boundary."""
    return area.buffer(-depth, join_style="mitre")


def passes_over(line: LineString | Point, area: BaseGeometry, depth: float = PASSES_OVER) -> bool:
    """Whether the line meets the area's interior by more than `depth`."""
    if not line.intersects(area):
        return False
    inner = inner_part(area, depth)
    return not inner.is_empty and bool(line.intersects(inner))


def first_over(
    line: LineString | Point, area: BaseGeometry, depth: float = PASSES_OVER
) -> tuple[float, tuple[float, float]] | None:
    """(fraction of the line, point) where it first passes over the area, or None.

    The point is where the line enters the area itself (its boundary), so that a
    refusal names the face that was crossed."""
    if not passes_over(line, area, depth):
        return None
    if isinstance(line, Point):
        return 0.0, (line.x, line.y)
    part: Any = line.intersection(area)
    length = line.length
    best = min(line.project(Point(c)) for g in getattr(part, "geoms", [part]) for c in g.coords)
    p = line.interpolate(best)
    return (best / length if length else 0.0), (p.x, p.y)


def stretches_inside(points: list[tuple[float, float]], area: Any) -> list[tuple[float, float]]:
    """The stretches (path lengths from, to) of a polyline inside an area, in path order;
    a path that goes back over the same line counts each pass (lasergrenadiers 003
    Overrun 4: the part inside is one stretch)."""
    out: list[tuple[float, float]] = []
    s0 = 0.0
    for a, b in zip(points, points[1:], strict=False):
        length = math.dist(a, b)
        if length <= 1e-12:
            continue
        cut = LineString([a, b]).intersection(area)
        pieces = sorted(
            (math.dist(a, g.coords[0]), math.dist(a, g.coords[-1]))
            for g in getattr(cut, "geoms", [cut])
            if not g.is_empty and g.length > 1e-9
        )
        for u, v in pieces:
            lo, hi = s0 + min(u, v), s0 + max(u, v)
            if out and lo - out[-1][1] <= 1e-9:
                out[-1] = (out[-1][0], hi)
            else:
                out.append((lo, hi))
        s0 += length
    return out
