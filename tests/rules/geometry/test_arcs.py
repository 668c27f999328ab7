"""The rear of a base (aod AOD-D13, mswars MSW-D23/D27) and bearings."""

from __future__ import annotations

import math

import pytest

from rules import BaseShape, Unit
from rules.geometry.arcs import angle_between, bearing, in_rear, rear_contact, rear_to_rear

CIRCLE = BaseShape("circle", diameter=2.0)
RECT = BaseShape("rect", width=2.0, length=4.0)


def at(uid: str, x: float, y: float, facing: float = 0.0, base: BaseShape = CIRCLE) -> Unit:
    return Unit(uid, "P1", "mech", 6, base, (x, y), facing)


def test_bearings_and_the_angle_between_them_wrap_at_360() -> None:
    assert bearing(0, 0, 0, 1) == pytest.approx(90)
    assert angle_between(350, 10) == pytest.approx(20)


def test_a_circle_s_rear_is_the_90_degree_arc_behind_it_edges_included() -> None:
    """Facing east: the rear arc runs from bearing 135 to 225."""
    u = at("U", 0, 0)
    edge = (math.cos(math.radians(135)), math.sin(math.radians(135)))
    beyond = (math.cos(math.radians(130)), math.sin(math.radians(130)))
    assert in_rear(u, (-1, 0)) and in_rear(u, edge)
    assert not in_rear(u, beyond)


def test_a_base_touching_behind_a_circle_is_at_its_rear_and_one_beside_it_is_not() -> None:
    u = at("U", 10, 10)
    assert rear_contact(u, at("B", 8, 10))
    assert not rear_contact(u, at("S", 10, 12))
    assert not rear_contact(u, at("F", 6, 10))  # behind, but not in contact


def test_a_rect_s_rear_is_its_rear_edge_corners_included() -> None:
    """A 2x4 rect facing east at (10, 10): its rear edge is x = 8, y 9..11."""
    u = at("U", 10, 10, base=RECT)
    assert rear_contact(u, at("B", 7, 10))
    assert rear_contact(u, at("C", 7, 11.0))
    assert not rear_contact(u, at("S", 10, 12))


def test_rear_to_rear_needs_the_contact_in_the_rear_of_both() -> None:
    """aod 000 [28]: a ram rear-to-rear grants no free spin."""
    assert rear_to_rear(at("A", 10, 10, 0), at("B", 8, 10, 180))
    assert not rear_to_rear(at("A", 10, 10, 0), at("B", 8, 10, 0))
