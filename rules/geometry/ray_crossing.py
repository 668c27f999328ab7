"""Crossing areas along a ray: where a base first meets them, and where it is clear of
them again on the far side.

The action-point skirmish game's Traverse climbs a base over an obstacle along the ray
from its centre through the point the player gives (APS-D20): t1 is the first position
where the base touches an obstacle, t2 the first position, after the base has begun to
overlap obstacles, where it overlaps none (touching allowed, within 0.001", APS-D30).
Areas that touch or lie close together are crossed as one, as the base cannot stand
between them. The facing does not change along the ray.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import shapely

from rules.geometry.contact import first_overlap, first_touch
from rules.geometry.raycast import ray_track
from rules.geometry.sweeps import first_beyond, first_within
from rules.geometry.tolerance import EVENT
from rules.geometry.track import Pose, Track
from rules.model.state import BaseShape

#: Penetration that counts as having begun to overlap (positions compare within 0.001").
BEGUN = 0.001
#: Rect bases are located by sampling: the clearance they are placed with.
CLEAR = 1e-4


@dataclass(frozen=True)
class Crossing:
    """What a base meets along a ray through areas."""

    #: The id of the area first touched, and how far the centre goes to touch it (t1).
    met: str
    near: float
    #: How far the centre goes to be clear on the far side (t2); None if never.
    far: float | None
    track: Track

    def pose_at(self, distance: float) -> Pose:
        return self.track.pose_at(self.track.tau_at_length(distance))


def _met(track: Track, area: Any) -> float | None:
    """Where the base first touches `area` going into it (t1 for one area)."""
    hit = first_touch(track, area)
    if hit is None:
        return None
    if hit.s <= 1e-9 and first_overlap(track, area) is None:
        return None  # touching where it starts, but the ray leads away or along
    return hit.s


def cross(
    base: BaseShape,
    start: Pose,
    direction: tuple[float, float],
    length: float,
    areas: Sequence[tuple[str, Any]],
) -> Crossing | None:
    """The first area the base meets within `length` along the ray, and where it is
    clear of every area again; None when it meets none."""
    track = ray_track(base, start, direction, length)
    met = [(s, aid) for aid, area in areas if (s := _met(track, area)) is not None]
    if not met:
        return None
    near, met_id = min(met)
    polygons = [area for _, area in areas]
    near_tau = track.tau_at_length(near)
    if base.is_circle:
        r = base.diameter / 2
        entries = [
            tau
            for polygon in polygons
            if (tau := first_within(track, polygon, r - BEGUN, near_tau)) is not None
        ]
        inside = min(entries) if entries else None
        # Touching is allowed: clear of every area within float noise (EVENT).
        far_tau = None if inside is None else first_beyond(track, polygons, r - EVENT, inside)
    else:
        union = shapely.union_all(polygons)

        def depth(shrink: float) -> Any:
            return lambda ts: track.sample_distances(union, shrink, ts)

        inside = track.crossing(depth(BEGUN), 0.0, after=near_tau)
        far_tau = (
            None if inside is None else track.crossing(depth(CLEAR), 0.0, above=True, after=inside)
        )
    far = None if far_tau is None else track.s_at(far_tau)
    return Crossing(met_id, near, far, track)
