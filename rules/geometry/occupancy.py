"""Occupancy: a unit occupies a feature when its centre dot is in the polygon,
boundary included within 0.001" (000 [32], AOD-D18)."""

from __future__ import annotations

from typing import Any

from shapely.geometry import Point

from rules.geometry.contact import Hit, hit_at
from rules.geometry.tolerance import LENGTH
from rules.geometry.track import Track


def occupies(polygon: Any, x: float, y: float) -> bool:
    return bool(polygon.distance(Point(x, y)) <= LENGTH)


def first_occupancy_change(track: Track, polygon: Any) -> Hit | None:
    """The first pose where the centre enters (or leaves) the polygon."""
    inside0 = occupies(polygon, *track.start.xy)
    d = track.centre_distances(polygon)
    flags = (d > LENGTH) if inside0 else (d <= LENGTH)

    def changed(t: float) -> bool:
        return occupies(polygon, *track.pose_at(t).xy) != inside0

    return hit_at(track, track.first(flags, changed))
