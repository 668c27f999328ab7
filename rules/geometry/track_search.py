"""Where along a track an event first happens: the first tau at which a distance crosses
a limit, found without missing one between samples and located to PRECISION.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any

import numpy as np

from rules.geometry.track_path import PosePath
from rules.geometry.track_samples import TrackSamples
from rules.model.state import BaseShape

#: Subdivisions of one candidate interval, and how many intervals are searched at once.
STEPS = np.arange(1, 33) / 32.0
#: Events are located to this path length (well inside the 0.001" length tolerance).
PRECISION = 1e-4
CHUNK = 8
#: Float slack when the values at a stretch's ends prove it holds no crossing.
BOUND_MARGIN = 1e-9
#: Up to this many samples `crossing` searches them in one pass.
ONE_PASS = 64

#: A function of an array of taus returning an array of values.
Probe = Callable[[Any], Any]


class CrossingSearch:
    """The search for events along `path` of `base`, over its samples `sampled`."""

    def __init__(self, path: PosePath, base: BaseShape, sampled: TrackSamples) -> None:
        self.path = path
        self.base = base
        self.sampled = sampled
        self._stretch_gap_cache: dict[bool, Any] = {}

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
            taus, xs, ys, fs = self.sampled.samples
        else:
            tau = self.sampled.samples[0]
            taus = np.concatenate([[after], tau[tau > after + 1e-12]])
            xs, ys, fs = self.path.poses(taus)
        if len(taus) <= ONE_PASS or not self.sampled.turns_rect:
            # Few samples, or no turn of a rect (its thousands of samples): one pass.
            values = np.asarray(value(taus), dtype=float)
            return self.first_crossing(taus, xs, ys, fs, values, value, limit, above, centre)
        # Stretch by stretch in path order, in growing batches, so that an early event
        # costs the samples before it only; a batch's last sample is the next one's
        # first, so every interval is searched as it would be in one pass.
        ends = self.sampled.stretch_ends
        last = len(ends) - 2
        within, ending = (
            self._stretch_of_samples if taus is self.sampled.samples[0] else self._stretch_of(taus)
        )
        # The stretch of the first interval (`after` may lie a hair before its start).
        first = int(ending[1]) if len(taus) > 1 else int(within[0])
        keep = self._may_cross(value, ends, first, limit, above, near, centre)
        at = self._sample_at_ends if taus is self.sampled.samples[0] else self._at_ends(taus)
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
                if taus is self.sampled.samples[0]:  # bodies_for takes them from the samples' own
                    self.sampled.subset = (part, needed.nonzero()[0] + lo)
                values[needed] = np.asarray(value(part), dtype=float)
                found = self.first_crossing(
                    taus[sl], xs[sl], ys[sl], fs[sl], values, value, limit, above, centre
                )
                if found is not None:
                    return found
            p, size = q, min(size * 2, CHUNK * 2)
        return None

    def _stretch_of(self, taus: Any) -> tuple[Any, Any]:
        """Per tau, the stretch it lies in and the stretch of the interval ending at it."""
        ends = self.sampled.stretch_ends
        last = len(ends) - 2
        return (
            np.clip(np.searchsorted(ends, taus, side="right") - 1, 0, last),
            np.clip(np.searchsorted(ends, taus, side="left") - 1, 0, last),
        )

    @cached_property
    def _stretch_of_samples(self) -> tuple[Any, Any]:
        return self._stretch_of(self.sampled.samples[0])

    def _at_ends(self, taus: Any) -> Any:
        """Per stretch end, the index of the first of `taus` at or after it."""
        at = np.searchsorted(taus, self.sampled.stretch_ends, side="left")
        return np.minimum(at, len(taus) - 1)

    @cached_property
    def _sample_at_ends(self) -> Any:
        return self._at_ends(self.sampled.samples[0])

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
        index = np.searchsorted(self.sampled.samples[0], ends[ask])  # every end is a sample
        part = self.sampled.samples[0][index]
        self.sampled.subset = (part, index)  # bodies_for takes the samples' own
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
        if centre not in self._stretch_gap_cache:
            ends = self.sampled.stretch_ends
            self._stretch_gap_cache[centre] = self._gaps(*self.path.poses(ends), centre)
        return self._stretch_gap_cache[centre]

    def _gaps(self, xs: Any, ys: Any, fs: Any, centre: bool, axis: int = -1) -> Any:
        """How far any point of the base (or the centre) may move between samples."""
        gaps = np.hypot(np.diff(xs, axis=axis), np.diff(ys, axis=axis))
        if not centre and not self.base.is_circle:
            gaps = gaps + np.abs(np.radians(np.diff(fs, axis=axis))) * self.base.radius
        return gaps

    def first_crossing(
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
            while self.path.s_at(t_hi) - self.path.s_at(t_lo) > PRECISION:
                fine = t_lo + (t_hi - t_lo) * STEPS
                k = int(np.argmax(crossed(value(fine))))
                t_lo, t_hi = (float(fine[k - 1]) if k else t_lo), float(fine[k])
            return t_hi
        return None
