"""Length of a path in three dimensions.

LaserGrenadiers counts the vertical distance 1:1 (LG-D16: an assault lander starts
48" above its landing point and pays 48"); a point without z is at ground level
(z = 0). aod ignores z (aod.md 4) and measures the plain 2-D length instead.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: A path point: (x, y) or (x, y, z); z None counts as 0.
Point = Sequence[float | None]


def _coordinate(p: Point, i: int) -> float:
    value = p[i] if len(p) > i else None
    return 0.0 if value is None else float(value)


def segment_length_3d(a: Point, b: Point) -> float:
    """Straight-line distance from a to b, vertical distance counted 1:1."""
    return math.sqrt(sum((_coordinate(b, i) - _coordinate(a, i)) ** 2 for i in range(3)))


def path_length_3d(points: Sequence[Point]) -> float:
    """The sum of the 3-D lengths of the segments joining consecutive points."""
    return sum(segment_length_3d(a, b) for a, b in zip(points, points[1:], strict=False))
