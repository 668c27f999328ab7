"""Entering a set of features from clear (aod 000 [32], AOD-D3, AOD-D4)."""

from __future__ import annotations

import pytest
from shapely.geometry import box

from rules import BaseShape, Waypoint
from rules.geometry.entry import first_entry_from_clear
from rules.geometry.track import Pose, Track

CIRCLE = BaseShape("circle", diameter=2.0)
RECT = BaseShape("rect", width=2.0, length=2.0)
WOOD = box(10, 0, 14, 20)
NEXT_WOOD = box(14, 0, 18, 20)  # touches WOOD along x = 14


def track(
    start: tuple[float, float], *points: tuple[float, float], base: BaseShape = CIRCLE
) -> Track:
    return Track.from_steps(base, Pose(*start, 0), [Waypoint(*p) for p in points])


def test_coming_from_clear_the_entry_is_the_first_contact() -> None:
    entry = first_entry_from_clear(track((5, 10), (15, 10)), [WOOD])
    assert entry is not None
    hit, index = entry
    assert index == 0 and hit.s == pytest.approx(4, abs=1e-3)


def test_by_centre_the_entry_is_where_the_centre_reaches_the_feature() -> None:
    """Entering is the centre reaching the feature (AOD-D3 option; section 4: distance
    0): 5" of path. Clear is the centre farther than 0.001" (not occupying, AOD-D18), so
    the point where a centre leaving a wood becomes clear is no entry of its own."""
    entry = first_entry_from_clear(track((5, 10), (15, 10)), [WOOD], by_centre=True)
    assert entry is not None and entry[0].s == pytest.approx(5.0, abs=1e-4)
    assert first_entry_from_clear(track((12, 10), (4, 10)), [WOOD], by_centre=True) is None


def test_moving_from_one_touching_feature_into_the_next_is_no_entry() -> None:
    assert first_entry_from_clear(track((12, 10), (16, 10)), [WOOD, NEXT_WOOD]) is None


def test_leaving_and_coming_back_is_an_entry_after_the_clear_stretch() -> None:
    """AOD-D4: out of the wood to x = 4, then back in."""
    entry = first_entry_from_clear(track((12, 10), (4, 10), (12, 10)), [WOOD])
    assert entry is not None
    assert entry[0].s == pytest.approx(8 + 5, abs=1e-3)


def test_a_rect_base_enters_at_its_first_contact_too() -> None:
    entry = first_entry_from_clear(track((5, 10), (15, 10), base=RECT), [WOOD])
    assert entry is not None and entry[0].s == pytest.approx(4, abs=1e-3)


def test_the_feature_entered_is_the_one_touched() -> None:
    entry = first_entry_from_clear(track((20, 10), (12, 10)), [WOOD, NEXT_WOOD])
    assert entry is not None and entry[1] == 1
