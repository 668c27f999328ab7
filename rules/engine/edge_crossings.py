"""Ends just past a polygon's edge, crossed square on by a last straight leg: where a
unit that must stop on crossing into or out of a feature is put down (aod's elevated
terrain, 000 [33-34], AOD-D9: its `reach_elevated.py` gives the depth and where an edge
may be crossed).

A stretch of an edge yields a band at `depth` past it where, sampled every STEP along it:
the last leg, LEG before the edge to just past the band, meets nothing the unit may not
touch (`Barriers`: what the open reach keeps it from, other features, the table edge), and
its end no base it may only cross; that leg's points have the sampled edge point as their
nearest point of the feature (so the leg crosses where it is aimed at, and the depth along
it is the distance); the system lets the feature be crossed there (`crossable`); and the
leg's start is reached by the open reach's graph within the allowance less the leg.
`path_to` gives the graph's path to the leg's start and then the leg. Only circle bases: a
rect's first pose past an edge depends on the angle it crosses at.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point, Polygon
from shapely.geometry.polygon import orient

from rules.engine.leg_bands import (
    LegBand,
    bands_reach,
    edge_bands,
    in_box,
    meets,
    near_enough,
    segments,
)
from rules.engine.open_reach import reachable
from rules.engine.reach import Reach
from rules.geometry.deadline import expired
from rules.geometry.visibility import VisibilityGraph
from rules.model.state import Terrain, Unit

#: Sample spacing along an edge, and the leg's length before the edge (its start lies
#: in the open reach's free space, which keeps 0.01" clear of elevated terrain).
STEP = 0.02
LEG = 0.03
#: Samples looked at between two readings of a caller's deadline: a small share of the
#: deadline, so that it is overrun by little.
CHUNK = 2000
#: The band around the target depth: [T + LO, T + HI]. aod's own placement is
#: at T, or one 0.005" step past it where its distance test rounds the other way; either
#: is within 0.0075" of every point of the band, inside the 0.01" it allows (AOD-D9).
LO, HI = -0.0025, 0.0075


@dataclass
class Barriers:
    """What the last leg may not meet: `hard` (the centre's forbidden areas: terrain and
    bases grown by the base and a margin), `end_only` (bases the unit may cross but not
    end on), `features` (the features crossed, each with the centre's forbidden area
    when it is not the one crossed), and the table's box for the centre."""

    hard: Sequence[Any]
    end_only: Sequence[Any]
    features: Sequence[tuple[Terrain, Any]]
    box: tuple[float, float, float, float]

    @cached_property
    def trees(self) -> tuple[Any, Any, Any]:
        """Search trees of `hard`, `end_only` and the features' areas (None: empty)."""

        def tree(shapes: Sequence[Any]) -> Any:
            return shapely.STRtree(list(shapes)) if len(shapes) else None

        return (tree(self.hard), tree(self.end_only), tree([g for _, g in self.features]))


def crossing_ends(
    unit: Unit,
    action_type: str,
    graph: VisibilityGraph,
    budget: float,
    features: Sequence[Terrain],
    on: Terrain | None,
    barriers: Barriers,
    depth: float,
    crossable: Callable[[Terrain, Any, Any], Any],
) -> Reach | None:
    """The bands where the unit ends `depth` past the edge it crosses square on, entering
    one of `features` (or leaving `on`, the feature it stands on), as a reach; None
    where there are none. `crossable(feature, x, y)`: per edge point, whether the
    feature may be crossed there."""
    crossings = [(on, -1.0)] if on is not None else [(f, 1.0) for f in features]
    bands: list[LegBand] = []
    # Where the graph was cut short, its horizon bounds the legs' starts too: the bands
    # stay within what the reach is exact to (and cost no more than it did).
    limit = min(budget, graph.horizon) - LEG - 0.01
    sx, sy = unit.position
    near: list[tuple[float, Terrain, float]] = []
    for feat, sign in crossings:
        fx0, fy0, fx1, fy1 = feat.shape.bounds
        if sign > 0 and max(fx0 - sx, sx - fx1, fy0 - sy, sy - fy1) > limit + LEG:
            continue  # out of reach as the crow flies
        away = 0.0 if sign < 0 else float(feat.shape.distance(Point(sx, sy)))
        if away <= limit + LEG:
            near.append((away, feat, sign))
    cut_at = None
    for k, (_, feat, sign) in enumerate(near):
        if expired():
            # A caller's deadline: the features left are at least as far as the nearest
            # of them, so every end nearer than that is found.
            cut_at = min(away for away, _, _ in near[k:])
            break
        found, cut = _bands(feat, sign, depth, graph, limit, barriers, crossable)
        bands.extend(found)
        if cut is not None:  # the deadline stopped it within this feature
            cut_at = min([cut] + [away for away, _, _ in near[k + 1 :]])
            break
    if not bands and cut_at is None:
        return None
    return bands_reach(unit.id, action_type, graph, budget, bands, cut_at)


def _bands(
    feat: Terrain,
    sign: float,
    depth: float,
    graph: VisibilityGraph,
    limit: float,
    barriers: Barriers,
    crossable: Callable[[Terrain, Any, Any], Any],
) -> tuple[list[LegBand], float | None]:
    """The bands of one feature: entered (sign 1, the leg goes inward) or left (-1),
    where the leg's start is reached within `limit`; and None, or, where a caller's
    deadline stopped them, the path length within which every band is found."""
    poly = orient(feat.shape, 1.0)  # the feature on the left of every edge
    if not isinstance(poly, Polygon) or poly.is_empty:
        return [], None
    starts: list[tuple[float, float]] = []
    dirs: list[tuple[float, float, float]] = []
    for ring in [poly.exterior, *poly.interiors]:
        cs = np.array(ring.coords)
        for (ax, ay), (bx, by) in zip(cs[:-1], cs[1:], strict=True):
            length = math.hypot(bx - ax, by - ay)
            if length < 3 * STEP:
                continue
            starts.append((ax, ay))
            dirs.append(((bx - ax) / length, (by - ay) / length, length))
    if not starts:
        return [], None
    cx: list[Any] = []
    cy: list[Any] = []
    ux: list[Any] = []
    uy: list[Any] = []
    edge: list[Any] = []
    # A sample farther from the start than the limit and a leg is out of reach of every
    # settled corner (`near_enough`: a path is never shorter than the crow flies), so
    # only the samples within that circle are looked at: the same bands, at a cost that
    # grows with the edges within reach, not with the whole feature.
    gx, gy = graph.start
    within = limit + LEG + 1e-6
    for k, ((ax, ay), (dx, dy, length)) in enumerate(zip(starts, dirs, strict=True)):
        ts = np.arange(STEP, length - STEP / 2, STEP)
        ts = ts[np.hypot(ax + ts * dx - gx, ay + ts * dy - gy) <= within]
        cx.append(ax + ts * dx)
        cy.append(ay + ts * dy)
        # The inward normal is the edge's left; the leg goes inward to enter.
        ux.append(np.full(len(ts), -dy * sign))
        uy.append(np.full(len(ts), dx * sign))
        edge.append(np.full(len(ts), k))
    bands: list[LegBand] = []
    # Whole edges at a time, nearest first, about CHUNK samples each: a caller's deadline
    # is checked between them, and what is left is at least as far as its nearest sample
    # less the band's depth (a path is never shorter than the crow flies).
    away = [
        float(np.hypot(px - gx, py - gy).min()) if len(px) else math.inf
        for px, py in zip(cx, cy, strict=True)
    ]
    order = sorted(range(len(cx)), key=lambda e: (away[e], e))
    cx, cy, ux, uy, edge = ([part[e] for e in order] for part in (cx, cy, ux, uy, edge))
    first = 0
    while first < len(cx):
        last, size = first, 0
        while last < len(cx) and (size == 0 or size + len(cx[last]) <= CHUNK):
            size += len(cx[last])
            last += 1
        if size:
            if expired():
                return bands, max(0.0, away[order[first]] - depth - HI)
            x, y, u_x, u_y, k_of = (
                np.concatenate(part[first:last]) for part in (cx, cy, ux, uy, edge)
            )
            # A cheap first cut: the leg's start within the limit of some settled corner,
            # as the crow flies from it (a lower bound of the path `reachable` then finds).
            ok = near_enough(graph, x - LEG * u_x, y - LEG * u_y, limit)
            ok &= _nearest_is_aimed(poly, x, y, u_x, u_y, depth, sign, ok)
            ok &= crossable(feat, x, y)
            ok &= _leg_clear(feat, x, y, u_x, u_y, depth, barriers, ok)
            rows = np.nonzero(ok)[0]
            if len(rows):
                before = np.stack([x[rows] - LEG * u_x[rows], y[rows] - LEG * u_y[rows]], axis=1)
                ok[rows] = reachable(graph, before, limit)
            bands.extend(edge_bands(ok, x, y, u_x, u_y, k_of, dirs, depth + LO, depth + HI, LEG))
        first = last
    return bands, None


def _nearest_is_aimed(
    poly: Polygon, x: Any, y: Any, u_x: Any, u_y: Any, depth: float, sign: float, ok: Any
) -> Any:
    """The leg's far point, past the target depth, is that far from the feature's edge
    (so its nearest point is the edge point aimed at) and on the right side of it."""
    far = depth + 0.02
    out = np.zeros(len(x), dtype=bool)
    rows = np.nonzero(ok)[0]
    if not len(rows):
        return out
    x, y, u_x, u_y = x[rows], y[rows], u_x[rows], u_y[rows]
    shapely.prepare(poly)
    inside = shapely.contains_xy(poly, x + far * u_x, y + far * u_y)
    behind = shapely.contains_xy(poly, x - LEG * u_x, y - LEG * u_y)
    good = (inside == (sign > 0)) & (behind == (sign < 0))
    # The distances to the edge, the dearest test, only where the sides already hold.
    edge = poly.boundary
    for ox, oy, least in ((far * u_x, far * u_y, far), (-LEG * u_x, -LEG * u_y, LEG)):
        k = np.flatnonzero(good)
        gap = shapely.distance(edge, shapely.points(x[k] + ox[k], y[k] + oy[k]))
        good[k] = gap >= least - 1e-4
    out[rows] = good
    return out


def _leg_clear(
    feat: Terrain, x: Any, y: Any, u_x: Any, u_y: Any, depth: float, barriers: Barriers, ok: Any
) -> Any:
    """Whether the leg, from LEG before the edge to past the band, meets nothing the open
    reach keeps the centre from, and its end no base it may not end on."""
    out = ok.copy()
    rows = np.nonzero(out)[0]
    if not len(rows):
        return out
    x, y, u_x, u_y = x[rows], y[rows], u_x[rows], u_y[rows]
    far = depth + HI + 0.002
    clear = in_box(barriers.box, x, y, u_x, u_y, (-LEG, far))
    own = next((i for i, (t, _) in enumerate(barriers.features) if t.id == feat.id), -1)
    legs = segments(x, y, u_x, u_y, -LEG, far)
    clear &= ~meets(barriers.trees[0], legs)
    clear &= ~meets(barriers.trees[2], legs, skip=own)
    clear &= ~meets(barriers.trees[1], segments(x, y, u_x, u_y, depth + LO - 0.002, far))
    out[rows] = clear
    return out
