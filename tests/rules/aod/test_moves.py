"""Moves, breakaway, water and elevated terrain: decisions docs/rules-engine.md records."""

from __future__ import annotations

import math

import pytest

from rules import validate
from tests.rules.kernel_moves import played_by_kernel
from tests.rules.scenes import scene, square, unit


def test_an_illegal_path_is_refused_before_any_breakaway_roll() -> None:
    """The roll happens only for a legal declaration (000 [16]); "dice": [] is enough."""
    s = scene([unit("M1", move=4, position=(10, 10)), unit("E", side="P2", position=(11, 10))])
    v = validate(s, {"unit": "M1", "type": "move", "path": [[10, 20]]}, dice=[])
    assert v.codes == ["speed_exceeded"] and not v.rolls


def test_a_mech_breaking_away_from_infantry_pushes_it() -> None:
    """Push damage: non-Quad 'Mechs deal 1 to opposing infantry in contact (000 [17])."""
    s = scene(
        [
            unit("M1", move=6, position=(10, 10)),
            unit("I", side="P2", type="infantry", move=4, position=(11, 10)),
        ]
    )
    v = validate(s, {"unit": "M1", "type": "move", "path": [[10, 14]]}, dice=[3])
    assert v.legal
    assert v.rolls[0].needed == "3-6"
    assert {"type": "push_damage", "unit": "I", "by": "M1", "damage": 1} in v.events


def test_a_failed_breakaway_spends_the_order_and_entitles_a_free_spin() -> None:
    """AOD-D23: illegal verdict, changed state."""
    s = scene(
        [unit("M1", move=6, position=(10, 10)), unit("E", side="P2", position=(11, 10))],
        state={"orders_available": 2},
    )
    v = validate(s, {"unit": "M1", "type": "move", "path": [[10, 14]]}, dice=[2])
    assert v.codes == ["breakaway_failed"]
    after = v.state_after
    assert after.unit("M1").position == (10.0, 10.0)
    assert after.turn["orders_used"] == 1 and after.turn["free_spin_pending"] == ["M1"]


def test_ending_in_contact_entitles_the_opposing_mech_but_not_a_vehicle() -> None:
    """000 [16, 18]; never vehicles (000 [17])."""
    s = scene(
        [
            unit("M1", move=8, position=(5, 10.5)),
            unit("E", side="P2", position=(10, 10)),
            unit("V", side="P2", type="tracked", position=(10, 11.0)),
        ]
    )
    # Ends touching both at once: centre 1" from each (radii 0.5).
    v = validate(s, {"unit": "M1", "type": "move", "path": [[10 - math.sqrt(0.75), 10.5]]})
    assert v.legal, v.reasons
    assert v.state_after.turn["free_spin_pending"] == ["E"]


def test_a_mech_standing_in_water_reports_heat_loss_and_a_colossal_submerges() -> None:
    """001 HEAT LOSS [22] as events; deep water submerges (000 [33])."""
    water = [square("S1", "shallow_water", 0, 0, 20, 20), square("D1", "deep_water", 20, 0, 30, 20)]
    s = scene(
        [
            unit("M1", move=8, position=(10, 10)),
            unit("C1", type="colossal_mech", move=8, position=(25, 5), diameter=2),
        ],
        water,
    )
    v = validate(s, {"unit": "M1", "type": "move", "path": [[10, 12]]})
    assert {"type": "water_heat", "unit": "M1", "clicks": -1} == {
        k: v.events[-1][k] for k in ("type", "unit", "clicks")
    }
    c = validate(s, {"unit": "C1", "type": "move", "path": [[25, 7]]})
    assert any(e["type"] == "submerged" for e in c.events)


def test_entering_elevated_terrain_ends_repositioned_entirely_on_it() -> None:
    """Stop upon occupying; reposition on, free (000 [33], AOD-D9)."""
    s = scene(
        [unit("M1", move=8, position=(8, 10), diameter=2)],
        [square("E1", "elevated", 12, 4, 20, 16)],
    )
    v = validate(s, {"unit": "M1", "type": "move", "path": [[12, 10]]})
    assert v.legal and math.isclose(v.cost, 4, abs_tol=0.001)
    x, y = v.state_after.unit("M1").position
    assert math.isclose(x, 13.0, abs_tol=0.011) and y == 10


def test_charge_reads_started_in_contact_from_the_turn_state() -> None:
    """AOD-D36: state.started_in_contact wins over current positions."""
    units = [unit("M1", move=8, position=(5, 10)), unit("E", side="P2", position=(9, 10))]
    action = {"unit": "M1", "type": "charge", "target": "E", "path": [[8, 10]]}
    assert validate(scene(units), action).legal
    marked = scene(units, state={"started_in_contact": ["M1"]})
    assert validate(marked, action).codes == ["order_not_allowed"]


def test_a_captive_carried_into_hindering_terrain_triggers_the_stop() -> None:
    """Hindering rules apply if either base enters hindering terrain (001 [27])."""
    s = scene(
        [
            unit("I", type="infantry", move=6, position=(10, 10)),
            unit("E", side="P2", type="wheeled", move=6, position=(11, 10), captive_of="I"),
        ],
        [square("H1", "hindering", 11.2, 12, 16, 16)],
    )
    v = validate(s, {"unit": "I", "type": "move", "path": [[10, 15]]})
    assert "must_stop_hindering" in v.codes


def test_a_vtol_climbs_for_2_inches_and_then_ignores_terrain() -> None:
    """000 [17], [18]; the climb happens at the start (AOD-D26)."""
    s = scene(
        [unit("V1", type="vtol", move=10, position=(5, 10))],
        [square("B1", "blocking", 7, 5, 8, 15)],
    )
    v = validate(s, {"unit": "V1", "type": "move", "altitude": "cruising", "path": [[11, 10]]})
    assert v.legal and v.cost == 8
    assert v.state_after.unit("V1").get("altitude") == "cruising"


def test_a_charge_is_offered_for_an_opposing_target_and_only_those_are_weighed(
    monkeypatch,
) -> None:
    """001 [27-28]: a charge, ram, DFA or full-speed assault targets an opposing unit; the
    board offers one while some unit may be its target (aod/offers.py), asking the judge's
    target check of the opposing units alone (a side's own units never pass it)."""
    from rules.referee.offers import offered_types
    from rules.systems.aod import offers

    weighed: list[tuple[str, str]] = []
    real = offers.target_problems

    def counted(position, unit, action):
        weighed.append((unit.side, position.state.unit(action.get("target")).side))
        return real(position, unit, action)

    monkeypatch.setattr(offers, "target_problems", counted)
    friends = [unit(f"F{i}", position=(5 + 3 * i, 20)) for i in range(4)]
    units = [unit("M1", position=(5, 10)), *friends, unit("E", side="P2", position=(30, 30))]
    assert "charge" in offered_types(scene(units))["M1"]
    assert set(weighed) == {("P1", "P2"), ("P2", "P1")}  # never a unit of its own side
    # An opposing unit held captive is no target (001 [26-27]): nothing left to charge.
    captive = unit("E", side="P2", position=(30, 30), captive_of="F0")
    assert "charge" not in offered_types(scene([*units[:-1], captive]))["M1"]


def test_move_run_and_a_failed_breakaway_are_played_by_the_kernels_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The kernel's Play.move plays aod's orders along a path through aod's hooks (issue 24),
    a failed breakaway too: illegal, the order spent, the unit where it was (000 [16],
    AOD-D23)."""
    played = played_by_kernel(monkeypatch)
    s = scene(
        [unit("M1", move=6, position=(10, 10)), unit("E", side="P2", position=(11, 10))],
        state={"orders_available": 2},
    )
    failed = validate(s, {"unit": "M1", "type": "move", "path": [[10, 14]]}, dice=[2])
    ran = validate(s, {"unit": "M1", "type": "run", "path": [[10, 14]]}, dice=[5])
    assert played == ["move", "run"]
    assert failed.codes == ["breakaway_failed"] and failed.state_after.turn["orders_used"] == 1
    assert failed.state_after.unit("M1").position == (10.0, 10.0)
    assert ran.legal and ran.state_after.unit("M1").position == (10.0, 14.0)
