"""The poses along a path of motions (straight segments and rotations in place), without
a base: where the centre is and how it faces at each point of the path.

Poses are addressed by a parameter tau = motion index + fraction, because a
rotation has no length; `s_at(tau)` gives the path length travelled (section 4:
the centre path, turns cost nothing).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
from shapely.geometry import LineString, Point

from rules.model.actions import Step, Turn


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


def motions_from_steps(
    start: Pose, steps: Sequence[Step], final_facing: float | None = None
) -> list[Motion]:
    """The motions of a path of steps from `start`: a turn of 0 and a point equal to the
    current one are no motion; `final_facing` adds the shortest rotation at the end."""
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
    return motions


class PosePath:
    """The poses from `start` along `motions`, by tau, one at a time or arrays at a time."""

    def __init__(self, start: Pose, motions: Sequence[Motion]) -> None:
        self.start = start
        self.motions = tuple(motions)

    @cached_property
    def length(self) -> float:
        return sum(m.length for m in self.motions)

    @property
    def end(self) -> Pose:
        return self.motions[-1].end if self.motions else self.start

    @property
    def tau_end(self) -> float:
        return float(len(self.motions))

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
