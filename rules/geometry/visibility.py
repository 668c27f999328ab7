"""Shortest paths for a point among polygonal obstacles (a visibility graph), and the
region reachable within a length budget.

Obstacles are already inflated by the moving base's radius (plus margins), so the
moving thing is a point. Nodes are the obstacles' vertices; Dijkstra gives the
shortest distance to each; the reachable region is the union of star polygons
cast by rays from every reached node with its remaining budget, clipped to free
space. It is conservative: a star's rays stop short of any vertex poking between
two of them (`_short_of_corners`), so each point of a star is seen from its node and
`path_to` reaches it; `path_to` never relies on the region and always returns a path
whose every segment lies in free space.

The work is bounded by a count, not a clock (`Work`: visibility tests and corners
settled), so that a long move on a crowded table costs what a short one does on any
machine, with the same result everywhere (no action the protocol accepts should cost
more than 50 ms). What one test costs grows with the corners of free space, so a caller
serving a live table also sets a deadline (deadline.py), which stops the search as the
count does, with the same guarantee below. Dijkstra settles corners in increasing
distance, testing a segment only when it is the shortest way left (`_dijkstra`); when
the bound stops it, the length H of that way is a horizon: every corner nearer than H is
settled with its exact distance, so every point within H of path is in the star of its
last corner, cast with H less that corner's distance. The region is then exactly "where
the centre can end within H" (up to the ray spacing, never beyond it), a subset of the
truth, and `horizon` says so (`complete` is False). `path_to` uses settled corners only:
its paths are legal and within the budget, wherever the point.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point
from shapely.geometry.polygon import orient

from rules.geometry.deadline import expired
from rules.geometry.segments import ray_crossings, ring_segments

RAYS = 48
_RAY_ANGLES = np.linspace(0, 2 * math.pi, RAYS, endpoint=False)
_RAY_DX, _RAY_DY = np.cos(_RAY_ANGLES), np.sin(_RAY_ANGLES)
_RAY_COS, _RAY_SIN = _RAY_DX, _RAY_DY
#: Stars cast in one vectorised call (rays x the edges near each star numbers each).
STARS_AT_ONCE = 64


@dataclass(frozen=True)
class Work:
    """How much one graph may compute: segments tested against free space, and corners
    settled (each casts a star in `region`)."""

    tests: int
    corners: int

    def share(self, num: int, den: int) -> Work:
        """`num`/`den` of this bound, for a search that adds to another."""
        return Work(self.tests * num // den, self.corners * num // den)


#: Sized on the reference board (bench/validate.py's, bench/worst_case.py): a reach of any
#: length from any of its units stays well inside the 50 ms an action may cost, and the
#: first unit's 12" move, which needs just under this bound, is still searched whole
#: (docs/benchmarks.md, "Worst case within the engine's bounds").
WORK = Work(tests=300, corners=100)


@dataclass
class VisibilityGraph:
    free: Any  # prepared free region (points may be anywhere in it)
    start: tuple[float, float]
    budget: float
    nodes: list[tuple[float, float]] = field(default_factory=list)
    dist: list[float] = field(default_factory=list)
    prev: list[int] = field(default_factory=list)
    edges: Any = None  # obstacle boundary segments (N x 4 array) for ray casting
    #: Per node, its neighbours along the boundary (nan for the start): a shortest path
    #: leaves a corner only along a line that keeps both on one side (`_tangent`).
    sides: Any = None
    #: Path length to which distances (and the region) are exact: the budget unless
    #: the work bound stopped Dijkstra first.
    horizon: float = 0.0
    #: Per node, whether Dijkstra settled it (its distance is exact).
    settled: list[bool] = field(default_factory=list)
    #: The work Dijkstra did (visibility tests, corners settled).
    used: Work = Work(0, 0)

    @property
    def complete(self) -> bool:
        return self.horizon >= self.budget

    @classmethod
    def build(
        cls, free: Any, start: tuple[float, float], budget: float, work: Work | None = None
    ) -> VisibilityGraph:
        """The graph of `free` around `start`, searched within `budget` and `work`
        (None: the module's `WORK`, read at the call so that a test may lower it)."""
        shapely.prepare(free)
        g = cls(free, start, budget)
        pts: list[tuple[float, float]] = [start]
        sides: list[Any] = [np.full((1, 4), np.nan)]
        segs: list[tuple[float, float, float, float]] = []
        polys = list(getattr(free, "geoms", [free]))
        sx, sy = start
        for poly in polys:
            if poly.is_empty:
                continue
            poly = orient(poly, 1.0)  # free space on the left of every ring
            for ring in [poly.exterior, *poly.interiors]:
                cs = np.array(ring.coords)[:-1]
                nxt, prv = np.roll(cs, -1, axis=0), np.roll(cs, 1, axis=0)
                segs.extend(np.hstack([cs, nxt]).tolist())
                # Shortest paths bend only at reflex corners of free space (right turns).
                turn = (cs[:, 0] - prv[:, 0]) * (nxt[:, 1] - cs[:, 1]) - (cs[:, 1] - prv[:, 1]) * (
                    nxt[:, 0] - cs[:, 0]
                )
                near = np.hypot(cs[:, 0] - sx, cs[:, 1] - sy) <= budget
                pts.extend(map(tuple, cs[(turn < 0) & near].tolist()))
                sides.append(np.hstack([prv, nxt])[(turn < 0) & near])
        g.edges = np.array(segs) if segs else np.zeros((0, 4))
        g.sides = np.vstack(sides)
        g.nodes = pts
        g._dijkstra(WORK if work is None else work)
        return g

    @staticmethod
    def star(free: Any, origin: tuple[float, float], budget: float, rays: int = 180) -> Any:
        """The part of the polygon `free` that `origin` (inside it) sees within `budget`,
        as a union of thin wedges with their apex at `origin`, each wholly in `free`: so
        the straight line from `origin` to any point of it lies in it. The wedges reach
        the edge of `free` within float noise where it bulges away from `origin` (its
        rays are cut at their first edge, not short of it), narrowing where a corner
        pokes between two rays. A system keeps a path there until it leaves for good
        (aod: hindering terrain a unit starts touching, AOD-D4)."""
        e = ring_segments(free)
        angles = np.linspace(0, 2 * math.pi, rays, endpoint=False)
        dx, dy = np.cos(angles)[:, None], np.sin(angles)[:, None]
        lengths = np.full(rays, float(budget))
        if len(e):
            wx, wy = (e[:, 0] - origin[0])[None, :], (e[:, 1] - origin[1])[None, :]
            ex, ey = (e[:, 2] - e[:, 0])[None, :], (e[:, 3] - e[:, 1])[None, :]
            t, u, den = ray_crossings(wx, wy, ex, ey, dx, dy)
            hit = (np.abs(den) > 1e-12) & (t > 1e-9) & (u >= -1e-9) & (u <= 1 + 1e-9)
            lengths = np.minimum(lengths, np.where(hit, t, np.inf).min(axis=1))
        # Each wedge first as far as both its rays go (neighbours then share their tips,
        # and the outline has no steps), then, where that is not wholly in free space,
        # as far as the shorter one, shrinking.
        lengths = lengths * (1 - 1e-7)
        first = np.stack([lengths, np.roll(lengths, -1)], axis=1)
        short = np.minimum(first[:, :1], first[:, 1:])
        a = np.stack([np.cos(angles), np.sin(angles)], axis=1)
        b = np.roll(a, -1, axis=0)
        shapely.prepare(free)
        tips = origin + first[:, :1] * a
        outline = shapely.Polygon(tips)
        if outline.is_valid and shapely.covers(free, outline):
            return outline  # every wedge whole: the outline through the tips
        kept: list[Any] = []
        todo = np.arange(rays)
        for shrink in (None, 1.0, 0.999, 0.99, 0.9, 0.5, 0.2):
            m = first[todo] if shrink is None else np.repeat(short[todo] * shrink, 2, axis=1)
            o = np.broadcast_to(np.asarray(origin, dtype=float), (len(todo), 2))
            tris = shapely.polygons(
                np.stack([o, o + m[:, :1] * a[todo], o + m[:, 1:] * b[todo], o], axis=1)
            )
            seen = shapely.covers(free, tris)
            kept.extend(tris[seen])
            todo = todo[~seen]
            if not len(todo):
                break
        return shapely.union_all(kept) if kept else Point(origin)

    def _visible(self, a: tuple[float, float], targets: list[int]) -> list[int]:
        if not targets:
            return []
        lines = shapely.linestrings([[a, self.nodes[t]] for t in targets])
        ok = shapely.covers(self.free, lines)
        return [t for t, v in zip(targets, ok, strict=True) if v]

    def _dijkstra(self, work: Work) -> None:
        """Settle corners in increasing distance until the budget or `work` runs out.

        Lazily: each settled corner offers its candidates nearest first (one heap entry
        per corner, its next candidate at its distance plus the gap), and a segment is
        tested against free space only when its entry comes first, so the tests spent
        grow with the distance explored, not with the budget. The first visible entry
        for a corner is its shortest distance (every other way is at least as long), the
        same sum of the same numbers as an eager Dijkstra's. When `work` runs out,
        `horizon` is the first entry left unresolved: every corner nearer is settled."""
        n = len(self.nodes)
        xy = np.array(self.nodes)
        xs, ys = xy[:, 0].copy(), xy[:, 1].copy()
        self.dist = [math.inf] * n
        self.prev = [-1] * n
        done = np.zeros(n, dtype=bool)
        offers: list[tuple[list[int], list[float]]] = [([], [])] * n
        heap: list[tuple[float, int, int]] = []
        tests = corners = 0

        def settle(i: int, d: float, via: int) -> None:
            """Corner i is at `d` by way of `via`: offer its candidates, nearest first."""
            nonlocal corners
            corners += 1
            done[i], self.dist[i], self.prev[i] = True, d, via
            dx, dy = xs - xs[i], ys - ys[i]
            gaps = np.hypot(dx, dy)
            ok = (gaps <= self.budget - d) & ~done
            if i:
                ok &= self._tangent(i, dx, dy)
            cand = np.nonzero(ok)[0]
            cand = cand[np.argsort(gaps[cand], kind="stable")]
            if len(cand):
                offers[i] = (cand.tolist(), gaps[cand].tolist())
                heapq.heappush(heap, (d + offers[i][1][0], i, 0))

        self.horizon = self.budget
        settle(0, 0.0, -1)
        while heap:
            nd, i, k = heap[0]
            targets, gaps = offers[i]
            j = targets[k]
            if not done[j]:
                if tests >= work.tests or corners >= work.corners or expired():
                    # A test's cost grows with the map's corners: a caller's deadline
                    # stops the search as the count does, with the same horizon.
                    self.horizon = nd
                    break
                tests += 1
            heapq.heappop(heap)
            k += 1
            while k < len(targets) and done[targets[k]]:
                k += 1  # settled since it was offered: its entry would only be skipped
            if k < len(targets):
                heapq.heappush(heap, (self.dist[i] + gaps[k], i, k))
            if not done[j] and shapely.covers(self.free, shapely.linestrings([xy[i], xy[j]])):
                settle(j, nd, i)
        self.settled = done.tolist()
        self.used = Work(tests, corners)

    def _tangent(self, i: int, dx: Any, dy: Any) -> Any:
        """Per target (its offsets dx, dy from corner i), whether the line from corner i
        to it keeps both of i's neighbours on one side. A shortest path bends at a
        corner only so (else it could cut the corner), so Dijkstra need not leave a
        corner any other way: the distances it finds are the same, with a fraction of
        the visibility tests."""
        x, y = self.nodes[i]
        px, py, nx, ny = self.sides[i]
        c1 = dx * (py - y) - dy * (px - x)
        c2 = dx * (ny - y) - dy * (nx - x)
        return c1 * c2 >= 0

    # -- the region ---------------------------------------------------------
    def _ray_lengths_many(self, origins: Any, budgets: Any) -> Any:
        """Per origin (rows), how far each of the RAYS rays from it goes within its budget
        before an edge of free space. Each origin meets only the edges whose boxes come
        within its budget's box (any other lies farther along every ray than the budget,
        so leaving it out changes nothing): all the (origin, edge) pairs at once, then the
        nearest hit per origin and ray. Neighbouring rays bound each other, and both
        rays of a wedge stop short of a vertex poking into it, so that each wedge is seen
        whole from its origin."""
        best = np.repeat(budgets[:, None], RAYS, axis=1)
        star = edge = np.zeros(0, dtype=int)
        if len(self.edges):
            lox, hix, loy, hiy, ex, ey = self._edge_table
            ox, oy, b = origins[:, :1], origins[:, 1:], budgets[:, None]
            near = (lox <= ox + b) & (hix >= ox - b) & (loy <= oy + b) & (hiy >= oy - b)
            star, edge = np.nonzero(near)  # pairs, grouped by origin
            if len(star):
                dx, dy = _RAY_DX[None, :], _RAY_DY[None, :]
                wx = (self.edges[edge, 0] - origins[star, 0])[:, None]
                wy = (self.edges[edge, 1] - origins[star, 1])[:, None]
                ex, ey = ex[edge][:, None], ey[edge][:, None]
                t, u, den = ray_crossings(wx, wy, ex, ey, dx, dy)
                hit = (np.abs(den) > 1e-12) & (t > 1e-7) & (u >= -1e-9) & (u <= 1 + 1e-9)
                first = np.flatnonzero(np.r_[True, star[1:] != star[:-1]])
                nearest = np.minimum.reduceat(np.where(hit, t, np.inf), first, axis=0)
                best[star[first]] = np.minimum(best[star[first]], nearest)
        before = np.concatenate([best[:, -1:], best[:, :-1]], axis=1)
        after = np.concatenate([best[:, 1:], best[:, :1]], axis=1)
        lengths = np.minimum(best, np.minimum(before, after)) * 0.999
        return self._short_of_corners(origins, lengths, star, edge)

    def _short_of_corners(self, origins: Any, lengths: Any, star: Any, edge: Any) -> Any:
        """`lengths` (per origin and ray) cut short of every corner of free space that
        pokes into a star between two rays: a point behind such a corner lies in the
        star and its origin does not see it (the star would shade what `path_to` cannot
        reach). Both rays of the wedge are cut to just short of the corner, which leaves
        it outside; cutting only shrinks wedges, so one pass over the corners suffices.
        `star`, `edge`: the (origin, edge) pairs near each other, each edge's first
        point being a corner (every corner starts an edge)."""
        if not len(star):
            return lengths
        vx = self.edges[edge, 0] - origins[star, 0]
        vy = self.edges[edge, 1] - origins[star, 1]
        r = np.hypot(vx, vy)
        k = (np.mod(np.arctan2(vy, vx), 2 * math.pi) // (2 * math.pi / RAYS)).astype(int) % RAYS
        k1 = (k + 1) % RAYS
        la, lb = lengths[star, k], lengths[star, k1]
        ax, ay = la * _RAY_COS[k], la * _RAY_SIN[k]
        bx, by = lb * _RAY_COS[k1], lb * _RAY_SIN[k1]
        # The corner and the origin on one side of the line joining the two rays' ends.
        corner_side = (bx - ax) * (vy - ay) - (by - ay) * (vx - ax)
        origin_side = (bx - ax) * -ay - (by - ay) * -ax
        poking = (r > 1e-7) & (corner_side * origin_side > 0)
        if poking.any():
            rows, cut = star[poking], 0.999 * r[poking]
            np.minimum.at(lengths, (rows, k[poking]), cut)
            np.minimum.at(lengths, (rows, k1[poking]), cut)
        return lengths

    @cached_property
    def _edge_table(self) -> tuple[Any, ...]:
        """The edges' boxes and directions, computed once for every star."""
        e = self.edges
        return (
            np.minimum(e[:, 0], e[:, 2]),
            np.maximum(e[:, 0], e[:, 2]),
            np.minimum(e[:, 1], e[:, 3]),
            np.maximum(e[:, 1], e[:, 3]),
            e[:, 2] - e[:, 0],
            e[:, 3] - e[:, 1],
        )

    def region(self) -> Any:
        """Where the point can end within `horizon` (the budget when complete): the
        stars of the settled corners, each with what the horizon leaves it."""
        rems = np.where(self.settled, self.horizon - np.array(self.dist), 0.0)
        cast = np.nonzero(rems > 1e-6)[0]
        if not len(cast):
            return Point(self.start)
        xy = np.array(self.nodes)[cast]
        lengths = np.vstack(
            [
                self._ray_lengths_many(xy[k : k + STARS_AT_ONCE], rems[cast][k : k + STARS_AT_ONCE])
                for k in range(0, len(cast), STARS_AT_ONCE)
            ]
        )
        rings = np.stack([xy[:, :1] + lengths * _RAY_COS, xy[:, 1:] + lengths * _RAY_SIN], axis=2)
        stars = shapely.polygons(np.array(rings))  # one call for every star
        bad = ~shapely.is_valid(stars)
        stars[bad] = [star.buffer(0) for star in stars[bad]]
        return shapely.intersection(shapely.union_all(stars), self.free)

    def path_to(self, p: tuple[float, float]) -> list[tuple[float, float]] | None:
        if not self.free.covers(Point(p)):
            return None
        xy = np.array(self.nodes)
        gaps = np.hypot(xy[:, 0] - p[0], xy[:, 1] - p[1])
        total = np.array(self.dist) + gaps
        order = [i for i in np.argsort(total).tolist() if total[i] <= self.budget + 1e-9]
        for i in order:
            if self._visible(p, [i]):
                path = [p]
                while i != -1:
                    path.append(self.nodes[i])
                    i = self.prev[i]
                return list(reversed(path))
        return None


def inflate(geom: Any, distance: float) -> Any:
    """A conservative offset polygon (mitre joins lie outside the true rounded offset)."""
    return geom.buffer(distance, join_style="mitre", mitre_limit=3.0)
