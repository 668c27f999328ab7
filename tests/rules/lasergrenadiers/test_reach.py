"""Reach for LaserGrenadiers over terrain cheaper than firm ground (issue 20: every legal end
lies in its reach): a road or bridge doubles a foot piece's and a ground vehicle's
movement (003 Terrain 7-8, LG-D32), and overrides the soft ground, slope or river it lies
on (LG-D25); beyond it, firm ground costs 1" an inch again."""

from __future__ import annotations

from typing import Any

from rules import reach, validate
from tests.rules.lasergrenadiers.build import area, board, piece


def legal_along(state: Any, unit: str, end: tuple[float, float]) -> bool:
    found = reach(state, unit)
    path = found.path_to(end)
    steps = [dict(s) if isinstance(s, dict) else list(s) for s in (path or [])[1:]]
    return path is not None and validate(state, {"unit": unit, "type": "move",
                                                 "path": steps}).legal


def test_a_foot_piece_on_a_road_goes_twice_as_far_ahead_and_reverses_at_firm_cost() -> None:
    # 003 Terrain 7 (road doubled), 003 Infantry movement 4 (reverse halved): forward 12"
    # on the road, reverse 6" (x2 / 2 = 1" an inch).
    state = board([piece(position=(20, 20))], [area("R1", "road", 5, 15, 40, 25)])
    found = reach(state, "U")
    assert found.complete
    assert found.contains((31.8, 20)) and not found.contains((32.2, 20))
    assert found.contains((14.2, 20)) and not found.contains((13.8, 20))
    assert legal_along(state, "U", (31.8, 20)) and legal_along(state, "U", (14.2, 20))


def test_a_road_over_soft_ground_is_paid_as_road_and_the_firm_ground_beyond_as_firm() -> None:
    # LG-D25: the road overrides the soft ground under it. A tracked vehicle of 30 on a
    # road over soft ground: 10" of road cost 5, then 25" of firm ground at 1" an inch.
    state = board([piece(type="tracked", move=30, diameter=2, position=(10, 20))],
                  [area("S1", "soft", 5, 10, 20, 30), area("R1", "road", 5, 15, 20, 25)])
    found = reach(state, "U")
    assert found.contains((44.8, 20)) and not found.contains((45.2, 20))
    assert legal_along(state, "U", (44.8, 20))


def test_a_bridge_carries_the_centre_over_the_river_it_overrides() -> None:
    # 003 Terrain 4, 8; LG-D25: the river is prohibited to foot, the bridge over it is a
    # road: 1" firm + 8" bridge (4) + 1" firm = 6 of 6.
    state = board([piece(position=(11, 20))], [area("W1", "river", 12, 0, 20, 48),
                                                area("B1", "bridge", 12, 18, 20, 22)])
    found = reach(state, "U")
    assert found.contains((20.9, 20)) and legal_along(state, "U", (20.9, 20))
    assert not found.contains((21.2, 20))
    assert not found.contains((13, 16))  # in the river beside the bridge
