"""Kernel pricing of paths with heights (rules/engine/pricing_3d): z along the path and
3-D segment length, the terrain share of a climbing segment, vertical segments
(LG-D16: vertical distance counts 1:1)."""

from __future__ import annotations

import math

import pytest

from rules.engine.pricing import price_path
from rules.engine.pricing_3d import price_path_3d, z_along
from rules.geometry.track import Pose
from rules.model.actions import Turn, Waypoint
from rules.model.state import Point2


class HalfDear:
    """Cost 2 per inch where x > 5, 1 elsewhere; sideways x3; a turn costs its degrees."""

    def pieces(self, p0: Point2, p1: Point2) -> list[tuple[float, float, float | None, str]]:
        if (p0[0] - 5) * (p1[0] - 5) >= 0:
            return [(0.0, 1.0, 2.0 if max(p0[0], p1[0]) > 5 else 1.0, "")]
        u = (5 - p0[0]) / (p1[0] - p0[0])
        return [(0.0, u, 1.0, ""), (u, 1.0, 2.0, "")]

    def rate_at(self, x: float, y: float) -> tuple[float | None, str]:
        return (2.0 if x > 5 else 1.0), ""

    def direction(self, facing: float, dx: float, dy: float) -> tuple[float, bool, str]:
        return (1.0, True, "forward") if abs(dy) < 1e-9 else (3.0, True, "sideways")

    def turn_cost(self, angle: float, rate: float, free: float) -> float:
        return abs(angle)


def test_a_point_without_z_keeps_the_height_before_it() -> None:
    steps = [Waypoint(1, 0, 4), Turn(90), Waypoint(2, 0), Waypoint(3, 0, 0)]
    assert z_along(None, steps) == [0, 4, 4, 4, 0]
    assert z_along(2.0, [Waypoint(1, 0)]) == [2, 2]


def test_a_climbing_segment_pays_its_3d_length_shared_by_the_terrain_under_it() -> None:
    price = price_path_3d(Pose(0, 0, 0), 0.0, [Waypoint(10, 0, 10)], HalfDear())
    length = math.hypot(10, 10)
    assert price.total == pytest.approx(length / 2 * 1 + length / 2 * 2)
    assert price.end_z == 10


def test_a_vertical_segment_has_factor_one_and_the_terrain_where_it_stands() -> None:
    price = price_path_3d(Pose(6, 0, 0), 0.0, [Waypoint(6, 0, 3), Waypoint(6, 0, 0)], HalfDear())
    assert price.total == pytest.approx(12)
    assert [leg.direction for leg in price.legs] == ["vertical", "vertical"]


def test_turns_are_priced_and_a_repeated_point_is_ignored() -> None:
    price = price_path_3d(
        Pose(0, 0, 0), None, [Waypoint(0, 0), Turn(-30), Waypoint(0, 2)], HalfDear()
    )
    assert price.total == pytest.approx(30 + 6)
    where = price.where_exceeds(31)
    assert where is not None and where[0] == pytest.approx((0, 1 / 3))


class ClosedEast(HalfDear):
    """HalfDear, but the ground where x > 5 is closed to the unit (a cliff)."""

    def rate_at(self, x: float, y: float) -> tuple[float | None, str]:
        return (None, "cliff") if x > 5 else (1.0, "")


def test_a_turn_on_closed_ground_is_blocked_where_it_stands_and_priced_alike_in_2d() -> None:
    """One rule for both pricers (rules/engine/pricing.price_turn): a turn in place where
    the unit may not stand costs nothing and is blocked there; it used to cost rate 1 with
    heights and 0 without."""
    steps = [Turn(90)]
    flat = price_path(Pose(6, 0, 0), steps, ClosedEast())
    high = price_path_3d(Pose(6, 0, 0), 0.0, steps, ClosedEast())
    for price in (flat, high):
        (leg,) = price.legs
        assert (leg.cost, leg.blocked_at, leg.blocked_by) == (0.0, (6, 0), "cliff")
    open_ground = price_path_3d(Pose(0, 0, 0), 0.0, steps, ClosedEast())
    assert open_ground.total == pytest.approx(90)
