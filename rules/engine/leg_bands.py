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
from shapely.geometry import Point

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
