"""The turn-then-straight kernel (rules/engine/turn_reach.py): its sectors joined into one
polygon per run of neighbours cover exactly what their triangles cover (a union of many
thin triangles meeting at the start is slow, and GEOS has been seen to drop one); the
rates a sector holds price each stretch of distance (a feature only where it is)."""

from __future__ import annotations

import math

import shapely

from rules.engine import turn_reach as tr


def sectors(radii: dict[int, float], inner: float = 0.0) -> dict[int, tuple[list, list]]:
    out = {}
    step = 2 * math.pi / tr.SECTORS
    for k, r in radii.items():
        a0, a1 = k * step, (k + 1) * step
        back = [(inner * math.cos(a), inner * math.sin(a)) for a in (a1, a0)] if inner else []
        out[k] = ([(r * math.cos(a), r * math.sin(a)) for a in (a0, a1)], back)
    return out


def same_as_triangles(s: dict[int, tuple[list, list]]) -> None:
    """The fans cover every sector and no more (the sectors do not overlap, so the area
    is their sum; GEOS's union of the sectors themselves was seen to come out short)."""
    fans = shapely.union_all(tr._fans((0.0, 0.0), s))
    triangles = tr._triangles((0.0, 0.0), s, sorted(s))
    assert abs(fans.area - sum(g.area for g in triangles)) < 1e-9
    grown = fans.buffer(1e-9)
    assert all(grown.covers(g) for g in triangles)


def test_a_full_circle_of_sectors_is_one_polygon_around_the_start() -> None:
    radii = {k: 5 + 3 * math.sin(k / 7) for k in range(tr.SECTORS)}
    assert len(tr._fans((0.0, 0.0), sectors(radii))) == 1
    same_as_triangles(sectors(radii))
    same_as_triangles(sectors(radii, inner=2.0))  # a run's minimum: a hole


def test_runs_broken_by_missing_sectors_and_wrapping_round_are_each_one_polygon() -> None:
    radii = {k: 4 + (k % 5) for k in range(tr.SECTORS) if k not in (3, 4, 50, 51, 52)}
    s = sectors(radii)
    assert len(tr._fans((0.0, 0.0), s)) == 2  # 5..49 and 53..119 with 0..2
    same_as_triangles(s)
    same_as_triangles(sectors(radii, inner=1.0))


def test_a_feature_prices_only_the_stretch_of_distance_it_spans() -> None:
    # MSW-D16: open ground (1) to 2", a feature at 4 an inch from 2" to 4", open again:
    # 12 goes 2 + 2 + 2 = 6" (not 2 + 10 / 4 = 4.5" as if the feature went on for ever).
    profile = [(0.0, math.inf, 1.0), (2.0, 4.0, 4.0)]
    assert abs(tr.distance_in(12.0, profile) - 6.0) < 1e-9
    # A road (0.5) where nothing dearer is held, then open ground: 1 + 8 x 0.5 + 1 = 6.
    road = [(0.0, 1.0, 1.0), (1.0, 9.0, 0.5), (9.0, math.inf, 1.0)]
    assert abs(tr.distance_in(6.0, road) - 10.0) < 1e-9
