"""The front point of a base and the line between two front points.

The action-point skirmish game measures a move from the old front to the new front
(APS-D15): a circle base's front is centre + (d/2)(cos f, sin f), a rect base's is
centre + (length/2)(cos f, sin f), f being the facing. Turning in place moves the
front, so a turn costs the distance its front travels (APS-D4); the same line
decides rough terrain and obstacle crossing (APS-D8).
"""

from __future__ import annotations

import math

from shapely.geometry import LineString, Point

from rules.model.state import BaseShape


def front_point(base: BaseShape, x: float, y: float, facing: float) -> tuple[float, float]:
    """The middle of the base's front at a pose (facing in degrees)."""
    reach = base.diameter / 2 if base.is_circle else base.length / 2
    a = math.radians(facing)
    return (x + reach * math.cos(a), y + reach * math.sin(a))


def front_line(
    base: BaseShape, start: tuple[float, float, float], end: tuple[float, float, float]
) -> LineString | Point:
    """The line of movement from the front at `start` to the front at `end`, each pose
    (x, y, facing); a Point when the front does not move."""
    a = front_point(base, *start)
    b = front_point(base, *end)
    if math.dist(a, b) == 0.0:
        return Point(a)
    return LineString([a, b])


def front_distance(
    base: BaseShape, start: tuple[float, float, float], end: tuple[float, float, float]
) -> float:
    """The measured distance of a move: how far the front travels (APS-D15, APS-D4)."""
    return math.dist(front_point(base, *start), front_point(base, *end))
