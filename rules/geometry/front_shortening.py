"""Cutting a straight move back until its front has moved a given distance.

A move measured front to front (the action-point skirmish game, 004 Standard
Movement) that must be shortened keeps its centre on the declared segment and its
final facing, and goes back along the segment until the distance between the old
front and the new one equals the allowance (APS-D17, APS-D28). With the final facing
fixed, the front at a fraction t of the segment is F(t) = C0 + t (C1 - C0) + r u(f1),
so |F(t) - F0| is the distance of a point moving on a line: a quadratic in t.
"""

from __future__ import annotations

import math

from rules.geometry.front import front_point
from rules.geometry.track import Pose
from rules.model.state import BaseShape


def fraction_at_front_distance(
    base: BaseShape, start: Pose, end: Pose, distance: float
) -> float | None:
    """The largest t in [0, 1] such that the base at start + t (end - start), facing
    `end.facing`, has its front at most `distance` from the front at `start`; None
    when no such t exists (turning in place alone moves the front further)."""
    f0 = front_point(base, start.x, start.y, start.facing)
    f_at_0 = front_point(base, start.x, start.y, end.facing)
    wx, wy = f_at_0[0] - f0[0], f_at_0[1] - f0[1]
    dx, dy = end.x - start.x, end.y - start.y
    a = dx * dx + dy * dy
    b = 2 * (dx * wx + dy * wy)
    c = wx * wx + wy * wy - distance * distance
    if a == 0.0:
        return 1.0 if c <= 1e-12 else None
    disc = b * b - 4 * a * c
    if disc < 0:
        return None
    root = math.sqrt(disc)
    t_low, t_high = (-b - root) / (2 * a), (-b + root) / (2 * a)
    if t_high < 0.0 or t_low > 1.0:
        return None
    return min(1.0, t_high)
