"""A base's path as a sequence of motions (straight segments and rotations in place).

Poses are addressed by a parameter tau = motion index + fraction, because a
rotation has no length; `s_at(tau)` gives the path length travelled (section 4:
the centre path, turns cost nothing). Dense pose samples let the contact module
find where an event first happens; rotations of rect bases are sampled so that
no corner moves more than 0.005" between samples (AOD-D17).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import shapely
from shapely.geometry import GeometryCollection, LineString, Point

from rules.geometry.bases import RECT_RADIUS, Body, bodies_at, body_at, box_gaps, rects_at
from rules.geometry.rotation_sweep import rect_turn_sweeps
from rules.geometry.tolerance import ROTATION_STEP, SAMPLE_STEP
from rules.model.actions import Step, Turn
from rules.model.state import BaseShape

#: Subdivisions of one candidate interval, and how many intervals are searched at once.
STEPS = np.arange(1, 33) / 32.0
#: Events are located to this path length (well inside the 0.001" length tolerance).
PRECISION = 1e-4
CHUNK = 8
#: Float slack when a motion's sweep proves a target out of reach (inches).
NEAR_MARGIN = 1e-7
#: Sample intervals of a turn per stretch (the prefilter's unit, see `stretches`).
STRETCH_SAMPLES = 32
#: Slack on a gap between boxes, far above their float error (inches).
BOX_MARGIN = 1e-9
#: Float slack when the values at a stretch's ends prove it holds no crossing.
BOUND_MARGIN = 1e-9
#: Up to this many samples `crossing` searches them in one pass.
ONE_PASS = 64

#: `_sample_index` of every sample.
_ALL = slice(None)

#: A function of an array of taus returning an array of values.
Probe = Callable[[Any], Any]


@dataclass(frozen=True)
class Pose:
    x: float
    y: float
    facing: float

    @property
    def xy(self) -> tuple[float, float]:
        return (self.x, self.y)


@dataclass(frozen=True)
class Motion:
    start: Pose
    end: Pose
    s0: float

    @cached_property
    def length(self) -> float:
        return math.hypot(self.end.x - self.start.x, self.end.y - self.start.y)

    @cached_property
    def is_rotation(self) -> bool:
        return self.start.xy == self.end.xy

    def at(self, u: float) -> Pose:
        s, e = self.start, self.end
        return Pose(
            s.x + (e.x - s.x) * u, s.y + (e.y - s.y) * u, s.facing + (e.facing - s.facing) * u
        )


def shortest_turn(from_deg: float, to_deg: float) -> float:
    """Signed rotation in (-180, 180] that takes one facing to the other."""
    d = (to_deg - from_deg) % 360.0
    return d - 360.0 if d > 180.0 else d


class Track:
    """The poses a base goes through along a path. Immutable once built."""

    def __init__(self, base: BaseShape, start: Pose, motions: Sequence[Motion]) -> None:
        self.base = base
        self.start = start
        self.motions = tuple(motions)

    @classmethod
    def from_steps(
        cls, base: BaseShape, start: Pose, steps: Sequence[Step], final_facing: float | None = None
    ) -> Track:
        motions: list[Motion] = []
        cur = start
        s = 0.0
        for step in steps:
            if isinstance(step, Turn):
                if step.angle == 0:
                    continue
                nxt = Pose(cur.x, cur.y, cur.facing + step.angle)
            else:
                if math.isclose(step.x, cur.x, abs_tol=1e-9) and math.isclose(
                    step.y, cur.y, abs_tol=1e-9
                ):
                    continue  # a point equal to the current one is ignored (contract)
                nxt = Pose(step.x, step.y, cur.facing)
            m = Motion(cur, nxt, s)
            s += m.length
            motions.append(m)
            cur = nxt
        if final_facing is not None:
            turn = shortest_turn(cur.facing, final_facing)
            if abs(turn) > 1e-9:
                nxt = Pose(cur.x, cur.y, cur.facing + turn)
                motions.append(Motion(cur, nxt, s))
        return cls(base, start, motions)

    # -- measures ---------------------------------------------------------------
    @cached_property
    def length(self) -> float:
        return sum(m.length for m in self.motions)

    @property
    def end(self) -> Pose:
        return self.motions[-1].end if self.motions else self.start

    @property
    def tau_end(self) -> float:
        return float(len(self.motions))

    @cached_property
    def turns_rect(self) -> bool:
        """A rect base turns somewhere along the path (sampled in 0.005" corner steps)."""
        return not self.base.is_circle and any(m.is_rotation for m in self.motions)

    @property
    def translates(self) -> bool:
        return any(not m.is_rotation for m in self.motions)

    def _split(self, tau: float) -> tuple[int, float]:
        if not self.motions:
            return 0, 0.0
        i = min(int(tau), len(self.motions) - 1)
        return i, min(max(tau - i, 0.0), 1.0)

    def pose_at(self, tau: float) -> Pose:
        if not self.motions:
            return self.start
        i, u = self._split(tau)
        return self.motions[i].at(u)

    def s_at(self, tau: float) -> float:
        if not self.motions:
            return 0.0
        i, u = self._split(tau)
        m = self.motions[i]
        return m.s0 + m.length * u

    def tau_at_length(self, s: float) -> float:
        """The first tau at which the path length reaches s."""
        for i, m in enumerate(self.motions):
            if m.length > 0 and s <= m.s0 + m.length:
                return i + max(0.0, (s - m.s0) / m.length)
        return self.tau_end

    def points(self) -> list[tuple[float, float]]:
        """Centre polyline (rotations dropped)."""
        pts = [self.start.xy]
        for m in self.motions:
            if not m.is_rotation:
                pts.append(m.end.xy)
        return pts

    def centre_line(self) -> Any:
        pts = self.points()
        return Point(pts[0]) if len(pts) == 1 else LineString(pts)

    def body_at(self, tau: float, shrink: float = 0.0) -> Body:
        p = self.pose_at(tau)
        return body_at(self.base, p.x, p.y, p.facing, shrink)

    # -- samples ----------------------------------------------------------------
    @cached_property
    def sample_counts(self) -> list[int]:
        """Per motion, how many sample intervals it is cut into."""
        counts = []
        for m in self.motions:
            if m.is_rotation:
                if self.base.is_circle:
                    n = 1
                else:
                    arc = abs(math.radians(m.end.facing - m.start.facing)) * self.base.radius
                    n = max(1, math.ceil(arc / ROTATION_STEP))
            else:
                n = max(1, math.ceil(m.length / SAMPLE_STEP))
            counts.append(n)
        return counts

    @cached_property
    def samples(self) -> tuple[Any, Any, Any, Any]:
        """(tau, x, y, facing) arrays of dense poses, start and end included."""
        # i + k / n, as `stretch_ends` computes them (the same doubles, arrays at a time).
        tau = np.concatenate(
            [[0.0]] + [i + np.arange(1, n + 1) / n for i, n in enumerate(self.sample_counts)]
        )
        return (tau, *self.poses(tau))

    @cached_property
    def stretches(self) -> list[tuple[int, int, int]]:
        """(motion, k0, k1): the path cut at samples into stretches of at most
        STRETCH_SAMPLES sample intervals (one per translation, a turn's thousands of
        samples in pieces), so that `crossing` evaluates only those near a target."""
        out = []
        for i, n in enumerate(self.sample_counts):
            step = n if not self.motions[i].is_rotation else STRETCH_SAMPLES
            out += [(i, k, min(k + step, n)) for k in range(0, n, step)]
        return out

    @cached_property
    def stretch_ends(self) -> Any:
        """The taus where stretches meet (samples, computed as `samples` does), 0 first."""
        counts = self.sample_counts
        return np.array([0.0] + [i + k1 / counts[i] for i, _, k1 in self.stretches])

    @cached_property
    def _table(self) -> Any:
        """Per motion: start x, y, facing and their changes (rows of a 6 x n array)."""
        return np.array(
            [
                [
                    m.start.x,
                    m.start.y,
                    m.start.facing,
                    m.end.x - m.start.x,
                    m.end.y - m.start.y,
                    m.end.facing - m.start.facing,
                ]
                for m in self.motions
            ]
        ).T.copy()

    def poses(self, taus: Any) -> tuple[Any, Any, Any]:
        """Vectorised pose_at: x, y and facing arrays."""
        taus = np.asarray(taus, dtype=float)
        if not self.motions:
            s = self.start
            one = np.ones_like(taus)
            return one * s.x, one * s.y, one * s.facing
        last = len(self.motions) - 1
        first_i, last_i = min(int(taus[0]), last), min(int(taus[-1]), last)
        if first_i == last_i and taus[0] <= taus[-1]:
            # All in one motion (dense searches): plain arithmetic, no gathering.
            m = self.motions[first_i]
            u = taus - first_i
            return (
                m.start.x + (m.end.x - m.start.x) * u,
                m.start.y + (m.end.y - m.start.y) * u,
                m.start.facing + (m.end.facing - m.start.facing) * u,
            )
        i = taus.astype(np.intp)
        np.minimum(i, last, out=i)
        u = taus - i
        x0, y0, f0, dx, dy, df = self._table[:, i]
        return x0 + dx * u, y0 + dy * u, f0 + df * u

    def sample_distances(self, geom: Any, shrink: float = 0.0, taus: Any = None) -> Any:
        """Body-to-geometry distance at every sample, or at `taus` (<= 0: touching)."""
        if self.base.is_circle and isinstance(geom, Point):
            # Circle to circle (a base's centre): plain arithmetic, no shapely points.
            xs, ys = self._centres(taus)
            return np.hypot(xs - geom.x, ys - geom.y) - (self.base.diameter / 2 - shrink)
        cores, radius = self.bodies_for(taus, shrink)
        return shapely.distance(cores, geom) - radius

    def bodies_for(self, taus: Any = None, shrink: float = 0.0) -> tuple[Any, float]:
        """The bodies at `taus` (every sample when None): the samples' own, built once,
        when taus are the samples or the part of them `crossing` evaluates."""
        index = self._sample_index(taus)
        if index is not None:
            return self._sample_bodies(shrink, index)
        xs, ys, fs = self.poses(taus)
        return bodies_at(self.base, xs, ys, fs, shrink)

    def bounds_for(self, taus: Any = None, shrink: float = 0.0) -> tuple[Any, float]:
        """The bounds (minx, miny, maxx, maxy rows) of the bodies' cores at `taus`, and
        their radius: what shapely.bounds gives for `bodies_for`, from the same
        coordinates, without building the polygons."""
        if self.base.is_circle:
            xs, ys = self._centres(taus)
            return np.column_stack([xs, ys, xs, ys]), self.base.diameter / 2 - shrink
        index = self._sample_index(taus)
        if index is not None:
            rects = self._sample_rects(shrink)
            rects = rects if index is _ALL else rects[index]
        else:
            xs, ys, fs = self.poses(taus)
            rects = rects_at(self.base, xs, ys, fs, shrink)
        lo, hi = rects.min(axis=1), rects.max(axis=1)
        return np.column_stack([lo, hi]), RECT_RADIUS

    def _sample_index(self, taus: Any) -> Any:
        """Which samples `taus` are (_ALL: every one), or None when they are not samples:
        every sample, or the part of them `crossing` last handed to its value."""
        if taus is None or taus is self.samples[0]:
            return _ALL
        subset = self.__dict__.get("_subset")
        if subset is not None and taus is subset[0]:
            return subset[1]
        return None

    def _sample_rects(self, shrink: float) -> Any:
        """The corners of a rect base at every sample (rects_at), computed once per
        shrink: cheap arithmetic, from which the polygons are built as they are needed."""
        cache: dict[float, Any] = self.__dict__.setdefault("_rects", {})
        if shrink not in cache:
            _, xs, ys, fs = self.samples
            cache[shrink] = rects_at(self.base, xs, ys, fs, shrink)
        return cache[shrink]

    def _sample_bodies(self, shrink: float, index: Any = _ALL) -> tuple[Any, float]:
        """The bodies at the samples `index`, each built once per track and shrink, when
        first asked for: a turn's thousands of samples are mostly far from every
        target, and the prefilters spare them."""
        if self.base.is_circle:
            cache: dict[float, tuple[Any, float]] = self.__dict__.setdefault("_bodies", {})
            if shrink not in cache:
                _, xs, ys, fs = self.samples
                cache[shrink] = bodies_at(self.base, xs, ys, fs, shrink)
            cores, radius = cache[shrink]
            return (cores if index is _ALL else cores[index]), radius
        built: dict[float, Any] = self.__dict__.setdefault("_polygons", {})
        if shrink not in built:
            built[shrink] = np.full(len(self.samples[0]), None, dtype=object)
        cores = built[shrink]
        wanted = cores if index is _ALL else cores[index]
        missing = shapely.is_missing(wanted)
        if missing.any():
            at = (
                np.arange(len(cores))[index][missing] if index is not _ALL else missing.nonzero()[0]
            )
            cores[at] = shapely.polygons(self._sample_rects(shrink)[at])
            wanted = cores if index is _ALL else cores[index]
        return wanted, RECT_RADIUS

    def _centres(self, taus: Any) -> tuple[Any, Any]:
        if taus is None or taus is self.samples[0]:
            _, xs, ys, _ = self.samples
            return xs, ys
        xs, ys, _ = self.poses(taus)
        return xs, ys

    # -- sweeps -----------------------------------------------------------------
    def swept(self, shrink: float = 0.0) -> Body:
        """The union of the base over every pose of the path (section 4)."""
        return self._swept(shrink)

    def _swept(self, shrink: float) -> Body:
        cache: dict[float, Body] = self.__dict__.setdefault("_swept_cache", {})
        if shrink in cache:
            return cache[shrink]
        if self.base.is_circle:
            pts = self.points()
            r = self.base.diameter / 2 - shrink
            body = Body(None, r, xy=pts[0]) if len(pts) == 1 else Body(None, r, line=pts)
        else:
            # Exact: each motion's sweep (a translation's hull of both rects, a turn's
            # rects and corner sectors), so no pose by pose union (rotation_sweep).
            parts = [body_at(self.base, *self.start.xy, self.start.facing, shrink).core]
            pieces = self.motion_sweeps(shrink)[0]
            if pieces:
                parts.extend(shapely.get_parts(np.array(pieces, dtype=object)))
            body = Body(
                parts[0] if len(parts) == 1 else GeometryCollection(parts),
                body_at(self.base, 0, 0, 0, shrink).radius,
            )
        cache[shrink] = body
        return body

    def motion_sweeps(self, shrink: float = 0.0) -> tuple[list[Any], float]:
        """Per motion, a core geometry that, grown by the returned radius, holds the base
        at every pose of that motion (exactly its sweep, arcs within ARC_TOLERANCE)."""
        cache: dict[float, tuple[list[Any], float]] = self.__dict__.setdefault("_motion_sweeps", {})
        if shrink in cache:
            return cache[shrink]
        pieces: list[Any] = []
        if self.base.is_circle:
            radius = self.base.diameter / 2 - shrink
            for m in self.motions:
                pieces.append(
                    Point(m.start.xy) if m.is_rotation else LineString([m.start.xy, m.end.xy])
                )
        else:
            radius = body_at(self.base, 0, 0, 0, shrink).radius
            w = max(self.base.width - 2 * shrink, 1e-6)
            ln = max(self.base.length - 2 * shrink, 1e-6)
            turning = [i for i, m in enumerate(self.motions) if m.is_rotation]
            moving = [i for i, m in enumerate(self.motions) if not m.is_rotation]
            out = np.empty(len(self.motions), dtype=object)
            out[turning] = rect_turn_sweeps(
                [
                    (m.start.x, m.start.y, m.start.facing, m.end.facing)
                    for m in (self.motions[i] for i in turning)
                ],
                w,
                ln,
            )
            if moving:
                # A translation sweeps the convex hull of its start and end rects.
                ms = [self.motions[i] for i in moving]
                xs = np.array([[m.start.x, m.end.x] for m in ms]).ravel()
                ys = np.array([[m.start.y, m.end.y] for m in ms]).ravel()
                fs = np.repeat([m.start.facing for m in ms], 2)
                rects, _ = bodies_at(self.base, xs, ys, fs, shrink)
                corners = shapely.get_coordinates(rects).reshape(len(ms), -1, 2)
                out[moving] = shapely.convex_hull(shapely.multipoints(corners))
            pieces = list(out)
        cache[shrink] = (pieces, radius)
        return pieces, radius

    def stretch_sweeps(self, shrink: float = 0.0) -> tuple[Any, Any]:
        """Per stretch, a core geometry and a reach such that the core grown by the reach
        holds the base at every pose of the stretch: for a rect, the convex hull of its
        first and last pose, grown by the most a corner's arc bulges out of its chord
        (none for a translation: that hull is its sweep)."""
        cache: dict[float, tuple[Any, Any]] = self.__dict__.setdefault("_stretch_sweeps", {})
        if shrink in cache:
            return cache[shrink]
        if self.base.is_circle or not self.motions:
            pieces, radius = self.motion_sweeps(shrink)
            out = (np.array(pieces, dtype=object), np.full(len(pieces), radius))
        else:
            counts = self.sample_counts
            taus = np.array(
                [(i + k0 / counts[i], i + k1 / counts[i]) for i, k0, k1 in self.stretches]
            ).ravel()
            xs, ys, fs = self.poses(taus)
            rects, radius = bodies_at(self.base, xs, ys, fs, shrink)
            corners = shapely.get_coordinates(rects).reshape(len(taus) // 2, -1, 2)
            half_turn = np.radians(np.abs(np.diff(fs.reshape(-1, 2), axis=1)[:, 0])) / 2
            d = (
                math.hypot(
                    max(self.base.width - 2 * shrink, 1e-6),
                    max(self.base.length - 2 * shrink, 1e-6),
                )
                / 2
            )
            bulge = d * (1 - np.cos(np.minimum(half_turn, math.pi / 2))) + 1e-12
            out = (shapely.convex_hull(shapely.multipoints(corners)), radius + bulge)
        cache[shrink] = out
        return out

    def stretch_bounds(self) -> Any:
        """Per stretch, the bounding box (minx, miny, maxx, maxy rows) of the base at
        every pose of that stretch."""
        pieces, reach = self.stretch_sweeps()
        if not len(pieces):
            return np.zeros((0, 4))
        return shapely.bounds(pieces) + np.outer(reach, [-1, -1, 1, 1])

    def stretches_near(self, geom: Any, within: float, shrink: float = 0.0) -> Any:
        """Per stretch, whether the base (shrunk by `shrink`) may come within `within` of
        geom along it: False proves it never does (a prefilter for `crossing`)."""
        pieces, reach = self.stretch_sweeps(shrink)
        if not len(pieces):
            return np.zeros(0, dtype=bool)
        # The gap between boxes bounds the distance from below: the exact distance is
        # needed only where the box of a stretch's sweep comes near geom's box
        # (BOX_MARGIN outweighs the float error of either, so the answer is the same).
        gaps = box_gaps(self._stretch_boxes(shrink), np.asarray(geom.bounds)) - reach
        near = gaps <= within + NEAR_MARGIN + BOX_MARGIN
        if near.any():
            near[near] = shapely.distance(pieces[near], geom) - reach[near] <= within + NEAR_MARGIN
        return near

    def _stretch_boxes(self, shrink: float) -> Any:
        """Per stretch, the bounds of its sweep's core (see `stretch_sweeps`)."""
        cache: dict[float, Any] = self.__dict__.setdefault("_stretch_box_cache", {})
        if shrink not in cache:
            cache[shrink] = shapely.bounds(self.stretch_sweeps(shrink)[0])
        return cache[shrink]

    # -- locating events --------------------------------------------------------
    def crossing(
        self,
        value: Probe,
        limit: float,
        above: bool = False,
        after: float = 0.0,
        centre: bool = False,
        near: Any = None,
    ) -> float | None:
        """First tau >= `after` where value(tau) <= limit (or > limit with `above`).

        `value` maps an array of taus to distances that change by at most the
        distance the base travels (1-Lipschitz: a translation moves every point by
        its length, a rotation moves no point further than the corners). Between two
        samples v0, v1 that are apart by g, the value can dip no lower than
        (v0 + v1 - g) / 2, so only intervals that may cross are examined, densely
        and in order: no event between samples is missed, however coarse they are;
        it is located to PRECISION.
        `centre`: the value depends on the centre alone (rotations do not move it).
        `near`: per stretch, False where the value provably stays on the near side of
        the limit throughout (`stretches_near`). Such stretches, and those the values
        at their ends settle (`_may_cross`), are not sampled: every interval lies
        within one stretch, so they hold no crossing, and the others are searched
        exactly as in one pass over every sample: the same tau is found.
        """
        if after <= 0.0:
            taus, xs, ys, fs = self.samples
        else:
            tau = self.samples[0]
            taus = np.concatenate([[after], tau[tau > after + 1e-12]])
            xs, ys, fs = self.poses(taus)
        if len(taus) <= ONE_PASS or not self.turns_rect:
            # Few samples, or no turn of a rect (its thousands of samples): one pass.
            values = np.asarray(value(taus), dtype=float)
            return self._first_crossing(taus, xs, ys, fs, values, value, limit, above, centre)
        # Stretch by stretch in path order, in growing batches, so that an early event
        # costs the samples before it only; a batch's last sample is the next one's
        # first, so every interval is searched as it would be in one pass.
        ends = self.stretch_ends
        last = len(ends) - 2
        within, ending = (
            self._stretch_of_samples if taus is self.samples[0] else self._stretch_of(taus)
        )
        # The stretch of the first interval (`after` may lie a hair before its start).
        first = int(ending[1]) if len(taus) > 1 else int(within[0])
        keep = self._may_cross(value, ends, first, limit, above, near, centre)
        at = self._sample_at_ends if taus is self.samples[0] else self._at_ends(taus)
        never = -np.inf if above else np.inf
        p, size = first, 1
        while p <= last:
            q = min(p + size, last + 1)
            p_keep = np.zeros_like(keep)
            p_keep[p:q] = keep[p:q]
            if p_keep.any():
                lo = 0 if p == first else int(at[p])
                sl = slice(lo, int(at[q]) + 1)
                needed = p_keep[within[sl]] | p_keep[ending[sl]]
                needed[0] |= p == first  # the first tau is always judged
                values = np.full(len(needed), never)
                part = taus[sl][needed]
                if taus is self.samples[0]:  # bodies_for takes them from the samples' own
                    self.__dict__["_subset"] = (part, needed.nonzero()[0] + lo)
                values[needed] = np.asarray(value(part), dtype=float)
                found = self._first_crossing(
                    taus[sl], xs[sl], ys[sl], fs[sl], values, value, limit, above, centre
                )
                if found is not None:
                    return found
            p, size = q, min(size * 2, CHUNK * 2)
        return None

    def _stretch_of(self, taus: Any) -> tuple[Any, Any]:
        """Per tau, the stretch it lies in and the stretch of the interval ending at it."""
        ends = self.stretch_ends
        last = len(ends) - 2
        return (
            np.clip(np.searchsorted(ends, taus, side="right") - 1, 0, last),
            np.clip(np.searchsorted(ends, taus, side="left") - 1, 0, last),
        )

    @cached_property
    def _stretch_of_samples(self) -> tuple[Any, Any]:
        return self._stretch_of(self.samples[0])

    def _at_ends(self, taus: Any) -> Any:
        """Per stretch end, the index of the first of `taus` at or after it."""
        return np.minimum(np.searchsorted(taus, self.stretch_ends, side="left"), len(taus) - 1)

    @cached_property
    def _sample_at_ends(self) -> Any:
        return self._at_ends(self.samples[0])

    def _may_cross(
        self,
        value: Probe,
        ends: Any,
        first: int,
        limit: float,
        above: bool,
        near: Any,
        centre: bool,
    ) -> Any:
        """Per stretch, whether it may hold a crossing (the stretch holding the first tau
        always may): not where `near` says it cannot, nor where the values at its two
        ends v0, v1 and the most the base moves along it, g, prove it cannot: the value
        stays above (v0 + v1 - g) / 2 and below (v0 + v1 + g) / 2 there (the bound
        `crossing` uses between samples)."""
        keep = np.ones(len(ends) - 1, dtype=bool) if near is None else near.copy()
        ask = np.zeros(len(ends), dtype=bool)
        ask[:-1] |= keep
        ask[1:] |= keep
        ask[: first + 1] = False  # the stretch holding the first tau needs no bound
        if not ask.any():
            return keep
        v = np.full(len(ends), np.nan)
        index = np.searchsorted(self.samples[0], ends[ask])  # every end is a sample
        part = self.samples[0][index]
        self.__dict__["_subset"] = (part, index)  # bodies_for takes the samples' own
        v[ask] = np.asarray(value(part), dtype=float)
        g = self._stretch_gaps(centre)
        with np.errstate(invalid="ignore"):
            if above:
                settled = (v[:-1] + v[1:] + g) / 2 < limit - BOUND_MARGIN
            else:
                settled = (v[:-1] + v[1:] - g) / 2 > limit + BOUND_MARGIN
        settled[: first + 1] = False
        return keep & ~settled

    def _stretch_gaps(self, centre: bool) -> Any:
        """Per stretch, the most the base (or the centre) moves along it (`_gaps` of the
        stretch ends), computed once per track."""
        cache: dict[bool, Any] = self.__dict__.setdefault("_stretch_gap_cache", {})
        if centre not in cache:
            cache[centre] = self._gaps(*self.poses(self.stretch_ends), centre)
        return cache[centre]

    def _gaps(self, xs: Any, ys: Any, fs: Any, centre: bool, axis: int = -1) -> Any:
        """How far any point of the base (or the centre) may move between samples."""
        gaps = np.hypot(np.diff(xs, axis=axis), np.diff(ys, axis=axis))
        if not centre and not self.base.is_circle:
            gaps = gaps + np.abs(np.radians(np.diff(fs, axis=axis))) * self.base.radius
        return gaps

    def _first_crossing(
        self,
        taus: Any,
        xs: Any,
        ys: Any,
        fs: Any,
        values: Any,
        value: Probe,
        limit: float,
        above: bool,
        centre: bool,
    ) -> float | None:
        def crossed(vals: Any) -> Any:
            vals = np.asarray(vals, dtype=float)
            return vals > limit if above else vals <= limit

        hit = crossed(values)
        if hit[0]:
            return float(taus[0])
        v = np.maximum((limit - values) if above else (values - limit), 0.0)  # 0: crossed
        gaps = self._gaps(xs, ys, fs, centre)
        may = ((v[:-1] + v[1:] - gaps) / 2 <= 0) | hit[1:]
        cand = np.nonzero(may)[0]
        if len(cand) == 0:
            return None
        # Within a candidate interval the value moves no faster than the base, so the
        # crossing lies at least v(a) after a and v(b) before b (unless b has crossed):
        # sample only there, 32 points per interval, candidates in path order (1, 2, 4,
        # then 8 intervals per call); then refine by 32 around the first crossing until
        # it is located to PRECISION.
        a, b = taus[cand], taus[cand + 1]
        g = np.maximum(gaps[cand], 1e-12)
        lo = a + np.clip(v[cand] / g, 0.0, 1.0) * (b - a)
        hi = np.where(hit[cand + 1], b, b - np.clip(v[cand + 1] / g, 0.0, 1.0) * (b - a))
        hi = np.maximum(hi, lo)
        start, size = 0, 1
        while start < len(cand):
            sl = slice(start, start + size)
            start, size = start + size, min(size * 2, CHUNK)
            l0, h0 = lo[sl], hi[sl]
            grid = (l0[:, None] + (h0 - l0)[:, None] * STEPS[None, :]).ravel()
            found = np.nonzero(crossed(value(grid)))[0]
            if len(found) == 0:
                continue
            j = int(found[0])
            row, col = divmod(j, len(STEPS))
            t_lo = float(grid[j - 1]) if col else float(l0[row])
            t_hi = float(grid[j])
            while self.s_at(t_hi) - self.s_at(t_lo) > PRECISION:
                fine = t_lo + (t_hi - t_lo) * STEPS
                k = int(np.argmax(crossed(value(fine))))
                t_lo, t_hi = (float(fine[k - 1]) if k else t_lo), float(fine[k])
            return t_hi
        return None
