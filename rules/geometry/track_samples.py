"""A track's dense samples: the poses where a base is measured along its path, and the
base's bodies and bounds there, each built once.

Rotations of rect bases are sampled so that no corner moves more than 0.005" between
samples (AOD-D17); the samples are cut into stretches so that a search evaluates only
those near its target.
"""

from __future__ import annotations

import math
from functools import cached_property
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point

from rules.geometry.bases import RECT_RADIUS, bodies_at, rects_at
from rules.geometry.tolerance import ROTATION_STEP, SAMPLE_STEP
from rules.geometry.track_path import PosePath
from rules.model.state import BaseShape

#: Sample intervals of a turn per stretch (the prefilter's unit, see `stretches`).
STRETCH_SAMPLES = 32

#: `sample_index` of every sample.
ALL = slice(None)


class TrackSamples:
    """The samples of `base` along `path`, with the bodies, bounds and distances at them."""

    def __init__(self, path: PosePath, base: BaseShape) -> None:
        self.path = path
        self.base = base
        #: (taus, their sample indices): the part of the samples a search last handed to
        #: its value, so that `bodies_for` takes their bodies from the samples' own.
        self.subset: tuple[Any, Any] | None = None
        self._rects: dict[float, Any] = {}
        self._bodies: dict[float, tuple[Any, float]] = {}
        self._polygons: dict[float, Any] = {}

    @cached_property
    def turns_rect(self) -> bool:
        """A rect base turns somewhere along the path (sampled in 0.005" corner steps)."""
        return not self.base.is_circle and any(m.is_rotation for m in self.path.motions)

    @cached_property
    def counts(self) -> list[int]:
        """Per motion, how many sample intervals it is cut into."""
        counts = []
        for m in self.path.motions:
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
            [[0.0]] + [i + np.arange(1, n + 1) / n for i, n in enumerate(self.counts)]
        )
        return (tau, *self.path.poses(tau))

    @cached_property
    def stretches(self) -> list[tuple[int, int, int]]:
        """(motion, k0, k1): the path cut at samples into stretches of at most
        STRETCH_SAMPLES sample intervals (one per translation, a turn's thousands of
        samples in pieces), so that `crossing` evaluates only those near a target."""
        out = []
        for i, n in enumerate(self.counts):
            step = n if not self.path.motions[i].is_rotation else STRETCH_SAMPLES
            out += [(i, k, min(k + step, n)) for k in range(0, n, step)]
        return out

    @cached_property
    def stretch_ends(self) -> Any:
        """The taus where stretches meet (samples, computed as `samples` does), 0 first."""
        counts = self.counts
        return np.array([0.0] + [i + k1 / counts[i] for i, _, k1 in self.stretches])

    def distances(self, geom: Any, shrink: float = 0.0, taus: Any = None) -> Any:
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
        xs, ys, fs = self.path.poses(taus)
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
            rects = rects if index is ALL else rects[index]
        else:
            xs, ys, fs = self.path.poses(taus)
            rects = rects_at(self.base, xs, ys, fs, shrink)
        lo, hi = rects.min(axis=1), rects.max(axis=1)
        return np.column_stack([lo, hi]), RECT_RADIUS

    def _sample_index(self, taus: Any) -> Any:
        """Which samples `taus` are (ALL: every one), or None when they are not samples:
        every sample, or the part of them `crossing` last handed to its value."""
        if taus is None or taus is self.samples[0]:
            return ALL
        if self.subset is not None and taus is self.subset[0]:
            return self.subset[1]
        return None

    def _sample_rects(self, shrink: float) -> Any:
        """The corners of a rect base at every sample (rects_at), computed once per
        shrink: cheap arithmetic, from which the polygons are built as they are needed."""
        if shrink not in self._rects:
            _, xs, ys, fs = self.samples
            self._rects[shrink] = rects_at(self.base, xs, ys, fs, shrink)
        return self._rects[shrink]

    def _sample_bodies(self, shrink: float, index: Any = ALL) -> tuple[Any, float]:
        """The bodies at the samples `index`, each built once per track and shrink, when
        first asked for: a turn's thousands of samples are mostly far from every
        target, and the prefilters spare them."""
        if self.base.is_circle:
            if shrink not in self._bodies:
                _, xs, ys, fs = self.samples
                self._bodies[shrink] = bodies_at(self.base, xs, ys, fs, shrink)
            cores, radius = self._bodies[shrink]
            return (cores if index is ALL else cores[index]), radius
        if shrink not in self._polygons:
            self._polygons[shrink] = np.full(len(self.samples[0]), None, dtype=object)
        cores = self._polygons[shrink]
        wanted = cores if index is ALL else cores[index]
        missing = shapely.is_missing(wanted)
        if missing.any():
            at = np.arange(len(cores))[index][missing] if index is not ALL else missing.nonzero()[0]
            cores[at] = shapely.polygons(self._sample_rects(shrink)[at])
            wanted = cores if index is ALL else cores[index]
        return wanted, RECT_RADIUS

    def _centres(self, taus: Any) -> tuple[Any, Any]:
        if taus is None or taus is self.samples[0]:
            _, xs, ys, _ = self.samples
            return xs, ys
        xs, ys, _ = self.path.poses(taus)
        return xs, ys
