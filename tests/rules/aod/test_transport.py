"""Transports: board and disembark (000 TRANSPORTS, 001 [18-19], aod.md 11.2)."""

from __future__ import annotations

import pytest

from rules import validate
from tests.rules.kernel_moves import played_by_kernel
from tests.rules.scenes import scene, unit

TRUCK = dict(type="tracked", move=8, capacity=4, position=(10, 10), facing=0, diameter=2)


def boarding_scene(**truck: object) -> object:
    return scene(
        [
            unit("T1", **{**TRUCK, **truck}),
            unit("I1", type="infantry", move=4, position=(8.5, 10)),
            unit("V1", type="wheeled", move=6, position=(10, 7.5), diameter=2),
        ]
    )


def test_board_moves_the_transport_at_half_speed_and_takes_passengers_off_table() -> None:
    """Boarding: transport moves 1/2 speed (000 [18]); passengers leave the table."""
    v = validate(
        boarding_scene(), {"unit": "T1", "type": "board", "passengers": ["I1"], "path": [[14, 10]]}
    )
    assert v.legal, v.reasons
    assert v.allowance == 4
    assert v.state_after.unit("I1").aboard == "T1"
    assert {"type": "boarded", "unit": "I1", "transport": "T1"} in v.events


def test_boarding_and_disembarking_are_played_by_the_kernels_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The kernel's Play.move plays them (issue 24): the passengers board first, then the
    transport moves at half speed (000 [18]); a passenger leaving after the move is placed
    at the transport's new rear (001 [19])."""
    played = played_by_kernel(monkeypatch)
    order = {"unit": "T1", "type": "board", "passengers": ["I1"], "path": [[14, 10]]}
    boarded = validate(boarding_scene(), order)
    leaving = [{"unit": "I1", "position": [11.5, 10], "facing": 180}]
    order = {"unit": "T1", "type": "disembark", "path": [[13, 10]], "passengers": leaving}
    left = validate(loaded_scene(), order)
    assert played == ["board", "disembark"]
    assert boarded.legal and boarded.allowance == 4
    assert [e["type"] for e in boarded.events] == ["boarded", "moved"]
    assert left.legal and [e["type"] for e in left.events] == ["moved", "disembarked"]


def test_board_over_half_speed_is_half_speed_exceeded() -> None:
    v = validate(
        boarding_scene(),
        {"unit": "T1", "type": "board", "passengers": ["I1"], "path": [[14.5, 10]]},
    )
    assert v.codes == ["half_speed_exceeded"]


def test_passenger_must_start_in_contact_with_the_rear() -> None:
    """'start turn adj. to rear' (000 [18], AOD-D13): I3 touches the side, not the rear."""
    s = scene([unit("T1", **TRUCK), unit("I3", type="infantry", move=4, position=(10, 11.5))])
    v = validate(s, {"unit": "T1", "type": "board", "passengers": ["I3"]})
    assert v.codes == ["order_not_allowed"]


def test_load_over_capacity_is_capacity_exceeded() -> None:
    """Infantry cost 1, vehicles 3 (000 [18])."""
    s = scene(
        [
            unit("T1", **{**TRUCK, "capacity": 1}),  # rear arc: bearings 135-225
            unit("I1", type="infantry", move=4, position=(8.5905, 10.513)),
            unit("I2", type="infantry", move=4, position=(8.5905, 9.487)),
        ]
    )
    v = validate(s, {"unit": "T1", "type": "board", "passengers": ["I1", "I2"]})
    assert "capacity_exceeded" in v.codes


def test_mechs_and_transports_cannot_be_passengers() -> None:
    """AOD-D29."""
    s = scene([unit("T1", **TRUCK), unit("M1", type="mech", move=8, position=(8.5, 10))])
    v = validate(s, {"unit": "T1", "type": "board", "passengers": ["M1"]})
    assert v.codes == ["order_not_allowed"]


def loaded_scene() -> object:
    return scene([unit("T1", **TRUCK), unit("I1", type="infantry", move=4, aboard="T1")])


def test_disembark_after_moving_places_the_passenger_at_the_new_rear() -> None:
    v = validate(
        loaded_scene(),
        {
            "unit": "T1",
            "type": "disembark",
            "unload": "after",
            "path": [[13, 10]],
            "passengers": [{"unit": "I1", "position": [11.5, 10], "facing": 180}],
        },
    )
    assert v.legal, v.reasons
    assert v.state_after.unit("I1").aboard is None
    assert v.state_after.unit("I1").position == (11.5, 10.0)


def test_disembark_away_from_the_rear_is_placement_invalid() -> None:
    v = validate(
        loaded_scene(),
        {
            "unit": "T1",
            "type": "disembark",
            "unload": "before",
            "passengers": [{"unit": "I1", "position": [11.5, 10]}],
        },
    )
    assert v.codes == ["placement_invalid"]


def test_disembark_off_the_table_is_placement_invalid() -> None:
    s = scene(
        [
            unit("T1", **{**TRUCK, "position": (1.2, 10)}),
            unit("I1", type="infantry", move=4, aboard="T1"),
        ]
    )
    v = validate(
        s,
        {"unit": "T1", "type": "disembark", "passengers": [{"unit": "I1", "position": [-0.3, 10]}]},
    )
    assert v.codes == ["placement_invalid"]


def test_passengers_may_not_be_given_orders() -> None:
    """000 [18]."""
    v = validate(loaded_scene(), {"unit": "I1", "type": "move", "path": [[5, 5]]})
    assert v.codes == ["order_not_allowed"]
