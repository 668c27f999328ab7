"""Overrun, transport limits, entering the board (lasergrenadiers.md 9-11)."""

from __future__ import annotations

import pytest

from tests.rules.lasergrenadiers.build import act, area, board, piece, then, vehicle

# -- overrun (003 Overrun attacks, LG-D9) ----------------------------------------------------------


def overrun_board(
    target: dict[str, object], *terrain: dict[str, object], **attacker: object
) -> object:
    keys: dict[str, object] = {"armored": True, "size": 6, **attacker}
    kind, move = str(keys.pop("type", "tracked")), float(keys.pop("move", 30))  # type: ignore[arg-type]
    return board([vehicle("T", kind, move, (10, 10), **keys), target], list(terrain))


def trooper(**extra: object) -> dict[str, object]:
    keys: dict[str, object] = {"side": "P2", "size": 3, **extra}
    return piece("E", "foot", 6, (15, 10), **keys)


def test_an_armored_vehicle_runs_over_a_piece_three_sizes_smaller_at_three_times_the_cost() -> None:
    """003 Overrun 2-4, 6: 9" outside at 1, 1" over the trooper's base at 3; it is removed."""
    verdict = act(overrun_board(trooper()), "T", [[20, 10]], type="overrun", target="E")
    assert verdict.legal and verdict.cost == pytest.approx(12)
    assert {"type": "overrun", "unit": "T", "target": "E"} in verdict.events
    assert then(verdict).unit("E") is None


def test_the_road_rate_is_usable_when_overrunning() -> None:
    """003 Overrun 4: the target on a road; 8" off it, 1" of road at 1/2, 1" over at 3 x 1/2."""
    state = overrun_board(trooper(), area("R", "road", 14, 0, 16, 20))
    assert act(state, "T", [[20, 10]], type="overrun", target="E").cost == pytest.approx(10)


@pytest.mark.parametrize("change", [{"size": 4}, {"side": "P1"}])
def test_a_target_too_big_or_friendly_is_not_overrun(change: dict[str, object]) -> None:
    """003 Overrun 1-2: at least three classes smaller, and an enemy."""
    verdict = act(overrun_board(trooper(**change)), "T", [[20, 10]], type="overrun", target="E")
    assert "action_not_allowed" in verdict.codes


def test_only_armored_vehicles_overrun() -> None:
    """003 Overrun 1."""
    verdict = act(
        overrun_board(trooper(), armored=False), "T", [[20, 10]], type="overrun", target="E"
    )
    assert "action_not_allowed" in verdict.codes


@pytest.mark.parametrize("path", [[[13, 10]], [[15, 10]], [[15, 10], [15, 12], [15, 8], [16, 8]]])
def test_the_path_runs_into_and_over_the_target_in_one_stretch(path: list[object]) -> None:
    """003 Overrun 4: short of it, ending on it, or over it twice are refused."""
    verdict = act(overrun_board(trooper()), "T", path, type="overrun", target="E")
    assert "action_not_allowed" in verdict.codes


def test_a_foxhole_needs_a_tracked_or_walker_attacker() -> None:
    """003 Overrun 5."""
    verdict = act(
        overrun_board(trooper(foxhole=True), type="wheeled", move=36),
        "T",
        [[20, 10]],
        type="overrun",
        target="E",
    )
    assert "action_not_allowed" in verdict.codes


def test_a_foxhole_survives_unless_two_thirds_of_the_allowance_are_spent_over_it() -> None:
    """003 Overrun 5: 3" of a 30" allowance is too little: legal, the target survives."""
    verdict = act(overrun_board(trooper(foxhole=True)), "T", [[20, 10]], type="overrun", target="E")
    assert verdict.legal and any(e["type"] == "overrun_failed" for e in verdict.events)
    assert then(verdict).unit("E") is not None
    big = piece("E", "foot", 6, (13, 10), side="P2", size=3, foxhole=True, diameter=3)
    state = overrun_board(big, move=12)
    done = act(state, "T", [[15, 10]], type="overrun", target="E")
    # 2" outside, 3" over the 3" base at 3 x: 9" >= 2/3 of 12.
    assert done.legal and done.cost == pytest.approx(11)
    assert any(e["type"] == "overrun" for e in done.events)


# -- transport limits (003 Transport 5-6, LG-D29, LG-D34, LG-D35) --------------------------------


def transport(*pieces: dict[str, object], **vehicle_keys: object) -> object:
    move = float(vehicle_keys.pop("move", 30))
    state = vehicle_keys.pop("state", {})
    position = vehicle_keys.pop("position", (20, 20))
    return board(
        [
            vehicle("V", str(vehicle_keys.pop("type", "tracked")), move, position, **vehicle_keys),
            *pieces,
        ],
        state=dict(state),
    )  # type: ignore[arg-type]


def test_loading_costs_the_piece_its_path_and_a_third_and_the_vehicle_a_third() -> None:
    """003 Transport 1, LG-D34."""
    state = transport(piece("T", "foot", 6, (20, 22.5), facing=270))
    assert act(state, "T", [[20, 21.5]], type="load", carrier="V").cost == pytest.approx(3)
    by_vehicle = act(then(act(state, "T", [[20, 21.5]])), "V", type="load", passengers=["T"])
    assert by_vehicle.legal and by_vehicle.cost == pytest.approx(10)


def test_a_loading_piece_must_end_in_base_contact() -> None:
    state = transport(piece("T", "foot", 6, (20, 24)))
    assert act(state, "T", type="load", carrier="V").codes == ["must_end_in_contact"]
    assert act(state, "V", type="load", passengers=["T"]).codes == ["must_end_in_contact"]


def test_capacity_is_enforced() -> None:
    """LG-D29."""
    state = transport(
        piece("A", "foot", 6, (0, 0), aboard="V"), piece("T", "foot", 6, (20, 21.5)), capacity=1
    )
    assert act(state, "T", type="load", carrier="V").codes == ["capacity_exceeded"]


def test_a_hovering_aircraft_loads_and_unloads_jetpack_troops_only() -> None:
    """003 Transport 5."""
    for kind, legal in (("foot", False), ("jetpack", True)):
        state = transport(
            piece("T", kind, 6, (20, 21.5)), type="thruster", position=(20, 20, 3), aircraft=True
        )
        verdict = act(state, "T", type="load", carrier="V")
        assert verdict.legal is legal, kind
        if not legal:
            assert verdict.codes == ["action_not_allowed"]


def test_a_transport_damaged_one_level_transfers_only_at_slow_speed() -> None:
    """003 Transport 6.1: slow is up to a third of the original 30"."""
    aboard = piece("T", "foot", 6, (0, 0), aboard="V")
    unload = {"passengers": [{"unit": "T", "position": [20, 21.5]}]}
    late = transport(aboard, damage_levels=1, state={"moved": {"V": 11}})
    assert act(late, "V", type="unload", **unload).codes == ["action_not_allowed"]
    state = then(act(transport(aboard, damage_levels=1), "V", type="unload", **unload))
    assert act(state, "V", [[30, 20]]).legal
    assert act(state, "V", [[30.5, 20]]).codes == ["speed_exceeded"]


def test_a_transport_damaged_two_levels_transfers_only_if_it_does_not_move() -> None:
    """003 Transport 6.2, LG-D35: rotating in place is not moving."""
    aboard = piece("T", "foot", 6, (0, 0), aboard="V")
    unload = {"passengers": [{"unit": "T", "position": [20, 21.5]}]}
    base = transport(aboard, damage_levels=2)
    moved = then(act(base, "V", [[22, 20]]))
    assert act(
        moved, "V", type="unload", passengers=[{"unit": "T", "position": [22, 21.5]}]
    ).codes == ["action_not_allowed"]
    turned = then(act(base, "V", [{"turn": 90}]))  # 3" of its damaged 10"
    assert act(turned, "V", type="unload", passengers=[{"unit": "T", "position": [20, 22]}]).legal
    after = then(act(base, "V", type="unload", **unload))
    assert act(after, "V", [[21, 20]]).codes == ["speed_exceeded"]


def test_an_unloaded_piece_is_set_down_in_contact_and_clear_of_bases() -> None:
    """003 Transport 3, LG-D26."""
    state = transport(piece("T", "foot", 6, (0, 0), aboard="V"), piece("O", "foot", 6, (22.8, 20)))
    far = act(state, "V", type="unload", passengers=[{"unit": "T", "position": [20, 23]}])
    on = act(state, "V", type="unload", passengers=[{"unit": "T", "position": [22, 20]}])
    assert far.codes == ["placement_invalid"] and on.codes == ["placement_invalid"]


def test_a_piece_aboard_may_unload_itself_in_its_own_activation() -> None:
    """LG-D31: it pays its own third."""
    state = transport(piece("T", "foot", 6, (0, 0), aboard="V"))
    verdict = act(state, "T", type="unload", passengers=[{"unit": "T", "position": [20, 21.5]}])
    assert verdict.legal and verdict.cost == pytest.approx(2)


def test_a_piece_aboard_may_not_move() -> None:
    state = transport(piece("T", "foot", 6, (0, 0), aboard="V"))
    assert act(state, "T", [[5, 5]]).codes == ["action_not_allowed"]


# -- entering the board (003 Off-board movement, 003 Assault landings) -----------------------

AREAS = {"P1": [[[0, 0], [36, 0]]], "P2": [[[36, 0], [72, 0]]]}


@pytest.mark.parametrize(
    "x,delayed,legal", [(10, False, True), (50, False, False), (50, True, False), (20, True, True)]
)
def test_a_piece_enters_on_its_entry_area_or_with_delayed_entry_off_the_opponents(
    x: float, delayed: bool, legal: bool
) -> None:
    """003 Off-board movement 1, 4."""
    state = board(
        [piece("U", "foot", 6, (x, 0), facing=90)],
        state={"entry_areas": AREAS},
        options={"delayed_entry": delayed},
    )
    verdict = act(state, "U", [[x, 5]], type="enter_board")
    assert verdict.legal is legal
    if not legal:
        assert verdict.codes == ["placement_invalid"]


def test_a_piece_enters_only_from_an_edge_or_from_above() -> None:
    state = board([piece("U", "foot", 6, (10, 5), facing=90)])
    assert act(state, "U", [[10, 8]], type="enter_board").codes == ["placement_invalid"]


def test_a_vertical_assault_landing_starts_its_full_move_above_the_landing_point() -> None:
    """003 Assault landings 4a: a 48" lander begins 48" up and pays 48"."""
    lander = board([vehicle("L", "thruster", 48, (30, 20, 48))])
    verdict = act(lander, "L", [[30, 20, 0]], type="enter_board")
    assert verdict.legal and verdict.cost == pytest.approx(48)
    too_high = board([vehicle("L", "thruster", 48, (30, 20, 49))])
    assert "placement_invalid" in act(too_high, "L", [[30, 20, 0]], type="enter_board").codes


def test_a_piece_unloading_itself_from_a_vehicle_that_is_aboard_another_is_refused() -> None:
    """003 Transport 1: pieces are unloaded from a vehicle on the table; one carried inside
    another vehicle is not on the table."""
    state = board(
        [
            vehicle("W", position=(30, 20), capacity=8),
            vehicle("V", position=(0, 0), capacity=4, aboard="W"),
            piece("T", "foot", 6, (0, 0), aboard="V"),
        ]
    )
    verdict = act(state, "T", type="unload", passengers=[{"unit": "T", "position": [30, 22]}])
    assert not verdict.legal
    assert verdict.codes == ["action_not_allowed"]
    assert "is not a vehicle on the table" in verdict.reasons[0].message
