"""The seed's stance table, every row (004 Standard Movement, apskirmish.md 2), and the
rows of the run (004 Running, APS-D25) and of the unit's own `move` (APS-D14)."""

from __future__ import annotations

import pytest

from rules.systems.apskirmish.tables import STANCE_MOVE
from tests.rules.apskirmish.build import after, board, judge, soldier

#: The seed's table, written out again so that a change to the data is caught.
SEED_TABLE = [("standing", 3.0), ("crouching", 2.0), ("prone", 1.0)]


def test_the_stance_table_has_exactly_the_seeds_rows() -> None:
    assert STANCE_MOVE == dict(SEED_TABLE)


@pytest.mark.parametrize(("stance", "inches"), SEED_TABLE)
def test_a_soldier_moves_its_stance_distance_for_1_ap(stance: str, inches: float) -> None:
    state = board([soldier(stance=stance, ap=3)])
    verdict = judge(state, path=[[10 + inches, 10]])
    assert verdict.legal, verdict.to_json()
    assert verdict.cost == pytest.approx(inches)
    assert verdict.allowance == pytest.approx(inches)
    assert after(verdict)["ap"] == 2
    assert after(verdict)["activated"] is True


@pytest.mark.parametrize(("stance", "inches"), SEED_TABLE)
def test_a_tenth_of_an_inch_more_than_the_stance_distance_is_speed_exceeded(
    stance: str, inches: float
) -> None:
    state = board([soldier(stance=stance, ap=3)])
    verdict = judge(state, path=[[10 + inches + 0.1, 10]])
    assert verdict.codes == ["speed_exceeded"]
    assert verdict.cost == pytest.approx(inches + 0.1)
    assert verdict.state_after is not None
    assert verdict.state_after.unit("S1").get("ap") == 3  # an illegal move spends nothing


@pytest.mark.parametrize(("stance", "inches"), SEED_TABLE)
def test_only_the_standing_row_may_run_9_inches(stance: str, inches: float) -> None:
    state = board([soldier(stance=stance, ap=3)])
    verdict = judge(state, "run", [[19, 10]])
    if stance == "standing":
        assert verdict.legal and verdict.allowance == pytest.approx(9.0)
        assert after(verdict)["running"] is True and after(verdict)["ap"] == 0
    else:  # not standing, and 9" is also beyond three of its AP moves (APS-D25)
        assert verdict.codes[0] == "action_not_allowed"
        assert set(verdict.codes) == {"action_not_allowed", "speed_exceeded"}


@pytest.mark.parametrize(("stance", "inches"), SEED_TABLE)
def test_a_units_own_move_replaces_every_row(stance: str, inches: float) -> None:
    """APS-D14: the Scavenger's `move` 5 replaces the stance distance."""
    state = board([soldier(stance=stance, move=5, diameter=3)])
    assert judge(state, path=[[15, 10]]).legal
    assert judge(state, path=[[15.2, 10]]).codes == ["speed_exceeded"]
