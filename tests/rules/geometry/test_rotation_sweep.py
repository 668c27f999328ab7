"""The exact sweep of a rect base turning in place, and the prefilter it gives the sampled
search (AOD-D17 samples a rotation in 0.005" corner steps; section 4: the swept base is
the union of the base over every pose of its path)."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon

from rules import BaseShape, Turn, Waypoint
from rules.geometry.bases import bodies_at, rect_corners
from rules.geometry.contact import first_overlap, first_separation, first_touch
from rules.geometry.rotation_sweep import ARC_TOLERANCE, rect_turn_sweep, rect_turn_sweeps
from rules.geometry.table import reaches_past_edge
from rules.geometry.tolerance import CONTACT, EVENT, OVERLAP
from rules.geometry.track import Pose, Track
from rules.model.state import Table
from tests.rules.test_properties import EXAMPLES, FAST

#: Corner movement between the poses the tests sample (finer than AOD-D17's 0.005").
STEP = 0.002


def poses_union(
    x: float, y: float, f0: float, f1: float, w: float, ln: float
) -> tuple[list[Polygon], object]:
    """The rect at poses every STEP of corner movement from f0 to f1, and their union."""
    d = math.hypot(w, ln) / 2
    n = max(1, math.ceil(abs(math.radians(f1 - f0)) * d / STEP))
    rects = [Polygon(rect_corners(x, y, f0 + (f1 - f0) * k / n, w, ln)) for k in range(n + 1)]
    return rects, shapely.union_all(rects)


sizes = st.floats(0.2, 4.0)
turns = st.one_of(st.floats(-200.0, 200.0), st.sampled_from([90.0, -180.0, 360.0, 1e-3]))


@settings(FAST, max_examples=min(EXAMPLES, 15))  # each union is of thousands of rects
@given(st.floats(-50, 50), st.floats(-50, 50), st.floats(-360, 360), turns, sizes, sizes)
def test_the_turn_sweep_holds_every_pose_and_no_more_than_their_union(
    x: float, y: float, f0: float, turn: float, w: float, ln: float
) -> None:
    """Property: the exact sweep contains the base at every sampled pose, and lies within
    half a sample step (the notch between two sampled corners) plus ARC_TOLERANCE of
    their union: it is the union of the poses, not a hull of them."""
    sweep = shapely.union_all(rect_turn_sweep(x, y, f0, f0 + turn, w, ln))
    rects, union = poses_union(x, y, f0, f0 + turn, w, ln)
    grown = sweep.buffer(1e-9)
    shapely.prepare(grown)
    assert bool(np.all(shapely.covers(grown, rects)))
    assert sweep.hausdorff_distance(union) <= STEP / 2 + ARC_TOLERANCE + 1e-9
    assert sweep.difference(union).area <= sweep.length * (STEP / 2 + ARC_TOLERANCE)


def test_a_whole_turn_sweeps_the_disk_of_the_half_diagonal() -> None:
    """A rect turned a full turn covers the circle through its corners, and no more."""
    sweep = shapely.union_all(rect_turn_sweep(0, 0, 30, 390, 3.0, 6.0))
    d = math.hypot(3, 6) / 2
    assert sweep.area >= math.pi * d * d
    assert sweep.area <= math.pi * (d + ARC_TOLERANCE) ** 2


def test_a_long_edge_sweeps_no_hull_sliver() -> None:
    """Turning 0.1 degrees, the long edge's middle moves inward: the sweep is the two
    rects and the corners' arcs, not the convex hull of two rects (0.002" more there)."""
    sweep = shapely.union_all(rect_turn_sweep(0, 0, 0, 0.1, 3.0, 6.0))
    a, b = (Polygon(rect_corners(0, 0, f, 3.0, 6.0)) for f in (0, 0.1))
    hull = shapely.convex_hull(shapely.union(a, b))
    both = shapely.union(a, b)
    assert hull.hausdorff_distance(sweep) > 1e-3
    assert hull.difference(both).area > 1e-2
    assert sweep.difference(both).area < 1e-4  # the corners' arcs only


RECT = BaseShape("rect", width=1.5, length=2.5)
steps = st.lists(
    st.one_of(
        st.builds(Turn, st.floats(-180, 180)),
        st.builds(Waypoint, st.floats(0, 12), st.floats(0, 12)),
    ),
    min_size=1,
    max_size=6,
)


@FAST
@given(steps, st.floats(0, 360))
def test_a_paths_sweep_holds_the_base_at_every_sample(path: list, facing: float) -> None:
    """The track's swept base (translations and turns) contains the base at each of its
    AOD-D17 samples."""
    track = Track.from_steps(RECT, Pose(6, 6, facing), path)
    _, xs, ys, fs = track.samples
    cores, _ = bodies_at(RECT, xs, ys, fs)
    swept = track.swept().core.buffer(1e-9)
    shapely.prepare(swept)  # thousands of samples against one shape
    assert bool(np.all(shapely.covers(swept, cores)))


def one_pass(
    track: Track, value: Any, limit: float, above: bool = False, after: float = 0.0
) -> float | None:
    """The search over every sample at once, as before stretches (the reference)."""
    taus = track.samples[0]
    if after > 0:
        taus = np.concatenate([[after], taus[taus > after + 1e-12]])
    xs, ys, fs = track.poses(taus)
    values = np.asarray(value(taus), dtype=float)
    return track.search.first_crossing(taus, xs, ys, fs, values, value, limit, above, False)


def tau(hit: Any) -> float | None:
    return None if hit is None else hit.tau


@FAST
@given(
    steps, st.floats(0, 360), st.floats(0, 12), st.floats(0, 12), st.floats(0.1, 3), st.floats(0, 1)
)
def test_the_search_by_stretches_finds_what_one_pass_finds(
    path: list, facing: float, cx: float, cy: float, size: float, later: float
) -> None:
    """Skipping the stretches whose sweep cannot reach a target, or whose end values
    settle them, and stopping at the first batch that crosses, changes nothing: first
    touch, overlap, separation and reaching past the table's edge are the same tau as
    the search over every sample."""
    track = Track.from_steps(RECT, Pose(6, 6, facing), path)
    target = shapely.box(cx, cy, cx + size, cy + size / 2)

    def dist(shrink: float) -> Any:
        return lambda ts: track.sample_distances(target, shrink, ts)

    after = later * track.tau_end
    assert tau(first_touch(track, target)) == one_pass(track, dist(0.0), EVENT)
    assert tau(first_touch(track, target, after)) == one_pass(track, dist(0.0), EVENT, after=after)
    assert tau(first_overlap(track, target)) == one_pass(track, dist(OVERLAP), -1e-9)
    assert tau(first_separation(track, target)) == one_pass(track, dist(0.0), CONTACT, above=True)
    table = Table(width=12, height=12)

    def overshoot(ts: Any) -> Any:
        cores, r = track.bodies_for(ts)
        b = shapely.bounds(cores)
        return np.max([-(b[:, 0] - r), -(b[:, 1] - r), b[:, 2] + r - 12, b[:, 3] + r - 12], axis=0)

    assert tau(reaches_past_edge(track, table, CONTACT)) == one_pass(
        track, overshoot, CONTACT, above=True
    )


def test_many_turns_at_once_sweep_what_each_turn_sweeps() -> None:
    """rect_turn_sweeps (one call for a path's turns) draws what rect_turn_sweep draws."""
    rng = random.Random(1)
    turns = []
    for _ in range(40):
        x, y, f = rng.uniform(0, 50), rng.uniform(0, 50), rng.uniform(-360, 360)
        turns.append((x, y, f, f + rng.choice([rng.uniform(-200, 200), 360, -400, 1e-4, 90])))
    for t, many in zip(turns, rect_turn_sweeps(turns, 1.5, 2.5), strict=True):
        one = shapely.union_all(rect_turn_sweep(*t, 1.5, 2.5))
        assert shapely.union_all(shapely.get_parts(many)).symmetric_difference(one).area < 1e-9
