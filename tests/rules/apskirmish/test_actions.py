"""`move`, `run`, `traverse` and `dodge`: each `on_fail` choice, each reason code
(apskirmish.md 2-5, 7)."""

from __future__ import annotations

import math

import pytest

from tests.rules.apskirmish.build import after, area, board, judge, soldier

ROUGH = [area("R1", "rough", 11, 8, 12, 12)]
WALL = [area("W1", "obstacle", 11, 6, 11.5, 14, height=1)]


# -- move over rough ground (004 Rough Terrain) ----------------------------------------


@pytest.mark.parametrize(
    ("on_fail", "position", "cost", "allowance", "threshold"),
    [
        ("shorten", [12, 10], 2.0, 2.0, 0),  # 1" off, cut back along the line (APS-D17)
        ("threshold", [13, 10], 3.0, 3.0, 1),  # +1 Threshold keeps the full move
        ("stop", [10, 10], 0.0, 3.0, 0),  # stays, AP spent (APS-D21)
    ],
)
def test_a_failed_terrain_roll_does_what_on_fail_says(
    on_fail: str, position: list[float], cost: float, allowance: float, threshold: int
) -> None:
    state = board([soldier(ap=3)], ROUGH)
    verdict = judge(state, path=[[13, 10]], outcomes=[False], on_fail=on_fail)
    assert verdict.legal
    assert verdict.cost == pytest.approx(cost)
    assert verdict.allowance == pytest.approx(allowance)
    unit = after(verdict)
    assert unit["position"] == position and unit["ap"] == 2 and unit["activated"] is True
    assert unit.get("threshold", 0) == threshold


def test_shorten_keeps_the_final_facing_and_cuts_the_centre_back() -> None:
    """APS-D28: turning about while moving back 1": front moves 1 + 1 = 2" (a 1" base).
    With 2" left after a failed roll, a declared 2.5" (front) move is cut to 2"."""
    state = board([soldier(ap=3)], [area("R1", "rough", 8, 8, 9.9, 12)])
    verdict = judge(state, path=[[8.5, 10]], facing=180, outcomes=[False])
    assert verdict.legal
    unit = after(verdict)
    assert unit["facing"] == 180
    assert unit["position"][0] == pytest.approx(9.0)
    assert verdict.cost == pytest.approx(2.0)


def test_a_move_over_the_full_allowance_is_refused_before_any_roll() -> None:
    verdict = judge(board([soldier(ap=3)], ROUGH), path=[[13.5, 10]], outcomes=[])
    assert verdict.codes == ["speed_exceeded"] and verdict.rolls == ()


def test_the_front_line_not_the_base_decides_rough_ground() -> None:
    """APS-D8: rough ground under the base's side but off the front's line: no roll."""
    state = board([soldier(ap=3)], [area("R1", "rough", 11, 10.2, 12, 12)])
    verdict = judge(state, path=[[13, 10]], outcomes=[])
    assert verdict.legal and verdict.rolls == ()


# -- run (004 Running) -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("on_fail", "legal", "position"),
    [
        ("shorten", True, [18, 10]),  # held to 8"
        ("threshold", False, None),  # no Threshold option on a run: 9" > 8" (APS-D10)
        ("stop", True, [10, 10]),
    ],
)
def test_a_failed_roll_on_a_run_of_9(
    on_fail: str, legal: bool, position: list[float] | None
) -> None:
    state = board([soldier(ap=3)], ROUGH)
    verdict = judge(state, "run", [[19, 10]], outcomes=[False], on_fail=on_fail)
    assert verdict.legal is legal
    if legal:
        unit = after(verdict)
        assert unit["position"] == position and unit["running"] is False and unit["ap"] == 0
        assert verdict.allowance == pytest.approx(8.0)
    else:
        assert verdict.codes == ["speed_exceeded"]
        assert after(verdict)["ap"] == 3  # nothing moves, no AP spent


def test_a_run_of_8_that_fails_its_roll_with_threshold_stands_without_threshold() -> None:
    """APS-D35: stands, no Threshold, not Running."""
    state = board([soldier(ap=3, threshold=0)], ROUGH)
    verdict = judge(state, "run", [[18, 10]], outcomes=[False], on_fail="threshold")
    assert verdict.legal
    unit = after(verdict)
    assert unit["threshold"] == 0 and unit["running"] is False and unit["position"] == [18, 10]


def test_a_run_never_includes_a_traverse() -> None:
    verdict = judge(board([soldier(ap=3)], WALL), "run", [[19, 10]])
    assert verdict.codes == ["obstacle_crossed"]


def test_a_run_with_2_ap_is_no_actions_left() -> None:
    assert judge(board([soldier(ap=2)]), "run", [[19, 10]]).codes == ["no_actions_left"]


# -- bases, table, turn -------------------------------------------------------------------


def test_friends_are_passed_enemies_are_not_and_no_base_is_ended_on() -> None:
    friend = soldier("F", (11.5, 10))
    enemy = soldier("E", (11.5, 10), side="P2")
    assert judge(board([soldier(), friend]), path=[[13, 10]]).legal
    assert judge(board([soldier(), enemy]), path=[[13, 10]]).codes == ["path_through_base"]
    assert judge(board([soldier(), friend]), path=[[11.6, 10]]).codes == ["base_overlap"]


def test_every_code_that_applies_is_listed_in_line_order() -> None:
    """APS-D26: the wall is met before the enemy base beyond it."""
    enemy = soldier("E", (12.6, 10), side="P2")
    verdict = judge(board([soldier(), enemy], WALL), path=[[13, 10]])
    assert verdict.codes == ["obstacle_crossed", "path_through_base", "base_overlap"]


def test_the_swept_base_may_not_leave_the_table() -> None:
    assert (
        judge(board([soldier(position=(1, 10))]), path=[[0.2, 10]], facing=0).codes[0]
        == "off_table"
    )


def test_another_soldiers_activation_is_not_your_turn_except_for_a_dodge() -> None:
    state = board([soldier(ap=3), soldier("S2", (20, 20), ap=3)], state={"active_unit": "S2"})
    assert judge(state, path=[[11, 10]]).codes == ["not_your_turn"]
    assert judge(state, "traverse", [[20, 10]]).codes[0] == "not_your_turn"
    assert judge(state, "dodge", source=[5, 10], outcomes=[True]).legal


def test_more_than_one_point_is_malformed() -> None:
    assert judge(board([soldier()]), path=[[11, 10], [12, 10]]).codes == ["malformed"]


def test_a_move_with_only_a_facing_turns_in_place_and_pays_the_fronts_distance() -> None:
    """APS-D24: a 1" base turning 90 degrees moves its front sqrt(0.5)"."""
    verdict = judge(board([soldier(ap=3)]), path=[], facing=90)
    assert verdict.legal and verdict.cost == pytest.approx(math.sqrt(0.5))
    assert after(verdict)["ap"] == 2


# -- traverse (004 Obstacles) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("outcome", "on_fail", "x", "threshold"),
    [
        (True, None, 12.0, 0),  # success: touching the far face (APS-D7)
        (False, None, 10.5, 0),  # "stop" by default: to the near side, t1
        (False, "shorten", 10.5, 0),  # read as "stop" (APS-D21)
        (False, "threshold", 12.0, 1),  # +1 Threshold and over
    ],
)
def test_a_traverse_lands_where_its_roll_and_on_fail_say(
    outcome: bool, on_fail: str | None, x: float, threshold: int
) -> None:
    state = board([soldier(position=(10, 10), stance="prone", ap=1)], WALL)
    keys = {} if on_fail is None else {"on_fail": on_fail}
    verdict = judge(state, "traverse", [[20, 10]], outcomes=[outcome], **keys)
    assert verdict.legal
    unit = after(verdict)
    assert unit["position"][0] == pytest.approx(x, abs=1e-3)
    assert unit.get("threshold", 0) == threshold and unit["ap"] == 0
    assert unit["facing"] == 0


def test_a_traverse_needs_an_obstacle_within_1_inch_edge_to_edge() -> None:
    """APS-D6: inclusive. The wall is 1" from the base edge at centre 9.5, 1.1" at 9.4."""
    assert judge(
        board([soldier(position=(9.5, 10))], WALL), "traverse", [[20, 10]], outcomes=[True]
    ).legal
    assert judge(
        board([soldier(position=(9.4, 10))], WALL), "traverse", [[20, 10]], outcomes=[True]
    ).codes == ["action_not_allowed"]
    assert judge(board([soldier()], WALL), "traverse", [[10, 20]], outcomes=[True]).codes == [
        "action_not_allowed"
    ]


def test_a_traverse_whose_far_side_is_taken_is_placement_invalid() -> None:
    state = board([soldier(), soldier("F", (12.4, 10))], WALL)
    verdict = judge(state, "traverse", [[20, 10]], outcomes=[True])
    assert verdict.codes == ["placement_invalid"] and verdict.rolls == ()


# -- dodge (004 Dodging) -----------------------------------------------------------------


def test_a_dodge_moves_1_inch_away_from_the_source_and_keeps_the_facing() -> None:
    verdict = judge(board([soldier(ap=3, facing=45)]), "dodge", source=[10, 5], outcomes=[True])
    unit = after(verdict)
    assert unit["position"] == pytest.approx([10, 11]) and unit["facing"] == 45
    assert unit["ap"] == 2 and unit.get("activated") is not True  # APS-D34


def test_an_activated_soldier_dodges_for_1_threshold_and_no_ap() -> None:
    verdict = judge(
        board([soldier(ap=0, activated=True)]), "dodge", source=[10, 5], outcomes=[False]
    )
    unit = after(verdict)
    assert verdict.legal and unit["threshold"] == 1 and unit["ap"] == 0
    assert unit["position"] == [10, 10]  # failed: no move, cost paid (APS-D12)


def test_a_dodge_stops_at_the_first_contact() -> None:
    """APS-D11: the wall 0.3" beyond the base edge stops the dodge after 0.3"."""
    state = board([soldier(position=(10.2, 10), ap=3)], WALL)
    verdict = judge(state, "dodge", source=[5, 10], outcomes=[True])
    assert after(verdict)["position"][0] == pytest.approx(10.5, abs=1e-3)
    assert verdict.cost == pytest.approx(0.3, abs=1e-3)


def test_a_dodge_not_activated_without_ap_is_no_actions_left() -> None:
    verdict = judge(board([soldier(ap=0)]), "dodge", source=[10, 5], outcomes=[True])
    assert verdict.codes == ["no_actions_left"]


def test_a_dodge_from_its_own_position_is_malformed() -> None:
    verdict = judge(board([soldier()]), "dodge", source=[10, 10], outcomes=[True])
    assert verdict.codes == ["malformed"]


def test_an_unknown_soldier_is_unknown_unit() -> None:
    assert judge(board([soldier()]), unit="X", path=[[11, 10]]).codes == ["unknown_unit"]


def test_standing_still_in_rough_ground_traces_nothing_and_needs_no_roll() -> None:
    """004 Rough Terrain: the roll is for a line of movement; a front that stays put
    draws none (a move of 0", e.g. to end the activation's AP spending in place)."""
    state = board([soldier(ap=3)], [area("R1", "rough", 9, 9, 12, 11)])
    verdict = judge(state, path=[], outcomes=[])
    assert verdict.legal and verdict.rolls == () and verdict.cost == 0
