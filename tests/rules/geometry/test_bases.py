"""Bases as bodies: exact circles, rect bases along their facing (scenario-format UNIT)."""

from __future__ import annotations

import math

from shapely.geometry import Point

from rules import BaseShape
from rules.geometry.bases import body_at, rect_corners

CIRCLE = BaseShape("circle", diameter=2.0)
RECT = BaseShape("rect", width=1.0, length=3.0)


def test_circle_body_distance_is_exact_not_a_polygon_approximation() -> None:
    b = body_at(CIRCLE, 0, 0, 0)
    assert math.isclose(b.distance(Point(3, 0)), 2.0, abs_tol=1e-12)
    assert math.isclose(b.distance(Point(math.sqrt(2) * 2, math.sqrt(2) * 2)), 3.0)


def test_rect_length_runs_along_the_facing_and_width_across_it() -> None:
    xs = [p[0] for p in rect_corners(0, 0, 90, RECT.width, RECT.length)]
    ys = [p[1] for p in rect_corners(0, 0, 90, RECT.width, RECT.length)]
    assert math.isclose(max(ys) - min(ys), 3.0)
    assert math.isclose(max(xs) - min(xs), 1.0)


def test_shrunk_body_reports_overlap_only_past_the_tolerance() -> None:
    """Overlap = penetration deeper than 0.01" (contract)."""
    other = body_at(CIRCLE, 0, 0, 0)
    shallow = body_at(CIRCLE, 1.995, 0, 0, shrink=0.01)
    deep = body_at(CIRCLE, 1.98, 0, 0, shrink=0.01)
    assert shallow.distance(other) >= 0
    assert deep.distance(other) < 0


def test_rect_circumradius_is_half_its_diagonal() -> None:
    assert math.isclose(RECT.radius, math.hypot(1, 3) / 2)
