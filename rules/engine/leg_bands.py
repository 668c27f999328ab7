"""Ends reached by a last straight leg, beyond the open reach's free space.

A system shades thin bands there (aod's elevated terrain, entered and left by a last
straight leg, and its close combat contact bands): an end is taken where a last leg, from
a point the search graph reaches within the allowance less the leg, runs to it straight
and meets nothing the open reach keeps the centre from. These are the vectorised tests of
such legs (`near_enough`, `reached`, `segments`, `meets`) and the reach of a set of
bands (`bands_reach`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point, Polygon

from rules.engine.open_reach import reachable_via
from rules.engine.reach import Reach, no_ends
from rules.geometry.visibility import VisibilityGraph

#: How far off a band an end may be and still be taken (an alternative's end is rounded
#: to thousandths): aod's elevated end is still within 0.0085" of its placement (AOD-D9),
#: its close combat end's gap still 0.001" to 0.009", contact (aod.md section 4).
HAIR = 0.0009


@dataclass(frozen=True)
class LegBand:
    """A band of ends, each reached by a last leg of `leg` inches from `start_of(end)`
    (None: not from there); `keys`: the action keys its ends need (a charge's target)."""

    area: Any
    leg: float
    start_of: Callable[[tuple[float, float]], tuple[float, float] | None]
    keys: dict[str, Any] = field(default_factory=dict)


def bands_reach(
    unit_id: str,
    action_type: str,
    graph: VisibilityGraph | None,
    budget: float,
    bands: Sequence[LegBand],
    cut_at: float | None,
) -> Reach:
    """The bands as a reach: `path_to` is the graph's path to a band's leg start, then
    the leg, where that path is short enough; `keys_at` the band's keys."""
    if not bands or graph is None:
        return no_ends(unit_id, action_type, budget, cut_at)
    area = shapely.union_all([b.area for b in bands])
    tree = shapely.STRtree([b.area for b in bands])
    search = graph

    def band_at(p: tuple[float, float]) -> tuple[LegBand, list[tuple[float, float]]] | None:
        here = Point(p)
        for i in tree.query(here.buffer(HAIR)):
            band = bands[int(i)]
            if band.area.distance(here) > HAIR:
                continue
            start = band.start_of(p)
            if start is None:
                continue
            path = search.path_to(start)
            if path is None or _length(path) > budget - band.leg + 1e-9:
                continue
            return band, [*path, (float(p[0]), float(p[1]))]
        return None

    def path_to(p: tuple[float, float]) -> list[tuple[float, float]] | None:
        found = band_at(p)
        return None if found is None else found[1]

    def keys_at(p: tuple[float, float]) -> dict[str, Any]:
        found = band_at(p)
        return {} if found is None else dict(found[0].keys)

    return Reach(unit_id, action_type, area, budget, path_to, cut_at, keys_at)


def _length(path: Sequence[tuple[float, float]]) -> float:
    return sum(math.dist(a, b) for a, b in zip(path, path[1:], strict=False))


def near_enough(graph: VisibilityGraph, x: Any, y: Any, limit: float) -> Any:
    """Per point, whether some settled corner lies within `limit` less its distance."""
    done = np.flatnonzero(np.asarray(graph.settled, dtype=bool))
    if not len(done):
        return np.zeros(len(x), dtype=bool)
    xy = np.array(graph.nodes)[done]
    left = limit - np.array(graph.dist)[done]
    keep = left > 0
    xy, left = xy[keep], left[keep]
    ok = np.zeros(len(x), dtype=bool)
    if not len(xy):
        return ok
    x0, x1, y0, y1 = np.min(x), np.max(x), np.min(y), np.max(y)
    gx = np.maximum(np.maximum(x0 - xy[:, 0], xy[:, 0] - x1), 0.0)
    gy = np.maximum(np.maximum(y0 - xy[:, 1], xy[:, 1] - y1), 0.0)
    near = np.hypot(gx, gy) <= left  # corners whose budget reaches the points' box
    xy, left = xy[near], left[near]
    for k in range(0, len(xy), 64):
        gaps = np.hypot(x[:, None] - xy[None, k : k + 64, 0], y[:, None] - xy[None, k : k + 64, 1])
        ok |= np.any(gaps <= left[None, k : k + 64], axis=1)
    return ok


def segments(x: Any, y: Any, u_x: Any, u_y: Any, t0: float, t1: float) -> Any:
    return shapely.linestrings(
        np.stack(
            [
                np.stack([x + t0 * u_x, y + t0 * u_y], axis=1),
                np.stack([x + t1 * u_x, y + t1 * u_y], axis=1),
            ],
            axis=1,
        )
    )


def meets(tree: Any, lines: Any, skip: int = -1) -> Any:
    """Per line, whether it meets one of the tree's shapes (but the one at `skip`)."""
    hit = np.zeros(len(lines), dtype=bool)
    if tree is None or not len(lines):
        return hit
    li, gi = tree.query(lines)  # boxes that meet, then the exact test on those pairs
    keep = gi != skip
    li, gi = li[keep], gi[keep]
    if len(li):
        meets = shapely.intersects(lines[li], tree.geometries[gi])
        hit[np.unique(li[meets])] = True
    return hit


#: One sample in so many is tested against many corners; the others first against the
#: corner that saw a neighbour (`reached`).
EVERY = 6


def reached(graph: VisibilityGraph, pts: Any, limit: float, spent: list[int]) -> Any:
    """`reachable` for points in order along a line, coarse to fine: every EVERY-th one
    tried against up to 16 corners, then each of the others first against the corner
    that saw the coarse point before or after it (then two more). One between two coarse
    points neither of which is seen is taken as unseen (a subset of the truth)."""
    n = len(pts)
    coarse = np.arange(0, n, EVERY)
    ok_c, via_c = reachable_via(graph, pts[coarse], limit, tries=16, spent=spent)
    ok = np.zeros(n, dtype=bool)
    ok[coarse] = ok_c
    lo = np.arange(n) // EVERY
    hi = np.minimum(lo + 1, len(coarse) - 1)
    hint = np.where(ok_c[lo], via_c[lo], np.where(ok_c[hi], via_c[hi], -1))
    fine = np.setdiff1d(np.arange(n), coarse)
    fine = fine[hint[fine] >= 0]
    if not len(fine):
        return ok
    # Where one corner saw both coarse points of a stretch, the hull of it and the fine
    # points between is tested once: covered, every line from it to them lies in free
    # space (and within the limit, checked per point).
    nodes = np.array(graph.nodes)
    dist = np.array(graph.dist)
    both = np.flatnonzero(ok_c[:-1] & ok_c[1:] & (via_c[:-1] == via_c[1:]))
    if len(both):
        hulls = [
            shapely.MultiPoint(
                np.vstack([nodes[via_c[k]], pts[coarse[k] : coarse[k + 1] + 1]])
            ).convex_hull
            for k in both
        ]
        spent[0] += len(hulls)
        covered = both[shapely.covers(graph.free, hulls)]
        for k in covered:
            rows = np.arange(coarse[k] + 1, coarse[k + 1])
            node = via_c[k]
            ok[rows] = (
                dist[node] + np.hypot(pts[rows, 0] - nodes[node, 0], pts[rows, 1] - nodes[node, 1])
                <= limit
            )
        fine = fine[~np.isin(fine // EVERY, covered)]
    if len(fine):
        ok[fine] = reachable_via(graph, pts[fine], limit, tries=2, first=hint[fine], spent=spent)[0]
    return ok


def in_box(
    box: tuple[float, float, float, float], x: Any, y: Any, u_x: Any, u_y: Any, ts: Sequence[float]
) -> Any:
    """Per point, whether each of its points `t` along (u_x, u_y) (t in `ts`) lies within
    `box` (x0, y0, x1, y1): a leg's ends on the table."""
    x0, y0, x1, y1 = box
    ok = np.ones(len(x), dtype=bool)
    for t in ts:
        px, py = x + t * u_x, y + t * u_y
        ok &= (px >= x0) & (px <= x1) & (py >= y0) & (py <= y1)
    return ok


def ring_bands(
    core: Any,
    leg: float,
    ok: Any,
    x: Any,
    y: Any,
    nx: Any,
    ny: Any,
    inner: float,
    outer: float,
    keys: dict[str, Any],
) -> list[LegBand]:
    """Bands round `core` from samples (x, y) on a closed ring about it, each with its
    outward normal (nx, ny): a band per run of two or more consecutive good samples (the
    ring closes), from `inner` to `outer` along the normal, reached by a leg of `leg`
    straight out from the core (`straight_out`); `keys`: the action keys of its ends."""
    n = len(ok)
    if ok.all():
        runs = [list(range(n)) + [0]]
    else:
        first_bad = int(np.argmin(ok))
        order = [(first_bad + k) % n for k in range(n)]
        runs, run = [], []
        for i in order:
            if ok[i]:
                run.append(i)
            else:
                if len(run) > 1:
                    runs.append(run)
                run = []
        if len(run) > 1:
            runs.append(run)
    pieces = []
    for run in runs:
        idx = np.array(run)
        near = np.stack([x[idx] + inner * nx[idx], y[idx] + inner * ny[idx]], 1)
        far = np.stack([x[idx] + outer * nx[idx], y[idx] + outer * ny[idx]], 1)
        poly = Polygon(np.vstack([near, far[::-1]]))
        if not poly.is_valid:
            poly = poly.buffer(0)
        if poly.is_empty:
            continue
        pieces.append(LegBand(poly, leg, straight_out(core, leg), dict(keys)))
    return pieces


def straight_out(core: Any, leg: float) -> Callable[[tuple[float, float]], Any]:
    """A band's leg start for an end: `leg` straight out from the target's core."""

    def start_of(p: tuple[float, float]) -> tuple[float, float] | None:
        line = shapely.shortest_line(core, Point(p))
        (cx, cy), (qx, qy) = line.coords[0], line.coords[-1]
        n = math.hypot(qx - cx, qy - cy)
        if n < 1e-9:
            return None
        return (p[0] + leg * (qx - cx) / n, p[1] + leg * (qy - cy) / n)

    return start_of


def edge_bands(
    ok: Any,
    x: Any,
    y: Any,
    u_x: Any,
    u_y: Any,
    k_of: Any,
    dirs: Sequence[tuple[float, float, float]],
    lo: float,
    hi: float,
    leg: float,
) -> list[LegBand]:
    """Bands across polygon edges from samples (x, y) on them, each with the direction
    (u_x, u_y) its leg crosses the edge in and its edge's index `k_of` into `dirs` (unit
    vector along it, length): a band per run of consecutive good samples along one edge
    (a lone sample gets a band 0.002" long), from `lo` to `hi` past the edge along the
    leg, reached by a leg of `leg` aimed square at the edge (`aimed_at`)."""
    bands: list[LegBand] = []
    n = len(ok)
    i = 0
    while i < n:
        if not ok[i]:
            i += 1
            continue
        j = i
        while j + 1 < n and ok[j + 1] and k_of[j + 1] == k_of[i]:
            j += 1
        dx, dy, _ = dirs[int(k_of[i])]
        pad = 0.001 if i == j else 0.0
        a = (float(x[i] - pad * dx), float(y[i] - pad * dy))
        b = (float(x[j] + pad * dx), float(y[j] + pad * dy))
        u = (float(u_x[i]), float(u_y[i]))
        ring = [
            (a[0] + lo * u[0], a[1] + lo * u[1]),
            (b[0] + lo * u[0], b[1] + lo * u[1]),
            (b[0] + hi * u[0], b[1] + hi * u[1]),
            (a[0] + hi * u[0], a[1] + hi * u[1]),
        ]
        bands.append(LegBand(Polygon(ring), leg, aimed_at(a, (dx, dy), u, leg)))
        i = j + 1
    return bands


def aimed_at(
    a: tuple[float, float], along: tuple[float, float], u: tuple[float, float], leg: float
) -> Callable[[tuple[float, float]], tuple[float, float]]:
    """A band's leg start for an end: `leg` before the edge point the leg is aimed at (the
    end's foot on the edge line through `a` along `along`), back along `u`."""

    def start_of(p: tuple[float, float]) -> tuple[float, float]:
        t = (p[0] - a[0]) * along[0] + (p[1] - a[1]) * along[1]
        return (a[0] + t * along[0] - leg * u[0], a[1] + t * along[1] - leg * u[1])

    return start_of
