"""Bearings, and the rear of a base: where another base touches it.

The rear of a rect base is its rear edge (the short side opposite the facing, corners
included); the rear of a circle base is the 90-degree arc centred on facing + 180
(within +-45 degrees, inclusive). aod (AOD-D13) and mswars (MSW-D23, MSW-D27) read it
the same way: boarding from the rear, ram and charge rear-to-rear (000 [18], [28]),
unloading at a carrier's rear.
"""

from __future__ import annotations

import math

from shapely.geometry import LineString, Point
from shapely.ops import nearest_points

from rules.geometry.bases import body_at, rect_corners
from rules.geometry.direction import angle_between
from rules.geometry.direction import bearing as bearing_of
from rules.geometry.tolerance import CONTACT
from rules.model.state import Unit

__all__ = [
    "REAR_HALF_ARC",
    "angle_between",
    "bearing",
    "contact_point",
    "in_base_contact",
    "in_rear",
    "rear_contact",
    "rear_slots",
    "rear_to_rear",
]


def bearing(ux: float, uy: float, px: float, py: float) -> float:
    """The bearing from (ux, uy) to (px, py), degrees counter-clockwise from +x."""
    return bearing_of(px - ux, py - uy)


#: Half the rear arc of a circle base, degrees.
REAR_HALF_ARC = 45.0


def in_rear(u: Unit, p: tuple[float, float]) -> bool:
    """Is the point `p` of `u`'s outline in its rear (rect: rear edge; circle: arc)?"""
    if u.base.is_circle:
        b = bearing(*u.position, *p)
        return angle_between(b, u.facing + 180.0) <= REAR_HALF_ARC + 1e-6
    c = rect_corners(*u.position, u.facing, u.base.width, u.base.length)
    rear_edge = LineString([c[1], c[2]])
    return bool(rear_edge.distance(Point(p)) <= CONTACT)


def rear_contact(u: Unit, other: Unit) -> bool:
    """Is `other` in base contact with the rear of `u`?"""
    return contact_point(u, other) is not None and _rear_at(u, other)


def in_base_contact(a: Unit, b: Unit) -> bool:
    """Whether two units' bases are within 0.01" of each other (base contact)."""
    ba = body_at(a.base, *a.position, a.facing)
    return ba.distance(body_at(b.base, *b.position, b.facing)) <= CONTACT


def contact_point(a: Unit, b: Unit) -> tuple[float, float] | None:
    """Where two bases in contact meet (None when they are not in contact)."""
    if not in_base_contact(a, b):
        return None
    pa = _nearest_on_edge(a, b)
    pb = _nearest_on_edge(b, a)
    return ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)


def _nearest_on_edge(u: Unit, other: Unit) -> tuple[float, float]:
    bo = body_at(other.base, *other.position, other.facing)
    if u.base.is_circle:
        # Direction from u's centre to the nearest point of the other base.
        q = nearest_points(Point(u.position), bo.core)[1]
        dx, dy = q.x - u.position[0], q.y - u.position[1]
        d = math.hypot(dx, dy) or 1.0
        dx, dy = dx / d, dy / d
        r = u.base.diameter / 2
        return (u.position[0] + dx * r, u.position[1] + dy * r)
    bu = body_at(u.base, *u.position, u.facing)
    target = bo.core.buffer(bo.radius) if bo.radius > 1e-6 else bo.core
    p = nearest_points(bu.core.exterior, target)[0]
    return (p.x, p.y)


def rear_slots(u: Unit, depth: float, gap: float = 0.004) -> list[tuple[float, float, float]]:
    """Poses (x, y, facing) for a piece reaching `depth` from its centre toward `u`, set
    `gap` behind `u`'s rear, from one side to the other: every 5 degrees of a circle's
    rear arc (+-45, facing away from `u`'s centre), every sixteenth of a rect's rear edge
    (facing as `u`)."""
    b = u.base
    back = math.radians(u.facing + 180.0)
    fx, fy = math.cos(back), math.sin(back)  # pointing behind
    nx, ny = -fy, fx
    tx, ty = u.position
    out: list[tuple[float, float, float]] = []
    if b.is_circle:
        reach = b.radius + depth + gap
        for k in range(-9, 10):
            a = back + math.radians(5.0 * k)
            out.append(
                (tx + reach * math.cos(a), ty + reach * math.sin(a), math.degrees(a) + 180.0)
            )
    else:
        reach = b.length / 2 + depth + gap
        for k in range(-8, 9):
            s = k / 16 * b.width
            out.append((tx + reach * fx + s * nx, ty + reach * fy + s * ny, u.facing))
    return out


def rear_to_rear(a: Unit, b: Unit) -> bool:
    """The contact point lies in the rear of both units (aod 000 [28])."""
    p = contact_point(a, b)
    if p is None:
        return False
    return _rear_at(a, b) and _rear_at(b, a)


def _rear_at(u: Unit, other: Unit) -> bool:
    return in_rear(u, _nearest_on_edge(u, other))
