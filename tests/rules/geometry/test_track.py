"""Paths as tracks: centre-path length, turns in place, sampled rotations (AOD-D17)."""

from __future__ import annotations

import math

from rules import BaseShape, Turn, Waypoint
from rules.geometry.tolerance import ROTATION_STEP
from rules.geometry.track import Pose, Track, shortest_turn

CIRCLE = BaseShape("circle", diameter=1.0)
RECT = BaseShape("rect", width=1.0, length=2.0)


def test_length_is_the_sum_of_the_centre_segments() -> None:
    """Cost = total 2-D length of the centre path, 000 [32]."""
    t = Track.from_steps(CIRCLE, Pose(0, 0, 0), [Waypoint(3, 4), Waypoint(3, 0)])
    assert math.isclose(t.length, 9.0)


def test_a_turn_step_has_no_length_but_changes_the_facing() -> None:
    t = Track.from_steps(CIRCLE, Pose(0, 0, 0), [Turn(90), Waypoint(0, 5)])
    assert math.isclose(t.length, 5.0)
    assert math.isclose(t.end.facing, 90.0)


def test_a_first_point_equal_to_the_start_is_ignored() -> None:
    t = Track.from_steps(CIRCLE, Pose(2, 2, 0), [Waypoint(2, 2), Waypoint(5, 2)])
    assert len(t.motions) == 1


def test_a_final_facing_is_the_shortest_rotation_at_the_end() -> None:
    assert shortest_turn(350, 10) == 20
    t = Track.from_steps(RECT, Pose(0, 0, 350), [Waypoint(1, 0)], final_facing=10)
    assert math.isclose(t.end.facing % 360, 10)


def test_rect_rotation_samples_move_no_corner_more_than_0_005() -> None:
    """AOD-D17: sampling is allowed at <= 0.005" corner movement."""
    t = Track.from_steps(RECT, Pose(0, 0, 0), [Turn(90)])
    tau, xs, ys, fs = t.samples
    step = max(abs(math.radians(b - a)) for a, b in zip(fs[:-1], fs[1:], strict=True))
    assert step * RECT.radius <= ROTATION_STEP + 1e-12


def test_pose_at_interpolates_along_a_segment() -> None:
    t = Track.from_steps(CIRCLE, Pose(0, 0, 0), [Waypoint(10, 0)])
    p = t.pose_at(0.25)
    assert (p.x, p.y) == (2.5, 0.0)
    assert math.isclose(t.s_at(0.25), 2.5)
