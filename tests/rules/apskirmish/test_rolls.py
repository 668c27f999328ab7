"""Rolls (apskirmish.md 6, APS-D1): forced outcomes, the engine's d10 against the stat,
the GM's result awaited with `roll_required`, and a preview that rolls nothing."""

from __future__ import annotations

import pytest

from rules import DiceExhaustedError, make_dice
from tests.rules.apskirmish.build import after, area, board, judge, soldier

ROUGH = [area("R1", "rough", 11, 8, 12, 12)]


def over_rough(options: dict[str, object] | None = None, **extra: object) -> object:
    return board([soldier(ap=3, **extra)], ROUGH, options=options)


@pytest.mark.parametrize(("die", "success"), [(1, True), (6, True), (7, False), (10, False)])
def test_the_engine_rolls_a_d10_that_succeeds_at_most_the_stat(die: int, success: bool) -> None:
    """APS-D1, default `tests: "d10"`: a Terrain roll is a PSQ roll; PSQ 6 passes on 1-6."""
    verdict = judge(over_rough(), path=[[13, 10]], dice=[die])
    (roll,) = verdict.to_json()["rolls"]
    assert roll == {
        "what": "terrain",
        "result": "success" if success else "fail",
        "success": success,
        "die": "d10",
        "roll": die,
        "needed": "1-6",
    }
    assert after(verdict)["position"] == ([13, 10] if success else [12, 10])


def test_opt_up_on_a_dodge_lowers_the_target_by_2_per_level() -> None:
    """A Dodge may Opt Up; each level moves the d10 target by 2 (APS-D1)."""
    state = board([soldier(ap=3)])
    plain = judge(state, "dodge", source=[5, 10], dice=[4])
    opted = judge(state, "dodge", source=[5, 10], dice=[4], opt_up=1)
    assert plain.to_json()["rolls"][0]["needed"] == "1-5"  # INS 5
    assert opted.to_json()["rolls"][0]["needed"] == "1-3"
    assert plain.rolls[0].success is True and opted.rolls[0].success is False


def test_forced_outcomes_override_the_d10_and_the_gm() -> None:
    for options in ({}, {"tests": "gm"}):
        verdict = judge(over_rough(options), path=[[13, 10]], outcomes=[False])
        assert verdict.legal
        assert verdict.to_json()["rolls"] == [
            {"what": "terrain", "result": "fail", "success": False}
        ]


def test_with_the_gm_entering_results_the_move_waits_with_roll_required() -> None:
    """`tests: "gm"`: the action is refused with roll_required and a pending roll until
    the GM's result comes, then judged again with it, it completes."""
    state = over_rough({"tests": "gm"})
    waiting = judge(state, path=[[13, 10]])
    assert waiting.codes == ["roll_required"]
    assert [r.what for r in waiting.pending] == ["terrain"]
    assert waiting.to_json()["rolls"][0]["waiting_for"] == "gm"
    assert waiting.state_after == state and not waiting.changed
    done = judge(state, path=[[13, 10]], outcomes=[True])
    assert done.legal and after(done)["position"] == [13, 10]


def test_a_soldier_without_the_stat_waits_for_the_gm_too() -> None:
    verdict = judge(board([soldier(stats={})], ROUGH), path=[[13, 10]])
    assert verdict.codes == ["roll_required"]


def test_a_preview_rolls_nothing_and_shows_the_pending_roll() -> None:
    """A preview reports the roll a commit would make and what success would give."""
    dice = make_dice([1], [True], unresolved=True)
    verdict = judge(over_rough(), path=[[13, 10]], dice=dice)
    assert verdict.legal
    assert [r.what for r in verdict.pending] == ["terrain"]
    assert dice.forced_dice == [1] and dice._d == 0 and dice._o == 0


def test_running_out_of_forced_outcomes_is_dice_exhausted() -> None:
    with pytest.raises(DiceExhaustedError):
        judge(over_rough(), path=[[13, 10]], outcomes=[])


def test_no_roll_without_rough_ground_on_the_line() -> None:
    verdict = judge(
        board([soldier(ap=3)], [area("R1", "rough", 11, 11, 12, 12)]), path=[[13, 10]], outcomes=[]
    )
    assert verdict.legal and verdict.rolls == ()


def test_forced_dice_may_give_any_d10_face_but_not_11() -> None:
    from rules import load_scenario
    from rules.model.errors import InvalidActionError

    raw = {
        "system": "apskirmish",
        "table": {"width": 24, "height": 24},
        "units": [soldier()],
        "dice": [10],
        "action": {"unit": "S1", "type": "move", "path": [[11, 10]]},
    }
    assert load_scenario(raw).dice == (10,)
    with pytest.raises(InvalidActionError):
        load_scenario({**raw, "dice": [11]})


def test_a_preview_says_what_the_commit_would_roll() -> None:
    """d10 mode: "1-6 on d10" against PSQ 6; the GM's mode: the roll the GM makes."""
    d10 = judge(over_rough(), path=[[13, 10]], dice=make_dice(unresolved=True))
    assert {k: d10.to_json()["rolls"][0][k] for k in ("die", "needed", "pending")} == {
        "die": "d10",
        "needed": "1-6",
        "pending": True,
    }
    gm = judge(over_rough({"tests": "gm"}), path=[[13, 10]], dice=make_dice(unresolved=True))
    # The GM reads the stat's value too (apskirmish.md 6, APS-D1: the GM enters the result).
    assert gm.legal and gm.to_json()["rolls"][0]["needed"] == "Terrain roll (Normal PSQ 6)"
