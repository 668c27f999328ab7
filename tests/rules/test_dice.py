"""The kernel's dice: any die size, pass/fail tests, and the unresolved mode a preview
uses (design.md, "The life of a move" 6: a preview never rolls dice)."""

from __future__ import annotations

import pytest

from rules import DiceExhaustedError, GameState, validate
from rules.engine.dice import Dice, make_dice
from tests.rules.scenes import scene, unit

BREAKAWAY = {"unit": "M1", "type": "move", "path": [[10, 14]]}


def mech_in_contact_with_an_enemy() -> GameState:
    """M1 ('Mech, breakaway 3-6, 000 [16]) touches E at the start of its move."""
    return scene(
        [unit("M1", move=6, position=(10, 10)), unit("E", side="P2", position=(11, 10))],
        state={"orders_available": 2},
    )


def test_a_die_of_any_size_rolls_from_one_to_its_sides() -> None:
    dice = make_dice()
    results = {dice.d(20, "any") for _ in range(2000)}
    assert results == set(range(1, 21))


def test_d6_is_a_die_of_six_sides() -> None:
    dice = make_dice()
    assert {dice.d6("any") for _ in range(600)} == set(range(1, 7))


def test_forced_results_are_used_in_order_whatever_the_die() -> None:
    dice = make_dice([9, 2])
    assert (dice.d(10, "first"), dice.d6("second")) == (9, 2)
    with pytest.raises(DiceExhaustedError):
        dice.d(10, "third")


def test_a_die_needs_at_least_two_sides() -> None:
    with pytest.raises(ValueError):
        make_dice().d(1, "coin with one face")


def test_a_pass_fail_test_succeeds_at_or_above_its_target() -> None:
    dice = make_dice([5, 4])
    passed, failed = dice.test("terrain", 10, 5), dice.test("terrain", 10, 5)
    assert (passed.die, passed.needed, passed.result, passed.success) == ("d10", "5-10", 5, True)
    assert (failed.result, failed.success) == (4, False)


def test_unresolved_dice_roll_nothing_and_consume_no_forced_result() -> None:
    """An empty forced list raises on any roll (contract): None here proves no roll."""
    dice = make_dice([], [], unresolved=True)
    assert dice.d(6, "breakaway") is None
    assert dice.d6("breakaway") is None
    assert dice.outcome("capture") is None


def test_an_unresolved_test_is_a_pending_roll_that_names_what_it_needs() -> None:
    roll = Dice(unresolved=True).test("breakaway", 6, 3, decides="on 3-6 it moves")
    assert roll.pending and roll.result is None and roll.success is None
    assert roll.to_json() == {
        "what": "breakaway",
        "die": "d6",
        "result": None,
        "needed": "3-6",
        "success": None,
        "pending": True,
        "decides": "on 3-6 it moves",
    }


def test_a_rolled_die_keeps_the_contracts_roll_shape() -> None:
    """Golden files compare rolls by the contract's five keys (scenario-format VERDICT)."""
    roll = make_dice([4]).test("breakaway", 6, 4)
    assert roll.to_json() == {
        "what": "breakaway",
        "die": "d6",
        "result": 4,
        "needed": "4-6",
        "success": True,
    }


def test_a_previewed_breakaway_reports_the_roll_needed_and_rolls_nothing() -> None:
    """000 [16]: a 'Mech breaks away on 3-6. The preview shows the move as a success would
    make it, with the pending roll; it never rolls (AOD-D23 makes a failure cost the order)."""
    verdict = validate(
        mech_in_contact_with_an_enemy(), BREAKAWAY, dice=make_dice([], unresolved=True)
    )
    assert verdict.legal, verdict.reasons
    [roll] = verdict.pending
    assert (roll.what, roll.die, roll.needed) == ("breakaway", "d6", "3-6")
    assert "order is spent" in roll.decides
    assert verdict.to_json()["rolls"][0]["result"] is None


def test_a_committed_breakaway_rolls_and_a_failure_spends_the_order() -> None:
    """The same move with a die: 2 fails against 3-6 (000 [16]); AOD-D23."""
    verdict = validate(mech_in_contact_with_an_enemy(), BREAKAWAY, dice=[2])
    assert verdict.codes == ["breakaway_failed"] and verdict.changed and not verdict.pending
    assert verdict.state_after is not None
    assert verdict.state_after.turn["orders_used"] == 1
