"""Turning and direction of travel (002 Turning, 002 Rules: Movement; MSW-D5-D7, D26,
D31, D33, D37, D43)."""

from __future__ import annotations

import pytest

from rules.geometry.direction import travel_direction
from tests.rules.mswars.build import area, board, judge, mech


@pytest.mark.parametrize(
    "angle,cost",
    [
        (22.5, 0.5),
        (10, 0.5),
        (45, 1),
        (50, 1.5),
        (90, 2),
        (-90, 2),
        (180, 4),
        (270, 2),
        (-210, 3.5),
    ],
)
def test_a_track_pays_half_an_inch_per_half_turn_of_22_5_degrees(angle: float, cost: float) -> None:
    """002 Turning: 1" per turn of up to 45 degrees, half turns half; MSW-D6 normalises
    the angle to (-180, 180]."""
    assert judge(board([mech(type="track")]), [{"turn": angle}]).cost == pytest.approx(cost)


@pytest.mark.parametrize("angle,cost", [(45, 0.5), (90, 1), (100, 1.5), (180, 2)])
def test_infantry_turn_90_degrees_for_one_inch(angle: float, cost: float) -> None:
    """002 Turning: "Infantry can turn 90 degrees at a cost of one inch" (MSW-D6)."""
    state = board([mech(type="track", infantry=True)])
    assert judge(state, [{"turn": angle}]).cost == pytest.approx(cost)


def test_turning_costs_as_moving_in_the_terrain_the_unit_is_in() -> None:
    """002 Turning: a 90-degree turn of a track in difficult terrain costs 2 x 2"."""
    state = board([mech(type="track")], [area("D", "difficult", 5, 5, 15, 15)])
    assert judge(state, [{"turn": 90}]).cost == pytest.approx(4)


@pytest.mark.parametrize(
    "move_type,angle,cost",
    [
        ("walker", 90, 0),
        ("walker", 180, 2),
        ("walker", 100, 0.5),
        ("four_legged_walker", 45, 0),
        ("four_legged_walker", 90, 1),
    ],
)
def test_walkers_turn_90_degrees_free_and_four_legged_walkers_45(
    move_type: str, angle: float, cost: float
) -> None:
    """002 Turning free turns; the excess is paid with the same rounding (MSW-D7)."""
    verdict = judge(board([mech(type=move_type)]), [{"turn": angle}])
    assert verdict.legal and verdict.cost == pytest.approx(cost)


def test_the_free_turn_goes_to_the_step_where_it_saves_the_most() -> None:
    """MSW-D7: a walker turning 30 then 100 degrees gets the 100 free (it saves 2 of
    2.5): it pays 1 for the 30 and 0.5 for the excess 10."""
    verdict = judge(board([mech()]), [{"turn": 30}, {"turn": 100}])
    assert verdict.cost == pytest.approx(1 + 0.5)
    assert verdict.state_after.turn["free_turn_used"] == {"M1": True}


def test_a_used_free_turn_is_paid_for_the_rest_of_the_phase() -> None:
    """MSW-D7: one free turn per Movement Phase."""
    state = board([mech()], state={"free_turn_used": {"M1": True}})
    assert judge(state, [{"turn": 90}]).cost == pytest.approx(2)


def test_infantry_walkers_get_the_free_turn_and_the_infantry_rate() -> None:
    """MSW-D37: 180 degrees = 90 free + 90 at one inch."""
    state = board([mech(infantry=True)])
    verdict = judge(state, [{"turn": 30}, {"turn": 180}])
    assert verdict.cost == pytest.approx(0.5 + 1)


def test_a_turn_within_the_free_turn_alone_costs_nothing_and_uses_no_action() -> None:
    """MSW-D26: a standalone free turn is 0 MP, 0 AC, no move action, allowed in contact."""
    foe = mech("E1", side="P2", position=(11, 10))
    state = board([mech(), foe], state={"action_points": {"M1": 1}})
    verdict = judge(state, [{"turn": 90}])
    assert verdict.legal and verdict.cost == 0
    after = verdict.state_after.turn
    assert after["action_points"] == {"M1": 1}
    assert "actions_taken" not in after
    assert after["free_turn_used"] == {"M1": True}


def test_a_standalone_free_turn_is_reported_as_a_free_turn_and_a_move_is_not() -> None:
    """MSW-D26: the board's log reads the event, so it says "turned in place (free turn)"
    rather than "standard move (0.0 MP)"."""
    turned = judge(board([mech()]), [{"turn": 90}])
    assert turned.events[-1]["type"] == "moved" and turned.events[-1]["free_turn"] is True
    moved = judge(board([mech()]), [{"turn": 90}, [10, 12]])
    assert moved.legal and "free_turn" not in moved.events[-1]


def test_the_facing_key_is_a_final_turn_that_the_free_turn_may_cover() -> None:
    """MSW-D31, MSW-D43: a track pays for it; a walker's free turn covers it."""
    assert judge(board([mech(type="track")]), [[12, 10]], facing=90).cost == pytest.approx(4)
    walker = judge(board([mech()]), [[12, 10]], facing=90)
    assert walker.cost == pytest.approx(2) and walker.state_after.unit("M1").facing == 90


@pytest.mark.parametrize(
    "dx,dy,expected",
    [
        (1, 0, "forward"),
        (-1, 0, "backward"),
        (0, 1, "sideways"),
        (0, -1, "sideways"),
        (1, 1, "diagonal"),
        (1, 0.0087, "forward"),
        (1, 0.035, "diagonal"),
        (-1, 0.0174, "backward"),
        (0.0174, 1, "sideways"),
    ],
)
def test_direction_of_travel_is_within_one_degree_of_an_axis_or_diagonal(
    dx: float, dy: float, expected: str
) -> None:
    """MSW-D5 (contract ACTION: within 1 degree)."""
    assert travel_direction(0.0, dx, dy) == expected


@pytest.mark.parametrize(
    "move_type,path,cost,codes",
    [
        ("walker", [[12, 10]], 2, []),
        ("walker", [[8, 10]], 4, []),  # backward x2 for every type
        ("track", [[8, 10]], 4, []),
        ("walker", [[10, 12]], 4, []),  # walkers sideways as backwards
        ("four_legged_walker", [[10, 8]], 4, []),
        ("track", [[10, 12]], 4, ["direction_not_allowed"]),  # MSW-D33
        ("wheel", [[10, 12]], 4, ["direction_not_allowed"]),
        ("hover", [[10, 12]], 4, ["direction_not_allowed"]),
        ("walker", [[12, 12]], None, ["direction_not_allowed"]),  # diagonal: turn first
    ],
)
def test_direction_factors_and_refusals(
    move_type: str, path: list[list[float]], cost: float | None, codes: list[str]
) -> None:
    """002 Rules: Movement (backwards at double cost), cost table Specials (sideways)."""
    verdict = judge(board([mech(type=move_type)]), path)
    assert verdict.codes == codes
    if cost is not None:
        assert verdict.cost == pytest.approx(cost)


def test_a_static_unit_may_neither_move_nor_turn() -> None:
    """002 Turning: static units cannot turn; they cannot move (cost table "0")."""
    state = board([mech(type="static")])
    assert "action_not_allowed" in judge(state, [{"turn": 45}]).codes
    assert "action_not_allowed" in judge(state, [[11, 10]]).codes
