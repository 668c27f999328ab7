"""Contact and overlap along a track, with the contract's tolerances.

- touching: distance <= 0.01" (AOD-D19);
- overlap: penetration deeper than 0.01" (the body shrunk by 0.01" intersects);
- t*: the path length at which the base first reaches distance 0 (section 4).

A target is a shapely geometry (terrain) or a Body (another base; exact for circles).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from shapely.geometry import Polygon

from rules.geometry.bases import Body
from rules.geometry.sweeps import first_within
from rules.geometry.tolerance import CONTACT, EVENT, OVERLAP
from rules.geometry.track import Pose, Track


@dataclass(frozen=True)
class Hit:
    """Where along a track something first happens."""

    tau: float
    s: float
    pose: Pose

    @property
    def at(self) -> tuple[float, float]:
        return self.pose.xy


def hit_at(track: Track, tau: float | None) -> Hit | None:
    if tau is None:
        return None
    return Hit(tau, track.s_at(tau), track.pose_at(tau))


def _split(target: Any) -> tuple[Any, float]:
    if isinstance(target, Body):
        return target.core, target.radius
    return target, 0.0


def _circles(track: Track, target: Any) -> tuple[float, float, float] | None:
    """(x, y, r) of a circle target when the moving base is a circle too."""
    if track.base.is_circle and isinstance(target, Body) and target.xy is not None:
        return (*target.xy, target.radius)
    return None


def _circle_crossing(
    track: Track, cx: float, cy: float, reach: float, above: bool, after: float
) -> float | None:
    """Exact first tau >= after where the centre's distance to (cx, cy) goes <= reach
    (or > reach with `above`): a quadratic per segment, rotations do not move it."""
    for i, m in enumerate(track.motions):
        if i + 1 <= after:
            continue
        u0 = max(after - i, 0.0)
        ax, ay = m.start.x - cx, m.start.y - cy
        dx, dy = m.end.x - m.start.x, m.end.y - m.start.y
        a, b, c = dx * dx + dy * dy, 2 * (ax * dx + ay * dy), ax * ax + ay * ay - reach * reach
        inside0 = (a * u0 + b) * u0 + c <= 0
        if inside0 != above:  # already across at u0
            return i + u0
        if a == 0:
            continue
        disc = b * b - 4 * a * c
        if disc < 0:
            continue  # never within reach on this segment (above: never leaves it)
        root = math.sqrt(disc)
        u = (-b + root) / (2 * a) if above else (-b - root) / (2 * a)
        if u0 <= u <= 1:
            return i + u
    if not track.motions and (math.hypot(track.start.x - cx, track.start.y - cy) > reach) == above:
        return 0.0
    return None


def _sampled(track: Track, target: Any, shrink: float = 0.0, taus: Any = None) -> Any:
    """Distances from the base to target at the samples, or at `taus`."""
    core, r = _split(target)
    return track.sample_distances(core, shrink, taus) - r


def _near(track: Track, target: Any, shrink: float, limit: float) -> Any:
    """The stretches along which the base (shrunk) may come within `limit` of target
    (None where no rect turns: its few samples are searched in one pass)."""
    if not track.turns_rect:
        return None
    core, r = _split(target)
    return track.stretches_near(core, limit + r, shrink)


def sweep_overlaps(track: Track, target: Any) -> bool:
    return track.swept(OVERLAP).distance(target) < 0


def sweep_touches(track: Track, target: Any) -> bool:
    return track.swept().distance(target) <= EVENT


def first_overlap(track: Track, target: Any, start_tau: float = 0.0) -> Hit | None:
    """First pose (at or after start_tau) whose base overlaps target by more than 0.01"."""
    circle = _circles(track, target)
    if circle is not None:
        cx, cy, r = circle
        reach = track.base.diameter / 2 - OVERLAP + r - 1e-9
        return hit_at(track, _circle_crossing(track, cx, cy, reach, False, start_tau))
    if track.base.is_circle and isinstance(target, Polygon):
        reach = track.base.diameter / 2 - OVERLAP - 1e-9
        return hit_at(track, first_within(track, target, reach, start_tau))
    tau = track.crossing(
        lambda ts: _sampled(track, target, OVERLAP, ts),
        -1e-9,
        after=start_tau,
        near=_near(track, target, OVERLAP, -1e-9),
    )
    return hit_at(track, tau)


def first_touch(track: Track, target: Any, after_tau: float = 0.0) -> Hit | None:
    """t*: first pose at or after after_tau where the base reaches distance 0."""
    circle = _circles(track, target)
    if circle is not None:
        cx, cy, r = circle
        reach = track.base.diameter / 2 + r + EVENT
        return hit_at(track, _circle_crossing(track, cx, cy, reach, False, after_tau))
    if track.base.is_circle and isinstance(target, Polygon):
        return hit_at(
            track, first_within(track, target, track.base.diameter / 2 + EVENT, after_tau)
        )
    tau = track.crossing(
        lambda ts: _sampled(track, target, 0.0, ts),
        EVENT,
        after=after_tau,
        near=_near(track, target, 0.0, EVENT),
    )
    return hit_at(track, tau)


def first_separation(track: Track, target: Any) -> Hit | None:
    """First pose where the base is no longer touching target (distance > 0.01")."""
    circle = _circles(track, target)
    if circle is not None:
        cx, cy, r = circle
        reach = track.base.diameter / 2 + r + CONTACT
        return hit_at(track, _circle_crossing(track, cx, cy, reach, True, 0.0))
    return hit_at(
        track, track.crossing(lambda ts: _sampled(track, target, 0.0, ts), CONTACT, above=True)
    )


def first_retouch(track: Track, target: Any) -> Hit | None:
    """For a base that starts touching target: first new contact after separating."""
    sep = first_separation(track, target)
    if sep is None:
        return None
    return first_touch(track, target, sep.tau)
