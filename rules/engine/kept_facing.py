"""A base next to the start of a rect mover that keeps its facing, as an obstacle for the
mover's centre.

The kernel keeps a centre from a base by the circle round the mover's base (`grown`),
which is conservative, but next to the start that circle may already reach over the
base, and `around_start` then lets the centre come as near as it starts: right for a
circle, not for a rect, whose corners swing into the base as the centre goes round
(aod: a rect 'Mech 0.375" from a friend, its path_to through the friend's base). While
the rect only translates, the centres where it meets the base are exactly the base
grown by the rect (a Minkowski sum), and that obstacle may come as near as the rect
itself is.
"""

from __future__ import annotations

import math
from typing import Any

import shapely
from shapely.geometry import Point

from rules.geometry.bases import Body, body_at, rect_corners
from rules.geometry.tolerance import CONTACT
from rules.model.state import Unit

#: How far inside the start the obstacle may come at most (as `around_start`'s 0.008").
SHORT = 0.008
#: Depths the rect may sink into a base it overlaps at its start, tried in turn: each is
#: under the 0.01" an overlap must exceed.
DEPTHS = (0.002, 0.004, 0.006, 0.008, 0.0095)
#: The least room left between the start and the obstacle, for its polygon's corners.
ROOM = 0.0005


def clearance(mover: Unit, body: Body, margin: float, stops: bool) -> float:
    """How far the rect is kept from `body` (negative: how deep it may sink in it):
    `margin` where it starts that far, else short of where it starts. From a base whose
    contact would stop it (`stops`, aod AOD-D6) that it does not touch yet, more than
    0.01" (no contact); one it touches where it starts may be left, kept under the 0.01"
    overlap."""
    x, y = mover.position[:2]
    gap = body_at(mover.base, x, y, mover.facing).distance(body)
    if gap > CONTACT:
        least = (gap + CONTACT) / 2 if stops else gap - SHORT
        return min(margin, max(gap - SHORT, least))
    if gap > 0:
        return gap - SHORT
    for depth in DEPTHS:
        if body_at(mover.base, x, y, mover.facing, depth).distance(body) > ROOM:
            return -depth
    return -DEPTHS[-1]  # deeper at the start: the obstacle holds it, no reach (sound)


def rect_kept_from(mover: Unit, body: Body, margin: float, stops: bool) -> Any:
    """Where the centre of the rect `mover`, keeping its facing, may not be: where its
    base grown by `clearance` (shrunk where that is negative) meets `body`. The sum of
    the two shapes (the hull of corner sums for a rect, the rect about a circle's centre)
    is grown round by the circle's radius and the clearance, with corners outside the
    arcs, as few as keep them short of the start and, where the base touches one whose
    contact stops it, close enough to the arcs that a path round them stays in contact
    (separating and touching again would stop it, AOD-D6)."""
    by = clearance(mover, body, margin, stops)
    b = mover.base
    sink = max(-by, 0.0)
    rect = rect_corners(0.0, 0.0, mover.facing, b.width - 2 * sink, b.length - 2 * sink)
    anchors = [body.xy] if body.xy is not None else list(body.core.exterior.coords)[:-1]
    core = shapely.MultiPoint([(px + dx, py + dy) for px, py in anchors for dx, dy in rect])
    core = core.convex_hull
    round_by = body.radius + max(by, 0.0)
    # How far out the corners may lie: a path along them stays within 0.01" when in touch.
    out = CONTACT - ROOM - by if stops and by < CONTACT else math.inf
    start = Point(mover.position[:2])
    quad_segs = 4
    while True:
        grow = round_by / math.cos(math.pi / (4 * quad_segs))  # the chords hold the arcs
        shape = core.buffer(grow, quad_segs)
        if (grow - round_by <= out and shape.distance(start) > ROOM) or quad_segs >= 64:
            return shape
        quad_segs *= 2
