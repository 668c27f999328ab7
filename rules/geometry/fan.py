"""A fan of straight lines from a point, as the area they reach.

What a reach whose every path is one straight line needs (aod's formation move: every
member moves by one offset): `rays` lines from the start, each as long as the nearest
obstacle on the triangle between it and the next allows (less 0.002"), within a box and
a span. Their triangles make a polygon star-shaped about the start: each point of it
is reached straight from the start, clear of every obstacle.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point

#: Fan and obstacle pairs intersected at a time, nearest first.
BATCH = 48


def straight_fan(
    start: tuple[float, float],
    room: tuple[float, float, float, float],
    obstacles: Sequence[Any],
    span: float,
    rays: int,
) -> tuple[Any, float] | None:
    """The area reached from `start` by straight lines of at most `span` inside `room`
    (x0, y0, x1, y1) and clear of `obstacles`, and how near the nearest obstacle or
    side of the room is (at most `span`: within it the area is exact); None where that
    is within 0.002" of the start (or the start is outside the room)."""
    sx, sy = start
    lo_x, lo_y, hi_x, hi_y = room
    here = Point(sx, sy)
    near = min(sx - lo_x, hi_x - sx, sy - lo_y, hi_y - sy)
    gaps = shapely.distance(here, obstacles) if obstacles else np.zeros(0)
    if obstacles:
        near = min(near, float(np.min(gaps)))
    if near <= 0.002:
        return None
    near = min(near, span)  # nothing beyond the span was looked at
    angles = np.linspace(0.0, 2 * math.pi, rays + 1)
    ux, uy = np.cos(angles), np.sin(angles)
    with np.errstate(divide="ignore"):
        # Where each ray leaves the room.
        ex = np.where(ux > 1e-12, (hi_x - sx) / ux, np.where(ux < -1e-12, (lo_x - sx) / ux, np.inf))
        ey = np.where(uy > 1e-12, (hi_y - sy) / uy, np.where(uy < -1e-12, (lo_y - sy) / uy, np.inf))
    exit_ = np.minimum(ex, ey)
    rho = np.minimum(np.minimum(exit_[:-1], exit_[1:]), span)
    long_ = span / math.cos(math.pi / rays) + 0.01
    fans = shapely.polygons(
        [
            [
                (sx, sy),
                (sx + long_ * ux[k], sy + long_ * uy[k]),
                (sx + long_ * ux[k + 1], sy + long_ * uy[k + 1]),
            ]
            for k in range(rays)
        ]
    )
    if obstacles:
        tree = shapely.STRtree(obstacles)
        fi, oi = tree.query(fans, predicate="intersects")
        order = np.argsort(gaps[oi], kind="stable")
        fi, oi = fi[order], oi[order]
        shapes = np.array(obstacles, dtype=object)
        # Nearest first, a batch at a time: a pair farther than its ray already goes
        # (an obstacle nearer on that ray met first) is not intersected at all.
        for at in range(0, len(fi), BATCH):
            f, o = fi[at : at + BATCH], oi[at : at + BATCH]
            keep = gaps[o] < rho[f] + 0.002
            if not keep.any():
                if gaps[o[0]] >= rho.max() + 0.002:
                    break
                continue
            f, o = f[keep], o[keep]
            met = shapely.distance(here, shapely.intersection(fans[f], shapes[o]))
            hit = np.full(rays, np.inf)
            np.minimum.at(hit, f, np.nan_to_num(met, nan=np.inf))
            rho = np.minimum(rho, hit - 0.002)
    # The union of the fan's triangles (start, rho_k along ray k and along ray k+1): a
    # polygon star-shaped about the start, its corners in angle order.
    ring = np.empty((2 * rays, 2))
    ring[0::2, 0], ring[0::2, 1] = sx + rho * ux[:-1], sy + rho * uy[:-1]
    ring[1::2, 0], ring[1::2, 1] = sx + rho * ux[1:], sy + rho * uy[1:]
    area = shapely.Polygon(ring)
    if not area.is_valid:
        area = shapely.make_valid(area)
    return area, near
