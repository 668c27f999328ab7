"""aod reach of the transport orders (aod.md 11.2; issue 20: every shaded point is a legal
end along the path reach gives, with the keys it names)."""

from __future__ import annotations

from typing import Any

from rules import GameState, reach
from tests.rules.reach_sampling import judged_ends as sample_ends
from tests.rules.scenes import rect_unit, scene, square, unit


def legal_ends(state: GameState, uid: str, action_type: str, count: int = 25) -> int:
    """Points drawn from the reach, each judged with reach's path and keys: legal."""
    return len(sample_ends(state, uid, action_type, count=count, seed=3))


def transport(**kw: Any) -> dict[str, Any]:
    return unit("T1", type="tracked", move=8, position=(10, 10), diameter=2.0, capacity=4, **kw)


def test_board_shades_a_half_speed_move_after_its_rear_passengers_leave_the_table() -> None:
    # 000 [18], 001 [18]: passengers at the rear board first and leave the table; the
    # transport then moves up to ceil(8/2) = 4, so it may cross where they stood.
    state = scene(
        [transport(), unit("I1", type="infantry", position=(8, 10), diameter=2.0, move=6)]
    )
    found = reach(state, "T1", "board")
    assert found.complete and found.allowance == 4
    assert found.keys_at((13, 10)) == {"passengers": ["I1"]}
    assert found.contains((6.5, 10))  # through I1's place: it is aboard
    assert not found.contains((14.5, 10))
    assert legal_ends(state, "T1", "board") == 25


def test_board_takes_the_rear_units_that_fit_and_not_those_ordered_or_at_the_front() -> None:
    # 000 [18] capacity: infantry 1, vehicle 3; 001 [18]: unordered, at the rear.
    units = [
        transport(),
        unit("I1", type="infantry", position=(8.768, 10.863), diameter=1.0),
        unit("V1", type="wheeled", position=(8.768, 9.137), diameter=1.0),
        unit("V2", type="wheeled", position=(7.0, 10), diameter=1.0),
        unit("I3", type="infantry", position=(11.5, 10), diameter=1.0),
    ]
    state = scene(units)
    assert reach(state, "T1", "board").keys_at((12, 10)) == {"passengers": ["I1", "V1"]}
    assert legal_ends(state, "T1", "board") == 25


def test_board_with_no_one_at_the_rear_shades_nothing() -> None:
    # 001 [18]: a board needs passengers at the rear; refused whatever the path.
    state = scene([transport(), unit("I1", type="infantry", position=(12, 10), diameter=2.0)])
    found = reach(state, "T1", "board")
    assert found.area.is_empty


def test_disembark_sets_passengers_down_at_the_rear_then_moves_at_half_speed() -> None:
    # 001 [19]: placed in base contact with the rear, then the transport moves up to
    # ceil(8/2) = 4 (unload "before"), kept from the bases it has just set down.
    state = scene(
        [
            transport(),
            unit("I1", type="infantry", position=(30, 30), diameter=1.0, aboard="T1"),
            unit("I2", type="infantry", position=(30, 30), diameter=1.0, aboard="T1"),
        ]
    )
    found = reach(state, "T1", "disembark")
    keys = found.keys_at((13, 10))
    assert keys["unload"] == "before"
    assert [p["unit"] for p in keys["passengers"]] == ["I1", "I2"]
    assert all(p["position"][0] < 9 for p in keys["passengers"])  # behind: facing 0
    assert found.contains((13.9, 10)) and not found.contains((8, 10))  # they stand there
    assert not found.complete  # an unload after the move is left out: says so
    assert legal_ends(state, "T1", "disembark") == 25


def test_disembark_places_passengers_around_blocking_terrain_at_the_rear() -> None:
    # AOD-D44: not on blocking terrain; the rear arc (+-45, AOD-D13) still has room.
    state = scene(
        [transport(), unit("I1", type="infantry", position=(30, 30), diameter=1.0, aboard="T1")],
        [square("B1", "blocking", 7.0, 9.6, 8.9, 10.4)],
    )
    keys = reach(state, "T1", "disembark").keys_at((12, 10))
    assert abs(keys["passengers"][0]["position"][1] - 10) > 0.8  # not straight behind
    assert legal_ends(state, "T1", "disembark") == 25


def test_disembark_with_no_room_at_the_rear_shades_nothing() -> None:
    # 001 [19]: completely on the table; with the rear at the table edge no placement is
    # legal, so no disembark is.
    state = scene(
        [
            unit("T1", type="tracked", move=8, position=(1.05, 10), diameter=2.0, capacity=4),
            unit("I1", type="infantry", position=(30, 30), diameter=1.0, aboard="T1"),
        ]
    )
    assert reach(state, "T1", "disembark").area.is_empty


def test_disembark_from_a_rect_or_cruising_transport_stays_unshaded() -> None:
    # A rect transport touches its passengers along its rear edge (see aod/reach.py); a
    # VTOL at cruising may not move after unloading (000 [19]): not shaded, said so.
    rect = scene(
        [
            rect_unit("T1", 2, 3, type="tracked", move=8, position=(10, 10), capacity=4),
            unit("I1", type="infantry", position=(30, 30), diameter=1.0, aboard="T1"),
        ]
    )
    found = reach(rect, "T1", "disembark")
    assert found.area.is_empty and not found.complete and found.horizon == 0


def test_a_cruising_vtol_moves_then_sets_its_jump_jet_passengers_down_at_its_rear() -> None:
    # 000 [19]: a VTOL at cruising may not move after disembarking, so it unloads after
    # its move; its jump-jet passengers are placed at its rear there (001 [19]): on the
    # table, on no base, blocking terrain (AOD-D44), not touching an opposing unit.
    state = scene(
        [
            unit(
                "V1",
                type="vtol",
                altitude="cruising",
                move=12,
                position=(10, 10),
                diameter=2.0,
                capacity=4,
            ),
            unit(
                "I1", type="infantry", position=(30, 30), diameter=1.0, aboard="V1", jump_jets=True
            ),
            unit("E1", side="P2", type="infantry", position=(11, 14), diameter=1.0),
            unit("F1", type="infantry", position=(14, 7), diameter=1.0),
        ],
        [square("B1", "blocking", 4, 4, 6, 16)],
    )
    found = reach(state, "V1", "disembark")
    assert not found.complete and found.horizon == 0
    keys = found.keys_at((14, 10))
    assert keys["unload"] == "after" and keys["passengers"][0]["unit"] == "I1"
    ox, oy = (keys["passengers"][0]["position"][i] - (14, 10)[i] for i in (0, 1))
    assert ox < 0  # behind (facing 0)
    assert found.contains((14, 10))
    assert not found.contains((6.0 - ox, 10 - oy))  # I1 set down on the blocking terrain
    assert not found.contains((12.005 - ox, 14 - oy))  # I1 touching E1 (based)
    assert legal_ends(state, "V1", "disembark", count=40) == 40
    walking = scene(
        [
            unit(
                "V1",
                type="vtol",
                altitude="cruising",
                move=12,
                position=(10, 10),
                diameter=2.0,
                capacity=4,
            ),
            unit("I1", type="infantry", position=(30, 30), diameter=1.0, aboard="V1"),
        ]
    )
    found = reach(walking, "V1", "disembark")  # no jump jets (000 [19]): not shaded
    assert found.area.is_empty and not found.complete
