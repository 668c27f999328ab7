"""How the engine plays a system (rules/engine/play.py): a system gives tables and hooks,
the kernel dispatches, judges a move along a path, builds the verdict and the reach.

The system here is written as a seed system would write its rules: tracked vehicles that
may not move sideways (`003 Ground vehicle movement 3c`), a turn that costs a share of the
allowance (`003 Turning 4`), a charge that must end touching its target
(`002 Charge Move Action`), a piece that boards a carrier and leaves the table
(`002 Enter Unit`).
"""

from __future__ import annotations

from typing import Any

import pytest
from shapely.geometry import Point

import rules
from rules.engine.catalogue import ActionSpec, TerrainKind
from rules.engine.judgement import AFTER
from rules.engine.move_in_play import MoveInPlay
from rules.engine.position import Position
from rules.engine.reach import Reach
from rules.engine.system import System
from rules.engine.verdict import Verdict
from rules.model.actions import Action
from rules.model.state import GameState, Unit
from rules.systems import registry


def no_path(point: tuple[float, float]) -> None:
    return None


class Tanks(System):
    key = "tanks"
    name = "Tanks"
    actions = tuple(ActionSpec(t, t.capitalize()) for t in ("move", "charge", "board", "hail"))
    terrain_kinds = (TerrainKind("mud", "Mud"),)
    terrain_types = frozenset({"mud"})
    unit_types = frozenset({"tracked"})
    terrain_costs = {"mud": 2.0}
    path_cites = {
        "prohibited_terrain": "003 Terrain 4",
        "off_table": "003 Leaving the board 1",
        "sideways": "003 Ground vehicle movement 3c",
        "move": "003 Movement",
    }
    handlers = {"hail": lambda pos, unit, action, dice: Verdict(True, 0.0, 0.0, ())}
    reach_builders = {"move": lambda pos, unit, kind: Reach(unit.id, kind, Point(), 1.0, no_path)}
    off_table_ends = frozenset({"board"})

    def direction(self, unit: Unit, facing: float, dx: float, dy: float) -> tuple[float, bool, str]:
        sideways = abs(dx) < 1e-9  # the tanks here face east (0 degrees)
        return 1.0, not sideways, "sideways" if sideways else "forward"

    def turn_cost(self, unit: Unit, angle: float, rate: float, free: float) -> float:
        return abs(angle) / 45.0  # 1" a 45 degrees

    def check_moved(self, move: MoveInPlay) -> None:
        end = move.priced.end
        if move.action.type == "charge" and end.x < 9.0:
            move.judgement.add("must_end_in_contact", "not in contact", end.xy, "002", AFTER)

    def move_events(self, move: MoveInPlay) -> list[dict[str, Any]]:
        charged = (
            [{"type": "charged", "unit": move.unit.id}] if move.action.type == "charge" else []
        )
        return [*super().move_events(move), *charged]

    def after_move(self, move: MoveInPlay) -> GameState:
        state: GameState = move.position.state
        return state.with_units(move.moved.with_props(moved_by=move.action.type))


@pytest.fixture
def state(monkeypatch: pytest.MonkeyPatch) -> GameState:
    monkeypatch.setitem(registry.SYSTEMS, "tanks", Tanks())
    mud = [[4, 0], [6, 0], [6, 10], [4, 10]]
    base = {"shape": "circle", "diameter": 1}
    tank = {"id": "T1", "side": "P1", "type": "tracked", "move": 10, "base": base}
    return rules.state_from_json(
        {
            "system": "tanks",
            "table": {"width": 20, "height": 10},
            "terrain": [{"id": "M1", "type": "mud", "polygon": mud}],
            "units": [{**tank, "position": [2, 5], "facing": 0}],
        }
    )


def test_a_move_is_priced_by_the_systems_terrain_table(state: GameState) -> None:
    """003 Terrain effects: 2" of open ground, 2" of mud at 2" an inch, 1" more open."""
    verdict = rules.validate(state, {"unit": "T1", "type": "move", "path": [[7, 5]]})
    assert verdict.legal and verdict.cost == pytest.approx(7.0)
    after = rules.state_to_json(verdict.state_after)["units"][0]
    assert after["position"] == [7, 5] and after["moved_by"] == "move"
    assert verdict.events[0]["type"] == "moved"


def test_the_systems_direction_and_turn_hooks_decide(state: GameState) -> None:
    """003 Ground vehicle movement 3c: no sideways move; 003 Turning 4: a turn is paid."""
    sideways = rules.validate(state, {"unit": "T1", "type": "move", "path": [[2, 8]]})
    assert [r.code for r in sideways.reasons] == ["direction_not_allowed"]
    assert sideways.reasons[0].cite == "003 Ground vehicle movement 3c"
    turned = rules.validate(state, {"unit": "T1", "type": "move", "path": [{"turn": 90}]})
    assert turned.legal and turned.cost == pytest.approx(2.0)


def test_a_refusal_at_the_end_joins_the_path_findings_in_path_order(state: GameState) -> None:
    """002 Charge Move Action, mswars.md 9: every finding, in the order the path meets
    them: a sideways leg, then the allowance running out on it, then the end out of
    contact."""
    verdict = rules.validate(state, {"unit": "T1", "type": "charge", "path": [[8, 5]]})
    assert not verdict.legal and verdict.state_after is state
    assert [r.code for r in verdict.reasons] == ["must_end_in_contact"]
    far = rules.validate(state, {"unit": "T1", "type": "charge", "path": [[8, 5], [8, 9]]})
    codes = [r.code for r in far.reasons]
    assert codes == ["direction_not_allowed", "speed_exceeded", "must_end_in_contact"]


def test_a_hook_sees_the_whole_move_in_play(state: GameState) -> None:
    """002 Charge Move Action: the events of a legal move may tell the action it was (the
    hook is given the move in play, not only the unit before and after)."""
    verdict = rules.validate(state, {"unit": "T1", "type": "charge", "path": [[9.5, 5]]})
    assert verdict.legal
    assert [e["type"] for e in verdict.events] == ["moved", "charged"]
    assert verdict.state_after.unit("T1").get("moved_by") == "charge"


def test_a_type_with_a_handler_is_played_by_it_and_one_outside_the_catalogue_refused(
    state: GameState,
) -> None:
    """Contract: an action type the system does not know is malformed, whatever the
    system (only aod said so before the kernel played every system)."""
    assert rules.validate(state, {"unit": "T1", "type": "hail"}).legal
    with pytest.raises(rules.InvalidActionError, match="unknown tanks action 'fly'"):
        rules.validate(state, Action("T1", "fly"))


def test_reach_comes_from_the_builders_once_per_state(state: GameState) -> None:
    """002 Enter Unit: a piece that boards ends off the table, so its reach has no area;
    a type with no builder is unshaded (complete false, horizon 0)."""
    first = rules.reach(state, "T1", "move")
    assert first is rules.reach(state, "T1", "move") and first.allowance == 1.0
    assert rules.reach(state, "T1", "board").area is None
    assert rules.reach(state, "T1", "charge").horizon == 0.0
    with pytest.raises(rules.InvalidActionError, match="no unit 'T9' on the table"):
        rules.reach(state, "T9", "move")


def test_a_position_is_read_once_per_state(state: GameState) -> None:
    assert Position.of(state) is Position.of(state)
    assert Tanks().position_of(state) is Position.of(state)
