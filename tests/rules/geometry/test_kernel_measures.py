"""The geometry the other systems measure with: 3-D length (LG-D16), the front point
and front-to-front line (APS-D15, APS-D4, APS-D8), and a ray cast to first contact
(APS-D11, APS-D20)."""

from __future__ import annotations

import math

import pytest
from shapely.geometry import box

from rules import BaseShape, Table
from rules.geometry.bases import body_at
from rules.geometry.front import front_distance, front_line, front_point
from rules.geometry.length3d import path_length_3d, segment_length_3d
from rules.geometry.raycast import first_contact
from rules.geometry.track import Pose

CIRCLE = BaseShape("circle", diameter=2.0)
RECT = BaseShape("rect", width=2.0, length=4.0)
TABLE = Table(24, 24)


def test_a_vertical_drop_counts_one_to_one_in_3d_length() -> None:
    """LG-D16: a lander 48" above its landing point pays 48"."""
    assert segment_length_3d((5, 5, 48), (5, 5, 0)) == 48


def test_3d_length_of_a_3_4_12_segment_is_13_and_missing_z_is_ground() -> None:
    assert segment_length_3d((0, 0), (3, 4, 12)) == pytest.approx(13)
    assert segment_length_3d((0, 0, None), (3, 4)) == pytest.approx(5)


def test_3d_path_length_sums_its_segments() -> None:
    assert path_length_3d([(0, 0, 0), (3, 4, 0), (3, 4, 2)]) == pytest.approx(7)
    assert path_length_3d([(1, 1)]) == 0


def test_the_front_of_a_circle_is_half_its_diameter_along_the_facing() -> None:
    """APS-D15."""
    x, y = front_point(CIRCLE, 10, 10, 90)
    assert (x, y) == pytest.approx((10, 11))


def test_the_front_of_a_rect_is_half_its_length_along_the_facing() -> None:
    x, y = front_point(RECT, 10, 10, 180)
    assert (x, y) == pytest.approx((8, 10))


def test_turning_in_place_costs_the_distance_the_front_travels() -> None:
    """APS-D4: an about-face of a 2" circle moves its front 2"."""
    assert front_distance(CIRCLE, (10, 10, 0), (10, 10, 180)) == pytest.approx(2)


def test_the_line_of_movement_joins_the_old_and_new_fronts() -> None:
    """APS-D8: a 4" step east facing east runs from (11, 10) to (15, 10)."""
    line = front_line(CIRCLE, (10, 10, 0), (14, 10, 0))
    assert [c for p in line.coords for c in p] == pytest.approx([11, 10, 15, 10])
    assert front_line(CIRCLE, (10, 10, 0), (10, 10, 0)).geom_type == "Point"


def test_a_ray_stops_where_the_base_first_touches_a_terrain_polygon() -> None:
    hit = first_contact(
        CIRCLE, Pose(5, 10, 0), (1, 0), 10, terrain=[("W", box(10, 0, 12, 20))], table=TABLE
    )
    assert hit is not None and (hit.kind, hit.id) == ("terrain", "W")
    assert hit.distance == pytest.approx(4, abs=1e-3)
    assert hit.at == pytest.approx((9, 10), abs=1e-3)


def test_a_ray_stops_at_the_nearer_of_a_base_and_a_polygon() -> None:
    other = body_at(CIRCLE, 8, 10, 0)
    hit = first_contact(
        CIRCLE,
        Pose(3, 10, 0),
        (1, 0),
        10,
        terrain=[("W", box(10, 0, 12, 20))],
        bases=[("U2", other)],
    )
    assert hit is not None and (hit.kind, hit.id) == ("base", "U2")
    assert hit.distance == pytest.approx(3, abs=1e-3)


def test_a_ray_stops_at_the_table_edge() -> None:
    """A rect base facing east, moving west: its rear reaches x = 0 after 3"."""
    hit = first_contact(RECT, Pose(5, 10, 0), (-1, 0), 10, table=TABLE)
    assert hit is not None and hit.kind == "table_edge" and hit.id is None
    assert hit.distance == pytest.approx(3, abs=1e-3)


def test_a_clear_ray_finds_nothing() -> None:
    assert (
        first_contact(
            CIRCLE, Pose(5, 10, 0), (0, 1), 2, terrain=[("W", box(10, 0, 12, 20))], table=TABLE
        )
        is None
    )


def test_a_neighbour_touched_at_the_start_stops_the_ray_only_if_it_goes_into_it() -> None:
    """APS-D11: a dodge away from a base it touches goes its full inch."""
    neighbour = [("U2", body_at(CIRCLE, 7, 10, 0))]
    assert first_contact(CIRCLE, Pose(5, 10, 0), (-1, 0), 1, bases=neighbour) is None
    into = first_contact(CIRCLE, Pose(5, 10, 0), (1, 0), 1, bases=neighbour)
    assert into is not None and into.distance == pytest.approx(0.01, abs=1e-3)


def test_a_diagonal_ray_measures_along_the_ray() -> None:
    hit = first_contact(CIRCLE, Pose(5, 5, 0), (1, 1), 20, terrain=[("W", box(10, 0, 12, 24))])
    assert hit is not None
    assert hit.distance == pytest.approx(4 * math.sqrt(2), abs=1e-3)


def test_a_ray_needs_a_direction() -> None:
    with pytest.raises(ValueError):
        first_contact(CIRCLE, Pose(5, 5, 0), (0, 0), 1)
