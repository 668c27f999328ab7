"""Contact, overlap and t* along a path, with the contract tolerances (section 4)."""

from __future__ import annotations

import math

from shapely.geometry import Polygon, box

from rules import BaseShape, Waypoint
from rules.geometry.bases import body_at
from rules.geometry.contact import (
    first_overlap,
    first_retouch,
    first_touch,
    sweep_overlaps,
    sweep_touches,
)
from rules.geometry.occupancy import first_occupancy_change, occupies
from rules.geometry.track import Pose, Track

CIRCLE = BaseShape("circle", diameter=2.0)
WALL = box(10, 0, 12, 20)


def track(*pts: tuple[float, float], start: tuple[float, float] = (0, 10)) -> Track:
    return Track.from_steps(CIRCLE, Pose(*start, 0), [Waypoint(*p) for p in pts])


def test_first_touch_is_the_path_length_at_distance_zero() -> None:
    """t* = path length at first contact (section 4): the base edge reaches x = 10."""
    hit = first_touch(track((20, 10)), WALL)
    assert hit is not None
    assert math.isclose(hit.s, 9.0, abs_tol=1e-4)


def test_a_tangent_pass_counts_as_touching_at_the_tangent_point() -> None:
    corner = Polygon([(5, 11), (6, 12), (5, 13)])  # apex at (5, 11): base top edge y = 11
    hit = first_touch(track((10, 10)), corner)
    assert hit is not None
    assert math.isclose(hit.s, 5.0, abs_tol=0.01)  # within the stop tolerance (AOD-D19)


def test_passing_0_05_clear_is_not_contact() -> None:
    assert first_touch(track((20, 10), start=(0, 10)), box(5, 11.05, 6, 12)) is None
    assert not sweep_touches(track((20, 10)), box(5, 11.05, 6, 12))


def test_tangency_is_not_overlap_but_0_02_penetration_is() -> None:
    assert not sweep_overlaps(track((9, 10)), WALL)
    assert sweep_overlaps(track((9.02, 10)), WALL)


def test_first_overlap_is_where_penetration_passes_0_01() -> None:
    hit = first_overlap(track((20, 10)), WALL)
    assert hit is not None
    assert math.isclose(hit.s, 9.01, abs_tol=1e-3)


def test_retouch_after_separating_is_found_but_staying_in_contact_is_not() -> None:
    other = body_at(CIRCLE, 2, 10, 0)  # touching at the start
    away_and_back = Track.from_steps(CIRCLE, Pose(0, 10, 0), [Waypoint(-3, 10), Waypoint(0, 10)])
    assert first_retouch(away_and_back, other) is not None
    slide = Track.from_steps(CIRCLE, Pose(0, 10, 0), [Waypoint(0, 10.5)])
    assert first_retouch(slide, other) is None


def test_centre_on_the_boundary_occupies_the_feature() -> None:
    """AOD-D18: a centre dot on the boundary (within 0.001") counts as occupying."""
    assert occupies(WALL, 10.0, 5.0)
    assert occupies(WALL, 9.9995, 5.0)
    assert not occupies(WALL, 9.99, 5.0)


def test_occupancy_changes_where_the_centre_crosses_the_boundary() -> None:
    hit = first_occupancy_change(track((20, 10)), WALL)
    assert hit is not None
    assert math.isclose(hit.s, 10.0, abs_tol=1e-4)
