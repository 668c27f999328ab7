"""The kernel modules this system added, in their own terms: a line of movement over an
area (APS-D18, APS-D32), a straight move cut back front to front (APS-D28), a base
crossing areas along a ray (APS-D20, APS-D30), a die rolled under a stat (APS-D1), cones
from a point shaded up to an area (a straight move's reach)."""

from __future__ import annotations

import math

import pytest
import shapely
from shapely.geometry import LineString, Point, box

from rules.engine.dice import Dice, make_dice
from rules.engine.path_checks import off_table, track_for
from rules.geometry.cones import stars
from rules.geometry.front_shortening import fraction_at_front_distance
from rules.geometry.line_of_movement import first_over, passes_over
from rules.geometry.ray_crossing import cross
from rules.geometry.track import Pose
from rules.model.actions import Turn, Waypoint
from rules.model.state import BaseShape, Table, Unit

SQUARE = box(0, 0, 2, 2)
DISC = BaseShape("circle", diameter=1.0)


@pytest.mark.parametrize(
    ("line", "over"),
    [
        (LineString([(-1, 1), (3, 1)]), True),  # straight across
        (LineString([(-1, 1), (1, 1)]), True),  # ends inside (APS-D32)
        (LineString([(-1, 1), (0, 1)]), False),  # ends on the boundary
        (LineString([(0, -1), (0, 3)]), False),  # runs along a face (APS-D18)
        (LineString([(-1, 1), (0.0005, 1)]), False),  # 0.0005" in: grazing
        (LineString([(-1, 1), (0.01, 1)]), True),  # 0.01" in
        (Point(1, 1), True),  # a front standing inside
    ],
)
def test_a_line_passes_over_an_area_when_it_meets_its_interior_by_more_than_0_001(
    line: LineString | Point, over: bool
) -> None:
    assert passes_over(line, SQUARE) is over


def test_first_over_names_where_the_line_enters() -> None:
    found = first_over(LineString([(-2, 1), (4, 1)]), SQUARE)
    assert found is not None
    fraction, at = found
    assert fraction == pytest.approx(2 / 6) and at == pytest.approx((0, 1))


def test_cutting_a_straight_move_back_keeps_its_facing_and_the_front_distance() -> None:
    """Forward 3" is cut to 2" at two thirds of the segment."""
    t = fraction_at_front_distance(DISC, Pose(0, 0, 0), Pose(3, 0, 0), 2.0)
    assert t == pytest.approx(2 / 3)
    # Back 1" and about face: the front moves 2" (1" of centre, 1" of turning); cut to
    # 1.5" the centre goes back half an inch (APS-D28).
    t = fraction_at_front_distance(DISC, Pose(0, 0, 0), Pose(-1, 0, 180), 1.5)
    assert t == pytest.approx(0.5)
    # Turning about alone moves the front 1": nothing shorter exists.
    assert fraction_at_front_distance(DISC, Pose(0, 0, 0), Pose(0, 0, 180), 0.5) is None


def test_a_base_crosses_a_wall_from_first_touch_to_clear_on_the_far_side() -> None:
    found = cross(DISC, Pose(0, 0, 0), (1, 0), 20, [("W", box(2, -3, 2.5, 3))])
    assert found is not None and found.met == "W"
    assert found.near == pytest.approx(1.5, abs=1e-4)
    assert found.far == pytest.approx(3.0, abs=1e-4)


def test_touching_areas_are_crossed_as_one_and_a_base_wide_gap_is_clear() -> None:
    joined = cross(
        DISC, Pose(0, 0, 0), (1, 0), 20, [("A", box(2, -3, 2.5, 3)), ("B", box(2.5, -3, 3, 3))]
    )
    assert joined is not None and joined.far == pytest.approx(3.5, abs=1e-4)
    apart = cross(
        DISC, Pose(0, 0, 0), (1, 0), 20, [("A", box(2, -3, 2.5, 3)), ("B", box(3.5, -3, 4, 3))]
    )
    assert apart is not None and apart.far == pytest.approx(3.0, abs=1e-4)


def test_an_area_touched_at_the_start_counts_only_if_the_ray_goes_into_it() -> None:
    wall = [("W", box(0.5, -3, 1, 3))]
    assert cross(DISC, Pose(0, 0, 0), (-1, 0), 20, wall) is None
    into = cross(DISC, Pose(0, 0, 0), (1, 0), 20, wall)
    assert into is not None and into.near == pytest.approx(0.0, abs=1e-6)


def test_a_rect_base_is_placed_clear_within_the_tolerance() -> None:
    rect = BaseShape("rect", width=1.0, length=2.0)
    found = cross(rect, Pose(0, 0, 0), (1, 0), 20, [("W", box(2, -3, 2.5, 3))])
    assert found is not None
    assert found.near == pytest.approx(1.0, abs=1e-3)
    assert found.far == pytest.approx(3.5, abs=1e-3)
    assert math.isclose(found.pose_at(found.far).x, 3.5, abs_tol=1e-3)


@pytest.mark.parametrize(("die", "success"), [(1, True), (4, True), (5, False), (10, False)])
def test_a_roll_under_a_stat_succeeds_from_1_to_the_stat(die: int, success: bool) -> None:
    """APS-D1: 1d10 at most the stat (4 here), the kernel's test with `at_most`."""
    roll = make_dice([die]).test("terrain", 10, 1, at_most=4)
    assert (roll.die, roll.needed, roll.result, roll.success) == ("d10", "1-4", die, success)


def test_a_previewed_roll_under_a_stat_says_what_it_needs_and_rolls_nothing() -> None:
    roll = Dice(unresolved=True).test("dodge", 10, 1, "whether it dodges", at_most=3)
    assert (roll.needed, roll.result, roll.success, roll.decides) == (
        "1-3",
        None,
        None,
        "whether it dodges",
    )


def test_leaving_the_table_in_a_turn_at_the_end_is_placed_within_the_turn() -> None:
    """APS-D26: a line's findings in path order, the turns at its end included. A rect
    base 2" long, 0.6" from the edge, goes 1" along it and turns a quarter: its corner
    leaves the table during the turn, which adds no length."""
    soldier = Unit("S1", "P1", "soldier", 0.0, BaseShape("rect", width=1.0, length=2.0), (5, 0.6))
    track = track_for(soldier, [Waypoint(6, 0.6), Turn(90)])
    table = Table(24, 24)
    ((s, by_length),) = off_table(soldier, track, table, "apskirmish 3")
    ((tau, by_tau),) = off_table(soldier, track, table, "apskirmish 3", by_tau=True)
    assert s == pytest.approx(1.0) and 1.0 < tau < 2.0
    assert by_tau == by_length and by_tau.code == "off_table"


def test_cones_from_a_point_are_shaded_up_to_the_area_they_meet() -> None:
    """The straight move's reach (apskirmish.md 3-4): every line from the apex inside the
    shaded star is clear of the blocked area; a cone stops where it first meets it."""
    wall = box(2, -1, 3, 1)
    star = stars((0.0, 0.0), 5.0, wall, None).area()
    assert star.intersection(wall).area == pytest.approx(0.0, abs=1e-9)
    assert star.covers(Point(1.99, 0)) and star.covers(Point(-4.99, 0))
    assert not star.covers(Point(3.5, 0))


def test_cones_split_to_find_a_gap_narrower_than_a_first_cone() -> None:
    """A passage 0.02" wide at 3" is narrower than one of the 240 first cones (0.08" at 3"
    across): only split cones find it, and the star reaches through it."""
    walls = shapely.union_all([box(3, -2, 3.5, -0.01), box(3, 0.01, 3.5, 2)])
    star = stars((0.0, 0.0), 5.0, walls, None).area()
    assert star.covers(Point(4.5, 0.0))
    assert star.intersection(walls).area == pytest.approx(0.0, abs=1e-9)
