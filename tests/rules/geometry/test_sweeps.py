"""The exact circle-against-polygon contact agrees with the sampled search (section 4)."""

from __future__ import annotations

import math
import os

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon

from rules import BaseShape, Waypoint
from rules.geometry.sweeps import first_beyond, first_within
from rules.geometry.track import Pose, Track

coord = st.floats(-8, 8, allow_nan=False)


@settings(
    max_examples=int(os.environ.get("PROP_N", 60)),
    deadline=None,
    derandomize=not os.environ.get("PROP_RANDOM"),
)
@given(
    st.lists(st.tuples(coord, coord), min_size=1, max_size=4),
    st.floats(0.3, 3),
    st.floats(0.25, 1.5),
    st.integers(3, 7),
    st.floats(0, 6.28),
)
def test_first_contact_matches_the_sampled_search(
    steps: list[tuple[float, float]], size: float, radius: float, corners: int, turn: float
) -> None:
    poly = Polygon(
        [
            (
                3 + size * math.cos(turn + 2 * math.pi * k / corners),
                1 + size * math.sin(turn + 2 * math.pi * k / corners),
            )
            for k in range(corners)
        ]
    )
    track = Track.from_steps(
        BaseShape("circle", diameter=2 * radius),
        Pose(-9, -9, 0),
        [Waypoint(x, y) for x, y in steps],
    )
    exact = first_within(track, poly, radius)
    sampled = track.crossing(lambda ts: track.sample_distances(poly, 0.0, ts), 1e-6)
    assert (exact is None) == (sampled is None)
    if exact is not None and sampled is not None:
        assert abs(track.s_at(exact) - track.s_at(sampled)) < 1e-3


def test_a_circle_heading_for_a_square_touches_it_one_radius_short() -> None:
    """t* = path length at first contact (section 4)."""
    square = Polygon([(10, 0), (12, 0), (12, 20), (10, 20)])
    track = Track.from_steps(BaseShape("circle", diameter=2), Pose(0, 10, 0), [Waypoint(20, 10)])
    tau = first_within(track, square, 1.0)
    assert tau is not None and math.isclose(track.s_at(tau), 9.0, abs_tol=1e-9)


def test_passing_beside_a_corner_is_no_contact() -> None:
    square = Polygon([(10, 0), (12, 0), (12, 8.9), (10, 8.9)])
    track = Track.from_steps(BaseShape("circle", diameter=2), Pose(0, 10, 0), [Waypoint(20, 10)])
    assert first_within(track, square, 1.0) is None


@settings(
    max_examples=int(os.environ.get("PROP_N", 60)),
    deadline=None,
    derandomize=not os.environ.get("PROP_RANDOM"),
)
@given(
    st.lists(st.tuples(coord, coord), min_size=1, max_size=4),
    st.floats(0.3, 3),
    st.floats(0.0, 1.5),
    st.integers(3, 7),
    st.floats(0, 6.28),
    st.tuples(coord, coord),
)
def test_first_clear_point_matches_a_dense_search(
    steps: list[tuple[float, float]],
    size: float,
    radius: float,
    corners: int,
    turn: float,
    second: tuple[float, float],
) -> None:
    """Leaving terrain ("moving from clear", AOD-D4): two possibly overlapping features."""

    def star(cx: float, cy: float) -> Polygon:
        return Polygon(
            [
                (
                    cx + size * (1 + k % 2) * math.cos(turn + 2 * math.pi * k / corners),
                    cy + size * (1 + k % 2) * math.sin(turn + 2 * math.pi * k / corners),
                )
                for k in range(corners)
            ]
        ).buffer(0)

    polys = [star(0, 0), star(second[0] / 3, second[1] / 3)]
    track = Track.from_steps(
        BaseShape("circle", diameter=1), Pose(0, 0, 0), [Waypoint(x, y) for x, y in steps]
    )
    exact = first_beyond(track, polys, radius)
    # Reference: every 0.001" along the path (the exact search may also find a gap
    # narrower than that, which it then must really be beyond).
    taus = np.append(taus_at_lengths(track, np.arange(0, track.length, 1e-3)), track.tau_end)
    beyond = np.nonzero(np.asarray(min_dist(track, polys, taus)) > radius)[0]
    reference = float(taus[beyond[0]]) if len(beyond) else None
    if exact is None:
        assert reference is None
        return
    assert float(np.asarray(min_dist(track, polys, np.array([exact + 1e-7])))[0]) >= radius - 1e-6
    if reference is not None:
        assert track.s_at(exact) <= track.s_at(reference) + 2e-3


def taus_at_lengths(track: Track, lengths: np.ndarray) -> np.ndarray:
    """`track.tau_at_length` of each length at once (the reference's 30,000 samples)."""
    moving = [(i, m.s0, m.length) for i, m in enumerate(track.motions) if m.length > 0]
    if not moving:  # no path length: every length is the end
        return np.full(len(lengths), track.tau_end)
    index, start, length = (np.array(column, dtype=float) for column in zip(*moving, strict=True))
    k = np.minimum(np.searchsorted(start + length, lengths, side="left"), len(moving) - 1)
    return index[k] + np.maximum(0.0, (lengths - start[k]) / length[k])


def min_dist(track: Track, polys: list[Polygon], ts: object) -> object:
    xs, ys, _ = track.poses(ts)
    return np.min([shapely.distance(shapely.points(xs, ys), p) for p in polys], axis=0)
