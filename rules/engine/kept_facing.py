"""A base next to the start of a mover that keeps its facing, as an obstacle for the
mover's centre.

The kernel keeps a centre from a base by the circle round the mover's base (`grown`),
which is conservative, but next to the start that circle may already reach over the
base, and `around_start` then lets the centre come as near as it starts: not for a
rect, whose corners swing into the base as the centre goes round (aod: a rect 'Mech
0.375" from a friend, its path_to through the friend's base), nor for a base whose
contact would stop the mover (a circle 0.015" from a foe may come within 0.01" of it).
While the mover only translates, the centres where it meets the base are exactly the
base grown by the mover's own base (a Minkowski sum), and that obstacle may come as near
as the mover itself is, by the rules of the contact.
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
#: How far from its start a rect touching a foe may move still touching it (AOD-D6).
LEAVING = 0.1
#: How far a rect that has left a foe it touched keeps from it: apart (over 0.01").
APART = CONTACT + 0.005


def clearance(mover: Unit, body: Body, margin: float) -> float:
    """How far the base is kept from `body` (negative: how deep it may sink in it):
    `margin` where it starts that far, else short of where it starts (still apart from
    a base it does not touch: a foe's contact, distance 0, would stop it, AOD-D6). One
    it touches where it starts may be left, kept under the 0.01" overlap."""
    x, y = mover.position[:2]
    gap = body_at(mover.base, x, y, mover.facing).distance(body)
    if gap > CONTACT:
        return min(margin, gap - SHORT)
    if gap > 0:
        return gap - SHORT
    for depth in DEPTHS:
        if body_at(mover.base, x, y, mover.facing, depth).distance(body) > ROOM:
            return -depth
    return -DEPTHS[-1]  # deeper at the start: the obstacle holds it, no reach (sound)


def kept_from(mover: Unit, body: Body, margin: float, stops: bool) -> Any:
    """Where the centre of `mover`, keeping its facing, may not be: where its base grown
    by `clearance` (shrunk where that is negative) meets `body`.

    From a base whose contact stops it (`stops`, AOD-D6) and that it touches where it
    starts, it may move away but not touch it again: going round it, a path could
    separate and come back (round another obstacle's corner beside it). So within
    LEAVING of the start it may keep in contact (the polygon's corners then lie within
    0.01" of the arcs), and beyond that it stays more than 0.01" from the base."""
    by = clearance(mover, body, margin)
    start = Point(mover.position[:2])
    if not stops or by >= CONTACT:  # apart where it starts: `clearance` keeps it so
        return _summed(mover, body, by, start, math.inf)
    near = _summed(mover, body, by, start, CONTACT - ROOM - by)
    apart = _summed(mover, body, APART, None, math.inf)
    return shapely.union_all([near, apart.difference(start.buffer(LEAVING))])


def _summed(mover: Unit, body: Body, by: float, start: Point | None, out: float) -> Any:
    """The mover's base grown by `by` (shrunk where negative) summed with `body`: the hull
    of the sums of their corners (a circle's centre for its corner), grown round by the
    circles' radii and `by`, with corners outside the arcs, at most `out` beyond them, as
    few as keep them short of `start` (if given)."""
    b = mover.base
    sink = max(-by, 0.0)
    if b.is_circle:
        own, offsets = b.diameter / 2 - sink, [(0.0, 0.0)]
    else:
        own = 0.0
        offsets = rect_corners(0.0, 0.0, mover.facing, b.width - 2 * sink, b.length - 2 * sink)
    anchors = [body.xy] if body.xy is not None else list(body.core.exterior.coords)[:-1]
    sums = [(px + dx, py + dy) for px, py in anchors for dx, dy in offsets]
    core = shapely.MultiPoint(sums).convex_hull
    round_by = body.radius + own + max(by, 0.0)
    quad_segs = 4
    while True:
        grow = round_by / math.cos(math.pi / (4 * quad_segs))  # the chords hold the arcs
        shape = core.buffer(grow, quad_segs)
        clear = start is None or shape.distance(start) > ROOM
        if (grow - round_by <= out and clear) or quad_segs >= 64:
            return shape
        quad_segs *= 2
