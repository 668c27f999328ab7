"""Occupancy: a unit occupies a feature when its centre dot is in the polygon,
boundary included within 0.001" (000 [32], AOD-D18)."""

from __future__ import annotations

from typing import Any

from shapely.geometry import Point

from rules.geometry.contact import Hit, hit_at
from rules.geometry.sweeps import first_beyond, first_within
from rules.geometry.tolerance import EVENT, LENGTH
from rules.geometry.track import Track


def occupies(polygon: Any, x: float, y: float) -> bool:
    return bool(polygon.distance(Point(x, y)) <= LENGTH)


def first_occupancy_change(track: Track, polygon: Any) -> Hit | None:
    """The first pose where the centre enters (or leaves) the polygon. The crossing
    itself is the geometric boundary (distance 0)."""
    if occupies(polygon, *track.start.xy):
        return hit_at(track, first_beyond(track, [polygon], EVENT))
    return hit_at(track, first_within(track, polygon, EVENT))
