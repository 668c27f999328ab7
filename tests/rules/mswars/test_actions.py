"""The move actions beyond a plain path (002 Move Actions; mswars.md section 7)."""

from __future__ import annotations

import pytest

from rules import SYSTEMS
from rules import state_from_json as read
from rules.model.errors import DiceExhaustedError
from tests.rules.kernel_moves import played_by_kernel
from tests.rules.mswars.build import area, board, judge, mech

BUILDING = area("B", "elevated", 12, 5, 20, 15, height=3)  # SC 2


def test_climb_places_the_unit_inside_the_edge_it_climbed_and_forbids_weapons() -> None:
    """002 Climb Action: moved inward perpendicular to the edge until the base lies inside
    touching it; no weapons for the rest of the turn."""
    state = board([mech(size_class=1, free_hands=True, position=(11.5, 10))], [BUILDING])
    verdict = judge(state, [], type="climb", target="B")
    assert verdict.legal, verdict.codes
    assert verdict.state_after.unit("M1").position == pytest.approx((12.5, 10))
    assert {"type": "no_weapons", "unit": "M1"}.items() <= verdict.events[-1].items()
    assert verdict.cost == 0 and verdict.allowance == 0
    assert verdict.state_after.turn["actions_taken"] == {"M1": [{"phase": 1, "type": "climb"}]}


def test_climb_of_a_rect_base_uses_its_extent_across_the_edge() -> None:
    """A 1" x 2" base facing the wall: 1" in from the edge (half its length)."""
    unit = mech(size_class=1, free_hands=True, position=(11, 10))
    unit["base"] = {"shape": "rect", "width": 1, "length": 2}
    verdict = judge(board([unit], [BUILDING]), [], type="climb")
    assert verdict.legal and verdict.state_after.unit("M1").position == pytest.approx((13, 10))


@pytest.mark.parametrize(
    "extra",
    [
        {"free_hands": False},
        {"free_hands": True, "used_weapon": True},
        {"free_hands": True, "type": "track"},
        {"free_hands": True, "facing": 90},  # the wall is not within 45 degrees of its facing
        {
            "free_hands": True,
            "size_class": 0,
            "infantry": True,
            "move": 1,
            "position": (11, 20),
        },  # not in base contact
    ],
)
def test_climb_is_refused_without_its_conditions(extra: dict[str, object]) -> None:
    """002 Climb Action and MSW-D23: mecha or infantry, two free hands, no weapon used,
    in base contact and facing the feature."""
    unit = mech(size_class=1, position=(11.5, 10))
    unit.update(extra)
    assert judge(board([unit], [BUILDING]), [], type="climb", target="B").codes == [
        "action_not_allowed"
    ]


@pytest.mark.parametrize("size_class", [0, 1, 3])
def test_climb_up_to_two_size_classes_larger(size_class: int) -> None:
    """002 Climb Action: "up to two size class larger than them" (SC 2 building)."""
    state = board(
        [mech(size_class=size_class, free_hands=True, position=(11.5, 10))],
        [area("B", "elevated", 12, 5, 20, 15, size_class=size_class + 2)],
    )
    assert judge(state, [], type="climb", target="B").legal
    higher = board(
        [mech(size_class=size_class, free_hands=True, position=(11.5, 10))],
        [area("B", "elevated", 12, 5, 20, 15, size_class=size_class + 3)],
    )
    assert judge(higher, [], type="climb", target="B").codes == ["action_not_allowed"]


def test_climb_of_an_unknown_feature_is_malformed() -> None:
    state = board([mech(free_hands=True, position=(11.5, 10))], [BUILDING])
    assert "malformed" in judge(state, [], type="climb", target="nowhere").codes


def test_a_walker_jumps_off_a_feature_of_its_own_size_class_and_ends_as_it_lands() -> None:
    """002 Jump Action, MSW-D13: one straight line after the edge, base entirely off."""
    state = board([mech(size_class=2, position=(13, 10), facing=180)], [BUILDING])
    verdict = judge(state, [[11, 10]], type="jump", dice=[])
    assert verdict.legal and verdict.cost == pytest.approx(2)
    assert verdict.state_after.unit("M1").get("fallen") is None


def test_a_jump_from_too_high_is_a_fall_with_damage_and_an_endurance_test() -> None:
    """002 Falling, MSW-D14, MSW-D29: SC 2 from a feature of SC 2 by a track (limit SC - 2
    = 0): 2d6 damage, fallen this turn, Endurance X+1 with X = max(0, ceil(0 / 2)) = 0."""
    state = board([mech(type="track", size_class=2, position=(13, 10), facing=180)], [BUILDING])
    verdict = judge(state, [[10, 10]], type="jump", dice=[3, 4], outcomes=[False])
    assert verdict.legal
    fell = next(e for e in verdict.events if e["type"] == "fell")
    assert fell["damage"] == 7 and fell["shields"] is False
    test = next(e for e in verdict.events if e["type"] == "endurance_test")
    assert test["target"] == 1 and test["result"] == "fail"
    assert verdict.state_after.unit("M1").get("fallen") == "this_turn"
    assert [r.result for r in verdict.rolls] == [3, 4]


def test_a_fall_with_too_few_forced_dice_is_dice_exhausted() -> None:
    state = board([mech(type="track", size_class=2, position=(13, 10), facing=180)], [BUILDING])
    with pytest.raises(DiceExhaustedError):
        judge(state, [[10, 10]], type="jump", dice=[3])


def test_break_away_attacks_come_first_and_a_hit_pins_a_unit_that_moves() -> None:
    """002 Break Away Action, MSW-D11, MSW-D28: one outcome per attacker in units order."""
    foes = [mech("E1", side="P2", position=(11, 10)), mech("E2", side="P2", position=(10, 11))]
    state = board([mech(), *foes])
    verdict = judge(state, [{"turn": 180}, [8, 10]], type="break_away", outcomes=[False, True])
    assert verdict.legal, verdict.codes
    attacks = [e for e in verdict.events if e["type"] == "attack_of_opportunity"]
    assert [(a["unit"], a["result"]) for a in attacks] == [("E1", "miss"), ("E2", "hit")]
    assert verdict.state_after.unit("M1").get("pinned") is True
    unresolved = judge(state, [{"turn": 180}, [8, 10]], type="break_away")
    assert {e.get("result") for e in unresolved.events} >= {"unresolved"}


def test_enter_then_exit_and_the_carrier_may_only_unload_this_phase() -> None:
    """002 Enter Unit / Unit Exiting: the carrier may make no move action but unloading."""
    carrier = mech("C1", type="track", move=6, position=(14, 10), carrier=2, diameter=2)
    state = board([mech(position=(10, 10), move=6), carrier])
    entered = judge(state, [[12.5, 10]], type="enter_unit", carrier="C1")
    assert entered.legal, entered.codes
    after = entered.state_after
    assert after.unit("M1").aboard == "C1"
    moved = judge(after, [[16, 10]], unit="C1")
    assert "action_not_allowed" in moved.codes


def test_a_moving_carrier_unloads_one_unit_at_its_rear_after_its_move() -> None:
    """002 Carrier Unloading Action, MSW-D19, MSW-D39."""
    carrier = mech("C1", type="track", move=6, position=(14, 10), carrier=2, diameter=2)
    rider = mech("I1", aboard="C1", infantry=True, position=(0, 0))
    other = mech("I2", aboard="C1", infantry=True, position=(0, 0))
    state = board([carrier, rider, other])
    verdict = judge(
        state,
        [[16, 10]],
        type="carrier_unloading",
        unit="C1",
        unload=[{"unit": "I1", "position": [14.5, 10]}],
    )
    assert verdict.legal, [r.message for r in verdict.reasons]
    assert verdict.allowance == 3
    taken = verdict.state_after.turn["actions_taken"]
    assert taken == {
        "C1": [{"phase": 1, "type": "carrier_unloading"}],
        "I1": [{"phase": 1, "type": "carrier_unloading"}],
    }
    two = judge(
        state,
        [[16, 10]],
        type="carrier_unloading",
        unit="C1",
        unload=[
            {"unit": "I1", "position": [14.5, 10]},
            {"unit": "I2", "position": [14.93934, 11.06066]},
        ],
    )
    assert two.legal  # two infantry weigh one unit (MSW-D19)
    front = judge(
        state,
        [[16, 10]],
        type="carrier_unloading",
        unit="C1",
        unload=[{"unit": "I1", "position": [17.5, 10]}],
    )
    assert front.codes == ["placement_invalid"]


def test_climb_jump_and_unloading_are_moves_the_kernel_plays_their_events_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The kernel's Play.move plays them through mswars's hooks, and the events keep their
    order: the climb's placement first (002 Climb Action), the jump's landing before its
    Fall (002 Jump Action, 002 Falling, MSW-D29), the carrier's move before the units it
    sets down (002 Carrier Unloading Action, MSW-D39)."""
    played = played_by_kernel(monkeypatch)
    climber = mech(size_class=1, free_hands=True, position=(11.5, 10))
    climbed = judge(board([climber], [BUILDING]), [], type="climb", target="B")
    jumper = mech(type="track", size_class=2, position=(13, 10), facing=180)
    fell = judge(board([jumper], [BUILDING]), [[10, 10]], type="jump", dice=[3, 4])
    carrier = mech("C1", type="track", move=6, position=(14, 10), carrier=2, diameter=2)
    rider = mech("I1", aboard="C1", infantry=True, position=(0, 0))
    unload = [{"unit": "I1", "position": [14.5, 10]}]
    state = board([carrier, rider])
    unloaded = judge(state, [[16, 10]], type="carrier_unloading", unit="C1", unload=unload)
    assert played == ["climb", "jump", "carrier_unloading"]
    assert [e["type"] for e in climbed.events] == ["moved", "climbed", "no_weapons"]
    assert [e["type"] for e in fell.events] == ["moved", "fell", "endurance_test"]
    assert [(e["type"], e["unit"]) for e in unloaded.events] == [
        ("moved", "C1"),
        ("moved", "I1"),
        ("unloaded", "I1"),
    ]


def test_the_turn_structure_alternates_the_first_side_and_straightens_the_fallen() -> None:
    """MSW-D40: two phases, sides in turn; the turn change resets the per-turn keys,
    refills action points from the roster and turns "this_turn" into "straighten"."""
    structure = SYSTEMS["mswars"].turn_structure
    walker = {"type": "walker", "move": 6, "base": {"shape": "circle", "diameter": 2}}
    position = {
        "system": "mswars",
        "table": {"width": 36, "height": 36},
        "terrain": [],
        "units": [
            {"id": "A", "side": "P1", "fallen": "this_turn", "action_points": 4, **walker},
            {"id": "B", "side": "P2", **walker, "position": [20, 20]},
        ],
        "state": {},
    }
    position["units"][0]["position"] = [10, 10]
    turn, position = structure.begin(["P1", "P2"], position)
    assert position["state"]["action_points"] == {"A": 4}
    assert structure.summary(turn, read(position)) == "Turn 1 · Phase 1 · P1 to act · 4 AP left"
    position["state"].update(
        actions_taken={"A": [{"phase": 1, "type": "run"}]},
        free_turn_used={"A": True},
        action_points={"A": 2},
    )
    seen = []
    for _ in range(4):
        turn, position = structure.end_part(turn, position)
        seen.append((turn["phase"], turn["active_side"]))
    assert seen == [(1, "P2"), (2, "P1"), (2, "P2"), (1, "P2")]
    assert turn["turn"] == 2
    assert position["state"] == {"phase": 1, "action_points": {"A": 4}}
    assert position["units"][0]["fallen"] == "straighten"
    assert structure.summary(turn, read(position)) == "Turn 2 · Phase 1 · P2 to act"


@pytest.mark.parametrize(
    "path,legal",
    [
        ([[12.5, 10], [10, 10]], True),  # one straight step off the edge
        ([[11.9, 10], [10, 10]], False),  # a second step after landing
        ([[11.9, 10], [11, 11]], False),  # bends after the edge
        ([[11, 10], {"turn": 90}], False),  # turns after landing
    ],
)
def test_after_the_edge_a_jump_is_one_straight_step(path: list[object], legal: bool) -> None:
    """MSW-D13, MSW-D45: the movement ends as the unit lands, at the end of the step that
    crosses the edge; a path that goes on after it is refused."""
    state = board([mech(size_class=2, position=(13, 10), facing=180)], [BUILDING])
    verdict = judge(state, path, type="jump", dice=[])
    assert verdict.legal == legal
    assert legal or "action_not_allowed" in verdict.codes


@pytest.mark.parametrize("action_type", ["standard_move", "climb", "jump", "charge"])
def test_a_unit_aboard_may_only_exit_and_its_ignored_position_is_not_judged(
    action_type: str,
) -> None:
    """Contract UNIT: a unit aboard is off the table; mswars.md 7: it leaves by exiting."""
    state = board(
        [
            mech("C1", type="track", carrier=2),
            mech("I1", aboard="C1", infantry=True, position=(0, 0)),
        ]
    )
    verdict = judge(state, [[1, 0]], type=action_type, unit="I1", target="C1")
    assert set(verdict.codes) <= {"action_not_allowed", "unknown_unit"}
    assert "action_not_allowed" in verdict.codes
