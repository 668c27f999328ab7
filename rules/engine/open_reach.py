"""Reach among obstacles: where a unit's centre can end within a length budget.

A system turns what the unit may not touch into obstacles for its centre (terrain
grown by the base's circumradius plus `MARGIN`, so that no stop rule can trigger);
the kernel adds the other bases under the system's `BasePolicy` (a base the unit may
cross only keeps it from ending there; a base it touches where it starts may be left
but not come back to), keeps the centre on the table (and inside `within` when the
unit may only be there, an aquatic unit in water), and finds shortest paths within
the budget on a visibility graph (docs/rules-engine.md). The area is conservative: a
point inside is reached by a legal path, which `path_to` returns. The graph's work is
bounded (`Work`); when the bound stops it short of the budget, the reach says how far
its area is exact (`Reach.cut_at`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import shapely
import shapely.affinity
from shapely.geometry import Point, box

from rules.engine.bases_policy import BasePolicy
from rules.engine.kept_facing import kept_from
from rules.engine.position import Position
from rules.engine.reach import Reach
from rules.geometry import visibility
from rules.geometry.bases import Body
from rules.geometry.visibility import VisibilityGraph, Work, inflate
from rules.model.state import Table, Unit

#: Keeps paths clear of contact (0.01") with room for rounding.
MARGIN = 0.03
#: How far a long move is searched first (`open_reach`), in inches of path.
WINDOW = 16.0


def horizon(unit: Unit, budget: float) -> float:
    """How far from the unit's centre anything can matter to a move of `budget`."""
    return budget + 2 * unit.base.radius + 1


def base_barriers(
    position: Position, unit: Unit, policy: BasePolicy, reach: float, margin: float = MARGIN
) -> tuple[list[Any], list[Any]]:
    """(bases the centre may not come near, bases it may cross but not end on), within
    `reach` of the unit's centre, each grown by both radii and the margin.

    A base touching the unit where it starts may be left but not come back to: it is
    grown only to 0.008" short of the start (overlap is deeper than 0.01"), by a polygon
    whose corners stay short of the start too (`around_start`). Growing it to its full
    size would cover the start itself and leave the unit no reach at all (a unit in
    base contact breaking away, aod's and mswars' alike)."""
    blocking, end_only = base_barriers_by_unit(position, unit, policy, reach, margin)
    return [g for _, g in blocking], [g for _, g in end_only]


def base_barriers_by_unit(
    position: Position,
    unit: Unit,
    policy: BasePolicy,
    reach: float,
    margin: float = MARGIN,
    keeps_facing: bool = False,
) -> tuple[list[tuple[str, Any]], list[tuple[str, Any]]]:
    """`base_barriers`, each with the id of the unit whose base it is (a close combat
    order's last leg comes into contact with its target's, aod.md 12). `keeps_facing`:
    the paths searched only translate the unit, so the bases near its start are kept
    from its own base (`kept_from`), as the contact rules say, not by `around_start`,
    which holds only for a circle and lets it come back into contact."""
    sx, sy = unit.position
    r = unit.base.radius
    blocking: list[tuple[str, Any]] = []
    end_only: list[tuple[str, Any]] = []
    for i in position.units.query_box(sx - reach, sy - reach, sx + reach, sy + reach):
        other = position.on_table[i]
        if other.id == unit.id or other.id in policy.ignore:
            continue
        body = position.bodies[other.id]
        full = body.radius + r + margin
        gap = body.distance(Body(None, 0.0, (sx, sy))) + body.radius  # start to its core
        if policy.may_cross(unit, other):
            end_only.append((other.id, grown(body, full)))
        elif gap > full:
            blocking.append((other.id, grown(body, full)))
        elif keeps_facing:
            stops = policy.stops_for(unit, other)
            blocking.append((other.id, kept_from(unit, body, margin, stops)))
        elif body.xy is not None:
            blocking.append((other.id, around_start(body.xy, gap)))
        else:
            blocking.append((other.id, body.core.buffer(max(gap - body.radius - 0.008, 0.0))))
    return blocking, end_only


def open_reach(
    position: Position,
    unit: Unit,
    action_type: str,
    budget: float,
    obstacles: Sequence[Any],
    end_only: Sequence[Any] = (),
    within: Any = None,
) -> Reach:
    """The reach of `unit`'s centre: the table shrunk by its radius (and `within`, if
    given), minus `obstacles`, within `budget` of path; `end_only` areas are crossed
    but not ended in.

    A move longer than WINDOW is searched first within WINDOW of its start: a path of
    that length stays within it, so the distances found there are the whole table's.
    On a crowded table the work bound (`visibility.WORK`) stops that search, and the
    obstacles beyond are neither merged nor tested. Only where it used at
    most a quarter of the bound (open ground) is the whole move searched, with what the
    bound has left: the search goes over the window's ground again, then further."""
    return open_reach_with_graph(position, unit, action_type, budget, obstacles, end_only, within)[
        0
    ]


def open_reach_with_graph(
    position: Position,
    unit: Unit,
    action_type: str,
    budget: float,
    obstacles: Sequence[Any],
    end_only: Sequence[Any] = (),
    within: Any = None,
    work: Work | None = None,
) -> tuple[Reach, VisibilityGraph | None]:
    """`open_reach`, and the visibility graph it searched (None where the start is not in
    free space): a system that adds ends beyond the graph's free space (aod's elevated
    terrain, entered and left by a last straight leg, 000 [33]) reaches them from its
    settled corners (`reachable`). `work`: the bound (None: `visibility.WORK`)."""
    if budget <= 0:
        return _nowhere(unit, action_type, budget), None
    graph = search_graph(position, unit, budget, obstacles, within, work)
    if graph is None:
        return _nowhere(unit, action_type, budget), None
    cut_at = None if graph.horizon >= budget else graph.horizon
    if not end_only:
        return (Reach(unit.id, action_type, graph.region(), budget, graph.path_to, cut_at), graph)
    taken = shapely.union_all(list(end_only))
    shapely.prepare(taken)
    search = graph

    def path_to(p: tuple[float, float]) -> list[tuple[float, float]] | None:
        return None if taken.intersects(Point(p)) else search.path_to(p)

    return (
        Reach(unit.id, action_type, graph.region().difference(taken), budget, path_to, cut_at),
        graph,
    )


def search_graph(
    position: Position,
    unit: Unit,
    budget: float,
    obstacles: Sequence[Any],
    within: Any = None,
    work: Work | None = None,
) -> VisibilityGraph | None:
    """The visibility graph `open_reach` searches (its window first, then the whole
    move where the window cost little), without casting its area: what a system that
    shades only the ends of last legs needs (aod's close combat orders). None where the
    start is not in free space."""
    work = visibility.WORK if work is None else work
    graph = _search(position, unit, obstacles, within, min(budget, WINDOW), work)
    if graph is not None and graph.complete and budget > WINDOW:
        used = graph.used
        if 4 * used.tests <= work.tests and 4 * used.corners <= work.corners:
            left = Work(work.tests - used.tests, work.corners - used.corners)
            whole = _search(position, unit, obstacles, within, budget, left)
            if whole is not None and whole.horizon > graph.horizon:
                graph = whole
    return graph


def reachable(graph: VisibilityGraph, points: Any, limit: float, tries: int = 4) -> Any:
    """Per point (an (n, 2) array), whether the graph reaches it within `limit` of path:
    one of the `tries` settled corners nearest by path sees it, within the limit. Then
    `graph.path_to` reaches it within the limit too (it takes the shortest such way)."""
    return reachable_via(graph, points, limit, tries)[0]


def reachable_via(
    graph: VisibilityGraph,
    points: Any,
    limit: float,
    tries: int = 4,
    first: Any = None,
    spent: list[int] | None = None,
) -> tuple[Any, Any]:
    """`reachable`, and per point the corner (an index into `graph.nodes`, -1: none) that
    sees it. `first`: per point a corner to try before the others (-1: none), such as the
    one that saw a neighbouring point: one test where it sees this one too. `spent`, if
    given, counts the lines tested (its one item grows), for a caller's work bound."""
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    ok = np.zeros(len(pts), dtype=bool)
    via = np.full(len(pts), -1)
    done = np.flatnonzero(np.asarray(graph.settled, dtype=bool))
    if not len(pts) or not len(done):
        return ok, via
    nodes = np.array(graph.nodes)
    dist = np.array(graph.dist)

    def test(rows: Any, node: Any) -> None:
        keep = (
            dist[node] + np.hypot(pts[rows, 0] - nodes[node, 0], pts[rows, 1] - nodes[node, 1])
            <= limit
        )
        rows, node = rows[keep], node[keep]
        if len(rows):
            if spent is not None:
                spent[0] += len(rows)
            lines = shapely.linestrings(np.stack([nodes[node], pts[rows]], axis=1))
            seen = shapely.covers(graph.free, lines)
            ok[rows[seen]] = True
            via[rows[seen]] = node[seen]

    if first is not None:
        first = np.asarray(first)
        rows = np.flatnonzero(first >= 0)
        test(rows, first[rows])
    xy, d = nodes[done], dist[done]
    left = np.flatnonzero(~ok)
    if not len(left) or tries <= 0:
        return ok, via
    total = d[None, :] + np.hypot(pts[left, :1] - xy[None, :, 0], pts[left, 1:] - xy[None, :, 1])
    order = np.argsort(total, axis=1)[:, :tries]
    for k in range(order.shape[1]):
        rows = left[~ok[left]]
        if not len(rows):
            break
        pick = order[np.searchsorted(left, rows), k]
        test(rows, done[pick])
    return ok, via


def union_reach(parts: Sequence[Reach]) -> Reach:
    """Several reaches of one unit and type as one: the union of their areas (each sound,
    so the union is), `path_to` from the first part that holds the point, exact to the
    nearest of their horizons."""
    first = parts[0]
    if len(parts) == 1:
        return first
    area = shapely.union_all([p.area for p in parts])
    cuts = [p.cut_at for p in parts if p.cut_at is not None]

    def holding(p: tuple[float, float]) -> Reach | None:
        """The first part whose area holds the point, or comes within a hair of it and
        takes it (an alternative's end is rounded to thousandths)."""
        here = Point(p)
        near = [part for part in parts if part.area.distance(here) <= 0.001]
        near.sort(key=lambda part: part.area.distance(here))
        return next((part for part in near if part.path_to(p) is not None), None)

    def path_to(p: tuple[float, float]) -> list[tuple[float, float]] | None:
        part = holding(p)
        return None if part is None else part.path_to(p)

    def keys_at(p: tuple[float, float]) -> dict[str, Any]:
        part = holding(p)
        return {} if part is None else part.keys_at(p)

    return Reach(
        first.unit_id,
        first.action_type,
        area,
        first.allowance,
        path_to,
        min(cuts) if cuts else None,
        keys_at,
    )


def _search(
    position: Position, unit: Unit, obstacles: Sequence[Any], within: Any, radius: float, work: Work
) -> VisibilityGraph | None:
    """The visibility graph of the free space within `radius` of path from the unit's
    start (None: the start is not in free space)."""
    start = unit.position
    r = unit.base.radius
    table = position.state.table
    free = box(r, r, table.width - r, table.height - r)
    if within is not None:
        free = free.intersection(within)
    local = Point(start).buffer(radius + r + 1, quad_segs=4)
    near = [o for o in obstacles if o.intersects(local)]
    if near:
        free = free.difference(shapely.union_all(near))
    free = _component(free.intersection(local), start)
    return None if free is None else VisibilityGraph.build(free, start, radius, work)


def _nowhere(unit: Unit, action_type: str, budget: float) -> Reach:
    start = unit.position
    return Reach(
        unit.id, action_type, Point(start), budget, lambda p: [start] if p == start else None
    )


def beyond(table: Table, room: Any) -> Any:
    """All but `room` (a part of the table), as far as anything on the table can go: a
    barrier that keeps a centre within `room`."""
    return box(-1e3, -1e3, table.width + 1e3, table.height + 1e3).difference(room)


def around_start(centre: tuple[float, float], gap: float) -> Any:
    """A circle base touching the mover where it starts, as an obstacle: a polygon that
    holds the circle 0.008" short of the start, with corners short of it too, and as few
    corners as that allows (a path around it, from `path_to`, has a step per corner)."""
    inner = max(gap - 0.008, 0.0)
    quad_segs = 4
    while inner / math.cos(math.pi / (4 * quad_segs)) > gap - 0.001 and quad_segs < 64:
        quad_segs *= 2
    return Point(centre).buffer(inner / math.cos(math.pi / (4 * quad_segs)), quad_segs=quad_segs)


def grown(body: Body, by: float) -> Any:
    """A base's core grown by `by`: polygons with mitre joins, centres as circumscribed
    16-gons (both contain the true offset, so the result is conservative)."""
    if body.xy is None:
        return inflate(body.core, by)
    return Point(body.xy).buffer(by / math.cos(math.pi / 16), quad_segs=4)


def _component(free: Any, start: tuple[float, float]) -> Any:
    """The piece of free space that holds the start."""
    p = Point(start)
    for g in getattr(free, "geoms", [free]):
        if g.covers(p):
            return g
    return None


def grown_by_base(shape: Any, rect: Any, radius: float) -> Any:
    """`shape` grown by a base centred at the origin (a Minkowski sum with `rect`, a rect
    at its facing, or with a disc of `radius` when `rect` is None; the disc's chords lie
    within 0.0004" of its arcs): where the centre may not be without the base meeting it."""
    if rect is None:
        if radius <= 0:
            return shape
        arcs = max(8, math.ceil(math.pi / (4 * math.acos(max(1 - 0.0004 / radius, -1.0)))))
        return shape.buffer(radius, quad_segs=arcs)
    corners = np.array(rect.exterior.coords)[:-1]
    parts = [shapely.affinity.translate(shape, float(dx), float(dy)) for dx, dy in corners]
    rings = [g for g in getattr(shape, "geoms", [shape])]
    for g in rings:
        for ring in [g.exterior, *g.interiors]:
            cs = np.array(ring.coords)
            for (ax, ay), (bx, by) in zip(cs[:-1], cs[1:], strict=True):
                pts = np.vstack([corners + (ax, ay), corners + (bx, by)])
                parts.append(shapely.MultiPoint(pts).convex_hull)
    return shapely.union_all([shape, *parts])
