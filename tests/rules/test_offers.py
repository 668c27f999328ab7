"""Offers (scenario-format.md, "Other commands"): over every golden file of every system,
a legal action's type is offered to its unit in the position before it, and a type
refused whatever its path (`no_actions_left`, `not_your_turn`) is not; plus the offers
of the defect files of issue 20 (aod 2 of 2 orders offered Move, apskirmish 2 AP
offered Run, aod's formation move never offered)."""

from __future__ import annotations

import functools
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rules import load_scenario, validate
from rules.engine.scenario import Scenario, state_to_json
from rules.model.actions import Action, MalformedAction, Turn
from rules.model.state import GameState
from rules.referee.check import Outcome, run_scenario
from rules.referee.offers import offered_types
from rules.referee.questions import offers_answer

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.rglob("*.json"))
#: Refusals no path can lift: the action's type must not be offered.
WHATEVER_THE_PATH = frozenset({"no_actions_left", "not_your_turn"})


def judged(path: Path) -> tuple[Scenario, list[Outcome]]:
    scenario = load_scenario(json.loads(path.read_text()))
    return scenario, run_scenario(scenario)


def offers_before(scenario: Scenario, outcome: Outcome) -> dict[str, list[str]]:
    before = outcome.before if outcome.before is not None else scenario.state
    return offered_types(before)


def free_turn_stays_open(before: GameState, unit: str) -> bool:
    """M.S. Wars: a standalone free turn is a `standard_move` of 0 AC that uses no move
    action (002 Turning, MSW-D26), so `standard_move` stays offered after a
    `no_actions_left` refusal while the free turn is left, and must then be legal."""
    turn = Action(unit, "standard_move", path=(Turn(1.0),))
    return before.system == "mswars" and validate(before, turn, dice=[]).legal


def test_offers_agree_with_the_referee_on_every_golden_file() -> None:
    checked: Counter[str] = Counter()
    wrong: list[str] = []
    for path in FILES:
        scenario, outcomes = judged(path)
        for outcome in outcomes:
            action = scenario.actions[outcome.index]
            verdict = outcome.verdict
            before = outcome.before
            if (
                verdict is None
                or before is None
                or isinstance(action, MalformedAction)
                or before.unit(action.unit) is None
            ):
                continue
            offered = offered_types(before)[action.unit]
            codes = {r.code for r in verdict.reasons}
            name = f"{path.relative_to(GOLDEN)} action {outcome.index}"
            if verdict.legal:
                checked[f"{before.system} legal"] += 1
                if action.type not in offered:
                    wrong.append(f"{name}: legal {action.type} not offered ({offered})")
            elif codes & WHATEVER_THE_PATH:
                checked[f"{before.system} refused"] += 1
                if action.type in offered and not (
                    action.type == "standard_move" and free_turn_stays_open(before, action.unit)
                ):
                    wrong.append(f"{name}: {action.type} refused {sorted(codes)} but offered")
    print("offers checked:", dict(sorted(checked.items())))
    assert not wrong, "\n".join(wrong)
    for system in ("aod", "mswars", "lasergrenadiers", "apskirmish"):
        assert checked[f"{system} legal"] >= 100, checked  # every system's files took part
    # LaserGrenadiers refuses neither code: its judge never refuses on activations
    # (LG-D37) and it counts no orders or points; the others' files must take part.
    for system in ("aod", "mswars", "apskirmish"):
        assert checked[f"{system} refused"] >= 1, checked


def offers_of(name: str) -> list[dict[str, list[str]]]:
    """The offers before each action of a golden file (as `python -m rules offers`)."""
    scenario, outcomes = judged(GOLDEN / name)
    return [offers_answer(o.before or scenario.state)["offers"] for o in outcomes]


def test_an_aod_side_that_used_2_of_2_orders_is_offered_no_order() -> None:
    # 001 [13], AOD-D22: 250 points give 2 orders; the 'Mechs, once given theirs, are
    # offered nothing; with both used no unit of the side is offered Move.
    first, second, third = offers_of("aod/03_two_of_two_orders_used_no_unit_is_offered_a_move.json")
    assert "move" in first["M1"] and "move" in first["I1"]
    assert second["M1"] == [] and "run" in second["M2"]
    assert third["I1"] == [] and third["M2"] == []


def test_an_apskirmish_soldier_with_2_ap_is_offered_move_but_not_run() -> None:
    # 004 Running: a run spends 3 AP together, and only a Standing soldier runs.
    before_run = offers_of("apskirmish/02_soldier_with_2_ap_is_offered_move_not_run.json")[0]
    assert "move" in before_run["S1"] and "run" not in before_run["S1"]
    assert "move" in before_run["S2"] and "run" not in before_run["S2"]  # prone


def test_aod_formation_move_is_offered_to_units_with_formation_mates() -> None:
    # 000 [29], AOD-D12: three touching infantry and vehicles (a Mercenary joins any
    # faction) may move as one order; a unit touching nobody has no formation.
    offers = offers_of("aod/11_1_three_touching_units_are_offered_a_formation_move.json")[0]
    assert all("formation_move" in offers[u] for u in ("I1", "I2", "T1"))
    assert "formation_move" not in offers["I4"]


@pytest.mark.parametrize(
    "name, unit, kind",
    [
        (
            "lasergrenadiers/09_two_loads_by_the_vehicle_are_two_transfer_events_a_third_each.json",
            "V1",
            "load",
        ),
        (
            "lasergrenadiers/09_two_unloads_by_the_vehicle_are_two_transfer_events_a_third_each.json",
            "V1",
            "unload",
        ),
    ],
)
def test_a_lasergrenadiers_vehicle_in_contact_with_pieces_is_offered_its_transfer(
    name: str, unit: str, kind: str
) -> None:
    # 003 Transport 1, LG-D34: the vehicle loads pieces in contact, or sets down those
    # aboard; both are offered to it while a third of its allowance is left.
    assert kind in offers_of(name)[0][unit]


def test_the_table_turn_offers_nothing_to_the_side_not_to_act() -> None:
    scenario, _ = judged(GOLDEN / "aod/03_two_of_two_orders_used_no_unit_is_offered_a_move.json")
    turn = {"turn": 1, "active_side": "P2", "sides": ["P1", "P2"]}
    offers = offered_types(scenario.state, turn)
    assert offers["M1"] == [] and offers["I1"] == [] and "move" in offers["M9"]


def asked_of_the_system(monkeypatch) -> tuple[GameState, Any, Counter[str]]:
    """aod's 2-of-2-orders position, its system, and a count of the system's offers asked
    per unit from now on (`System.offered`, its real hook as `offered.__wrapped__`)."""
    from rules.systems.registry import get_system

    scenario, _ = judged(GOLDEN / "aod/03_two_of_two_orders_used_no_unit_is_offered_a_move.json")
    system = get_system(scenario.state.system)
    asked: Counter[str] = Counter()
    real = type(system).offered

    @functools.wraps(real)
    def counted(self, state, unit):
        asked[unit.id] += 1
        return real(self, state, unit)

    monkeypatch.setattr(type(system), "offered", counted)
    return scenario.state, system, asked


def test_one_position_asks_the_system_its_offers_once(monkeypatch) -> None:
    # scenario-format.md, "Other commands" (offers) and issue 20's one truth: the board's
    # view of a position (with the table's turn), its reach and its nearest alternative
    # read the same offers, so the system is asked them once per position, and the view
    # itself is made once per position and turn.
    from rules.referee.board_view import board_view
    from rules.referee.offers import is_offered

    state, system, asked = asked_of_the_system(monkeypatch)
    real = type(system).offered.__wrapped__
    turn = {"turn": 1, "active_side": "P2", "sides": ["P1", "P2"]}
    first = board_view(state, turn)
    assert board_view(state, turn) == first
    # Reach asks without the table's turn (the referee's own preconditions only).
    assert is_offered(state, "M9", "move") and is_offered(state, "M1", "move")
    assert offered_types(state) == {u.id: list(real(system, state, u)) for u in state.units}
    assert set(asked.values()) == {1} and set(asked) == {u.id for u in state.units}
    # The turn still decides what is offered: P1's units are offered nothing in P2's turn.
    assert first["actions"]["M1"] == [] and "move" in first["actions"]["M9"]
    assert board_view(state, {**turn, "active_side": "P1"})["actions"]["M9"] == []


def test_the_board_asks_the_system_nothing_of_a_side_the_turn_lets_take_no_action(
    monkeypatch,
) -> None:
    # scenario-format.md, "Other commands" (offers): a type refused whatever its path
    # (`not_your_turn`) is never offered, so the table's turn is asked first and the units
    # of the side not to act cost the system no precondition checks; what is offered is
    # still what both the turn and the system allow.
    from rules.referee.board_view import board_view

    state, system, asked = asked_of_the_system(monkeypatch)
    real = type(system).offered.__wrapped__
    refusal = system.turn_structure.refusal
    refused_for: Counter[str] = Counter()

    def counted(turn, position, side, action=None):
        refused_for[action["unit"]] += 1
        return refusal(turn, position, side, action)

    monkeypatch.setattr(system.turn_structure, "refusal", counted)
    turn = {"turn": 1, "active_side": "P2", "sides": ["P1", "P2"]}
    view = board_view(state, turn)
    assert dict(asked) == {"M9": 1}  # P1's three units: not asked
    # Nor the turn, type by type: it refuses P1 everything (not its turn, aod.md 3).
    assert set(refused_for) == {"M9"}
    position = state_to_json(state)
    assert view["actions"] == {
        unit.id: [
            kind
            for kind in real(system, state, unit)
            if refusal(turn, position, unit.side, {"unit": unit.id, "type": kind}) is None
        ]
        for unit in state.units
    }
    assert view["actions"]["M1"] == [] and "move" in view["actions"]["M9"]
