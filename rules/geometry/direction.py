"""Direction of travel of a straight segment relative to the facing of the base that makes it.

Systems that price or forbid moves by direction (forward, backward, sideways) read a
segment as one of those when its bearing lies within a tolerance of the facing, the
facing + 180 or the facing +-90 (contract: "within 1 degree; anything else is diagonal").
"""

from __future__ import annotations

import math

FORWARD = "forward"
BACKWARD = "backward"
SIDEWAYS = "sideways"
DIAGONAL = "diagonal"

#: Degrees either side of an axis that still count as that axis (contract ACTION).
DIRECTION_TOLERANCE = 1.0


def bearing(dx: float, dy: float) -> float:
    """Degrees counter-clockwise from +x, in [0, 360)."""
    return math.degrees(math.atan2(dy, dx)) % 360.0


def angle_between(a: float, b: float) -> float:
    """Unsigned smallest difference of two bearings, in [0, 180]."""
    d = (a - b) % 360.0
    return min(d, 360.0 - d)


def travel_direction(
    facing: float, dx: float, dy: float, tolerance: float = DIRECTION_TOLERANCE
) -> str:
    """forward, backward, sideways or diagonal for a move by (dx, dy) facing `facing`."""
    off = angle_between(bearing(dx, dy), facing)
    if off <= tolerance:
        return FORWARD
    if off >= 180.0 - tolerance:
        return BACKWARD
    if abs(off - 90.0) <= tolerance:
        return SIDEWAYS
    return DIAGONAL
