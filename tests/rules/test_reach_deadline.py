"""Reach and the nearest alternative under a caller's deadline (issue 21; rules/geometry/
deadline.py). A reach the deadline stops is cut short as one the work bound stops: a
subset of the whole area, exact to its horizon, every point of it reached by a path
validate accepts (aod 000 [32]: a move may not exceed its allowance; section 6.1:
terrain the unit may not touch), and it says so (`complete` false; scenario-format.md,
"Other commands": `horizon` is the path length to which `area` is exact). Without a
deadline (the CLI, the golden files) nothing reads the clock."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from itertools import count
from typing import Any

import pytest
from shapely.geometry import Point

import rules
from rules import action_from_json, reach, state_to_json, validate
from rules.engine import edge_crossings
from rules.geometry import deadline as clocks
from rules.model.actions import Action
from rules.referee.alternative import nearest_alternative
from rules.referee.cli import main
from rules.referee.questions import reach_answer
from rules.systems.aod.reach_elevated import target_depth
from tests.rules.scenes import scene, square, unit
from tests.rules.test_properties import GRID, reach_is_sound
from tests.rules.test_reach_bound import UNBOUNDED, crowded, reach_with

ORDERS = {"orders_available": 3}


@pytest.fixture
def ticking(monkeypatch: Any) -> Iterator[Callable[[], float]]:
    """The deadline's clock, one second a reading: a deadline of n seconds passes after n
    checks, the same on every machine."""
    ticks = count()

    def clock() -> float:
        return float(next(ticks))

    monkeypatch.setattr(clocks, "clock", clock)
    yield clock


def test_a_reach_cut_short_by_the_deadline_says_so_and_is_exact_to_its_horizon(
    ticking: Any, monkeypatch: Any
) -> None:
    state = crowded(16)
    with rules.deadline(40):  # forty visibility tests
        cut = reach(state, "U")
    with rules.deadline(40):  # what the CLI and the server print
        answer = reach_answer(crowded(16), Action("U", "move"))
    whole = reach_with(UNBOUNDED, crowded(16), monkeypatch)
    assert whole.complete
    assert not cut.complete and 0 < cut.horizon < cut.allowance == 16
    assert answer["complete"] is False and answer["horizon"] == round(cut.horizon, 3)
    assert whole.area.buffer(1e-6).covers(cut.area) and cut.area.area < whole.area.area
    # Exact to the horizon: what the whole search reaches within it (up to the rays).
    horizon = reach_with(UNBOUNDED, crowded(cut.horizon), monkeypatch)
    assert horizon.area.symmetric_difference(cut.area).area < 0.05
    assert reach_is_sound(state, "move", GRID, dice=[6] * 2) > 50  # of the cut reach


def test_a_deadline_already_past_leaves_a_reach_exact_to_no_more_than_its_first_step(
    ticking: Any,
) -> None:
    with rules.deadline(0):
        cut = reach(crowded(16), "U")
    assert not cut.complete and cut.horizon < 16
    assert cut.area.area < reach(crowded(16), "U").area.area


def test_without_a_deadline_the_clock_is_never_read(monkeypatch: Any) -> None:
    """The CLI and the golden files: the answer depends on the position alone."""

    def no_clock() -> float:
        raise AssertionError("the clock was read without a deadline")

    monkeypatch.setattr(clocks, "clock", no_clock)
    found = reach(crowded(12), "U")
    with rules.deadline(None):
        again = reach(crowded(12), "U")
    assert found.complete and found.area.equals_exact(again.area, 0)


def test_an_inner_deadline_never_outlasts_an_outer_one(ticking: Any) -> None:
    with rules.deadline(5), rules.deadline(1000):
        assert not clocks.expired()
        while not clocks.expired():
            pass
        assert clocks.expired()
    assert not clocks.expired()


def test_the_alternative_found_in_time_is_offered_and_none_past_the_deadline(
    ticking: Any,
) -> None:
    # 001 [16]: a mech moves up to its move (10") in inches; the alternative is the
    # reachable end nearest the drop, or none where the deadline passed before one.
    state = scene([unit("M1", position=(10, 5))], state=ORDERS)
    refused = action_from_json({"unit": "M1", "type": "move", "path": [[10, 20]]}, state)
    with rules.deadline(10_000):
        found = nearest_alternative(state, refused)
    assert found is not None and validate(state, found.action).legal
    late = scene([unit("M1", position=(10, 5))], state=ORDERS)
    with rules.deadline(0):
        assert nearest_alternative(late, refused) is None


def test_the_command_line_asks_within_a_deadline_only_when_told(
    ticking: Any, tmp_path: Any, capsys: Any
) -> None:
    scenario = state_to_json(crowded(12)) | {
        "action": {"unit": "U", "type": "move", "path": [[18, 30]]}
    }
    path = tmp_path / "crowded.json"
    path.write_text(json.dumps(scenario))
    assert main(["reach", str(path)]) == 0
    whole = json.loads(capsys.readouterr().out)
    assert main(["reach", "--deadline", "40000", str(path)]) == 0  # forty ticks
    cut = json.loads(capsys.readouterr().out)
    assert whole["complete"] is True and whole["horizon"] == 12
    assert cut["complete"] is False and 0 < cut["horizon"] < 12


def test_the_bands_onto_elevated_terrain_stop_at_the_deadline_nearest_first(
    monkeypatch: Any,
) -> None:
    """000 [33], AOD-D9: a unit entering elevated terrain ends where the engine puts it
    on; those ends are sampled along the edges, nearest first, and a deadline that passes
    among them leaves out only ends farther than the horizon it reports."""
    hill = square("E1", "elevated", 12, 4, 20, 16)
    whole = reach(scene([unit("U", position=(8, 10), diameter=2.0, move=8)], [hill]), "U")
    readings = count()
    monkeypatch.setattr(edge_crossings, "CHUNK", 50)  # one sample an inch of edge
    monkeypatch.setattr(edge_crossings, "expired", lambda: next(readings) >= 2)
    state = scene([unit("U", position=(8, 10), diameter=2.0, move=8)], [hill])
    cut = reach(state, "U")
    assert whole.complete and not cut.complete
    assert 0 < cut.horizon < 8
    assert whole.area.buffer(1e-6).covers(cut.area)
    assert cut.area.distance(Point(12 + target_depth(1.0), 10)) < 0.01  # the nearest ends
    assert reach_is_sound(state, "move", GRID, dice=[6] * 2) > 20


def test_the_alternatives_reach_leaves_time_for_its_candidates(ticking: Any) -> None:
    """001 [16], 000 [33]: under a deadline the alternative's own reach takes only a share
    of it (cut short, it says so), and the candidates are still judged in time."""
    state = crowded(16)
    refused = action_from_json({"unit": "U", "type": "move", "path": [[18, 35]]}, state)
    assert not validate(state, refused).legal
    with rules.deadline(60):  # sixty readings of the clock
        found = nearest_alternative(state, refused)
    assert not reach(state, "U").complete  # the reach it built, kept on the state
    assert found is not None and validate(state, found.action).legal
