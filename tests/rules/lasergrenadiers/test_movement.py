"""Direction of travel, terrain precedence, altitude and pop-up maneuvers, turning bands,
bases and the table edge (lasergrenadiers.md 3-8)."""

from __future__ import annotations

import pytest

from tests.rules.lasergrenadiers.build import act, area, board, piece, then, vehicle

# -- direction (003 Infantry movement 4-5, Ground vehicle movement 2-3, LG-D12) ---------------


@pytest.mark.parametrize(
    "kind,flags,reverse,sideways",
    [
        ("foot", {}, 2, 2),
        ("foot", {"jointed": True}, 2, 1),
        ("jetpack", {"jointed": True}, 2, 2),
        ("grav", {}, 2, 2),
        ("grav", {"dual_drivers": True}, 1, 2),
        ("walker", {"jointed": True, "dual_drivers": True}, 1, 1),
        ("tracked", {"dual_drivers": True}, 1, None),
        ("wheeled", {}, 2, None),
    ],
)
def test_reverse_and_sideways_cost_their_factor_or_are_refused(
    kind: str, flags: dict[str, bool], reverse: float, sideways: float | None
) -> None:
    """Reverse and sideways are "halved" (x2) but for dual drivers and jointed pieces;
    tracked and wheeled vehicles cannot move sideways."""
    state = board([vehicle("U", kind, 30, (20, 20), **flags)])
    assert act(state, path=[[17, 20]]).cost == pytest.approx(3 * reverse)
    side = act(state, path=[[20, 23]])
    if sideways is None:
        assert side.codes == ["direction_not_allowed"]
    else:
        assert side.legal and side.cost == pytest.approx(3 * sideways)


def test_a_diagonal_pays_the_larger_neighbouring_factor() -> None:
    """LG-D12: ahead-diagonal = sideways factor, rear-diagonal = max(reverse, sideways)."""
    state = board([vehicle("U", "grav", 30, (20, 20), dual_drivers=True)])
    assert act(state, path=[[23, 23]]).cost == pytest.approx(2 * 18**0.5)
    assert act(state, path=[[17, 23]]).cost == pytest.approx(2 * 18**0.5)
    tracked = board([vehicle("U", "tracked", 30, (20, 20))])
    assert act(tracked, path=[[23, 23]]).codes == ["direction_not_allowed"]


def test_a_vertical_segment_has_factor_one_and_counts_its_height() -> None:
    """LG-D16: vertical distance counts 1:1; a purely vertical segment has factor 1."""
    state = board([vehicle("U", "thruster", 48, (20, 20))])
    assert act(state, path=[[20, 20, 10], [20, 20, 0]]).cost == pytest.approx(20)
    assert act(state, path=[[24, 20, 3]]).cost == pytest.approx(5)
    # A climbing diagonal pays the sideways factor on its whole 3-D length: 2 x 13.
    assert act(state, path=[[24, 23, 12]]).cost == pytest.approx(26)


# -- turning (LG-D1, LG-D28, LG-D30) -------------------------------------------------------------


@pytest.mark.parametrize(
    "angle,fraction",
    [
        (10, 1 / 6),
        (45, 1 / 6),
        (46, 1 / 3),
        (90, 1 / 3),
        (91, 2 / 3),
        (135, 2 / 3),
        (136, 5 / 6),
        (180, 5 / 6),
        (-90, 1 / 3),
        (270, 1 / 3),
        (360, 0),
    ],
)
def test_a_turn_costs_its_band_of_the_rate(angle: float, fraction: float) -> None:
    """LG-D1 bands, upper bounds inclusive; angles normalised to (-180, 180] (LG-D28)."""
    state = board([vehicle("U", "grav", 36, (20, 20))])
    assert act(state, path=[{"turn": angle}]).cost == pytest.approx(36 * fraction)


def test_each_turn_step_is_charged_on_its_own() -> None:
    """LG-D1: two turns of 30 degrees cost two sixths, not one."""
    state = board([vehicle("U", "grav", 36, (20, 20))])
    assert act(state, path=[{"turn": 30}, {"turn": 30}]).cost == pytest.approx(12)


def test_infantry_turn_on_their_own_rate() -> None:
    """LG-D2: a foot trooper (6") pays 1" for 45 degrees."""
    state = board([piece("U", "foot", 6, (20, 20))])
    assert act(state, path=[{"turn": 45}]).cost == pytest.approx(1)


def test_a_facing_key_is_a_final_turn_and_is_charged() -> None:
    """LG-D30."""
    state = board([vehicle("U", "grav", 36, (20, 20))])
    verdict = act(state, path=[[25, 20]], facing=90)
    assert verdict.cost == pytest.approx(17)
    assert then(verdict).unit("U").facing == pytest.approx(90)  # type: ignore[union-attr]


def test_the_turn_bands_are_a_table_option() -> None:
    """LG-D1: the GM may replace the bands."""
    state = board(
        [vehicle("U", "grav", 36, (20, 20))], options={"turn_bands": [[90, 0.25], [180, 0.5]]}
    )
    assert act(state, path=[{"turn": 60}]).cost == pytest.approx(9)


def test_a_piece_that_only_rotates_is_reported_as_rotating_in_place() -> None:
    """003 Movement and fire 4."""
    state = board([vehicle("U", "grav", 36, (20, 20))])
    verdict = act(state, path=[{"turn": 120}])
    assert verdict.notes["speed_band"] == "moderate"
    assert any(e["type"] == "rotated_in_place" for e in verdict.events)


# -- speed bands (LG-D11, LG-D27) -----------------------------------------------------------------


@pytest.mark.parametrize(
    "spent,band",
    [(0, "stationary"), (4, "slow"), (4.01, "moderate"), (8, "moderate"), (8.01, "fast")],
)
def test_the_speed_band_counts_the_allowance_spent_this_turn(spent: float, band: str) -> None:
    state = board([vehicle("U", "grav", 12, (20, 20))], state={"moved": {"U": spent}})
    assert act(state, path=[]).notes["speed_band"] == band


# -- terrain precedence (LG-D25) and special cases -------------------------------------------------


def foot_through(*terrain: dict[str, object], kind: str = "foot", **flags: object) -> float:
    state = board([piece("U", kind, 48, (10, 10), **flags)], list(terrain))
    verdict = act(state, path=[[14, 10]])
    return -1.0 if "prohibited_terrain" in verdict.codes else verdict.cost


def test_a_bridge_or_a_ford_overrides_a_river() -> None:
    """003 Terrain 4-6: crossed only at a bridge or ford."""
    river = area("R", "river", 11, 0, 13, 20)
    assert foot_through(river) == -1
    # 3" of the 4" on the bridge or ford: 1 + 3 / 2, and 1 + 3 x 2.
    assert foot_through(river, area("B", "bridge", 10.5, 9, 13.5, 11)) == pytest.approx(2.5)
    assert foot_through(river, area("F", "ford", 10.5, 9, 13.5, 11)) == pytest.approx(7)


def test_an_amphibious_piece_crosses_water_at_half_rate() -> None:
    """LG-D8."""
    assert foot_through(area("R", "lake", 11, 0, 13, 20), amphibious=True) == pytest.approx(6)


def test_a_road_overrides_soft_ground_and_vegetation_and_a_wet_road_is_soft() -> None:
    """003 Terrain 7, LG-D25."""
    soft = area("S", "soft", 11, 0, 13, 20)
    road = area("R", "road", 10.5, 9, 13.5, 11)
    # 3" of the 4" on the road: 1 + 3 / 2; wet, the road is soft: 1 + 3 x 2.
    assert foot_through(soft, road) == pytest.approx(2.5)
    assert foot_through(area("V", "vegetation", 11, 0, 13, 20), road) == pytest.approx(2.5)
    assert foot_through(dict(road, wet=True)) == pytest.approx(7)


def test_otherwise_the_lowest_multiplier_governs_and_x_is_lowest() -> None:
    """LG-D25: a low obstacle on a road halves; a wall on a bridge prohibits."""
    road = area("R", "road", 10, 0, 14, 20)
    assert foot_through(road, area("L", "low_obstacle", 11, 0, 13, 20)) == pytest.approx(1 + 4)
    assert (
        foot_through(area("B", "bridge", 10, 0, 14, 20), area("W", "high_wall", 11, 0, 13, 20))
        == -1
    )


def test_vehicles_enter_buildings_and_stairs_only_with_vehicle_access() -> None:
    """003 Terrain 11-12, LG-D20."""
    for kind in ("building", "stairs"):
        state = board([vehicle("U", "grav", 36, (10, 10))], [area("B", kind, 11, 0, 13, 20)])
        assert act(state, path=[[14, 10]]).codes == ["prohibited_terrain"]
    assert foot_through(area("B", "building", 11, 0, 13, 20)) == pytest.approx(3)


def test_rubble_uses_the_rubble_multiplier_for_every_piece() -> None:
    """LG-D20: table option `rubble_multiplier`."""
    state = board(
        [piece("U", "jetpack", 24, (10, 10))],
        [area("B", "building", 11, 0, 13, 20, rubble=True)],
        options={"rubble_multiplier": 0.5},
    )
    assert act(state, path=[[14, 10]]).cost == pytest.approx(6)


def test_ladders_are_tripled_for_foot_and_closed_to_crew_weapons() -> None:
    """003 Terrain 13, LG-D32."""
    ladder = area("L", "ladder", 11, 0, 13, 20, height=6)
    assert foot_through(ladder) == pytest.approx(2 + 2 / 3)
    assert foot_through(ladder, kind="crew_weapon") == -1


def test_dense_vegetation_may_be_declared_ordinary() -> None:
    """LG-D18: table option `dense_vegetation`."""
    state = board(
        [piece("U", "foot", 6, (10, 10))],
        [area("D", "dense_vegetation", 11, 0, 13, 20)],
        options={"dense_vegetation": "vegetation"},
    )
    assert act(state, path=[[14, 10]]).cost == pytest.approx(6)


# -- altitude and pop-up (003 Altitude limits, 003 Pop-up maneuvers, LG-D22, LG-D23, LG-D36) --


def test_surface_pieces_climb_inside_buildings_up_to_the_height() -> None:
    state = board(
        [piece("U", "foot", 12, (10, 10))], [area("B", "building", 9, 9, 16, 11, height=4)]
    )
    assert act(state, path=[[12, 10, 4]]).legal
    assert act(state, path=[[12, 10, 4.5]]).codes == ["altitude_exceeded"]
    assert act(state, path=[[12, 10, 3], [14, 10, 0]]).legal  # climbing is not a pop-up


def test_a_pop_up_is_allowed_to_grav_pieces_only() -> None:
    """A hover vehicle rising and dropping again may not; a grav tank may."""
    path = [[12, 10, 1], [14, 10, 0]]
    assert act(board([vehicle("U", "hover", 30, (10, 10))]), path=path).codes == [
        "action_not_allowed"
    ]
    grav = act(board([vehicle("U", "grav", 36, (10, 10))]), path=path)
    assert grav.legal and grav.cost == pytest.approx(2 * 5**0.5)
    assert act(board([vehicle("U", "hover", 30, (10, 10))]), path=[[12, 10, 1]]).legal


def test_an_aircraft_has_no_altitude_limit_and_uses_the_thruster_column() -> None:
    """LG-D22."""
    state = board(
        [vehicle("U", "tracked", 30, (10, 10), aircraft=True)],
        [area("W", "high_wall", 11, 0, 13, 20)],
    )
    assert act(state, path=[[14, 10, 20]]).legal


# -- bases and the edge (LG-D14, LG-D24) -----------------------------------------------------


def test_no_base_may_be_crossed_unless_friendly_bases_are_allowed() -> None:
    units = [piece("U", "foot", 6, (10, 10)), piece("F", "foot", 6, (12, 10))]
    assert "path_through_base" in act(board(units), path=[[14, 10]]).codes
    assert act(board(units, options={"pass_friendly_bases": True}), path=[[14, 10]]).legal
    assert act(board(units), path=[[12.5, 10]]).codes[-1] == "base_overlap"


def test_a_piece_leaves_the_board_wholly_and_is_removed() -> None:
    """003 Leaving the board 1: a loss, not destroyed; it may never return."""
    state = board([piece("U", "foot", 6, (2, 10), facing=180)])
    verdict = act(state, path=[[-1, 10]])
    after = then(verdict)
    assert after.unit("U") is None and after.turn["left_board"] == ["U"]
    assert {"type": "left_board", "unit": "U"} in verdict.events
    assert act(after, "U", [[2, 10]], type="enter_board").codes == ["action_not_allowed"]


def test_ending_partly_off_or_leaving_and_coming_back_is_off_table() -> None:
    """LG-D14."""
    state = board([piece("U", "jetpack", 24, (2, 10), facing=180)])
    assert act(state, path=[[0, 10]]).codes == ["off_table"]
    assert act(state, path=[[-1, 10], [-1, 14], [2, 14]]).codes[0] == "off_table"
