"""The seed's tables, cell by cell: cost per inch (002 cost table), terrain by size class
(002 Terrain, MSW-D30) and terrain height to size class (002 Terrain, MSW-D15)."""

from __future__ import annotations

import pytest

from rules import SYSTEMS
from rules.systems.mswars.tables import COST_PER_INCH, SIZE_CLASS_TERRAIN
from rules.systems.mswars.terrain import size_class_for_height
from tests.rules.mswars.build import area, board, judge, mech

#: The seed's cost table as printed, row by row: Walker, 4LW, Track, Wheel, Static.
SEED_TABLE = {
    "flat": (1, 1, 1, 1, 0),
    "difficult": (2, 1, 2, 4, 0),
    "very_difficult": (4, 2, None, None, None),
    "rough": (1, 1, 1, 2, 0),
    "shallow_water": (4, 4, 4, 4, 0),
    "deep_water": (4, None, None, None, 0),
}
MOVERS = ("walker", "four_legged_walker", "track", "wheel")


def test_the_cost_table_data_is_the_seed_table() -> None:
    """002 cost table, every row and column (On/In Deep Water share one row, MSW-D20)."""
    for row, cells in SEED_TABLE.items():
        got = tuple(
            COST_PER_INCH[row][c]
            for c in ("walker", "four_legged_walker", "track", "wheel", "static")
        )
        assert got == cells, row


@pytest.mark.parametrize("row", sorted(SEED_TABLE))
@pytest.mark.parametrize("column", MOVERS)
def test_moving_two_inches_inside_a_terrain_costs_twice_its_rate_or_is_prohibited(
    row: str, column: str
) -> None:
    """002 cost table: MP per inch by terrain row and move type; "Can't" is prohibited."""
    state = board([mech(type=column, move=10)], [area("T", row, 5, 5, 20, 15)])
    verdict = judge(state, [[12, 10]])
    rate = SEED_TABLE[row][MOVERS.index(column)]
    if rate is None:
        assert "prohibited_terrain" in verdict.codes
    else:
        assert verdict.legal, verdict.codes
        assert verdict.cost == pytest.approx(2 * rate)


@pytest.mark.parametrize("row", sorted(SEED_TABLE))
def test_a_static_unit_may_be_set_up_where_its_column_is_0_but_not_where_it_is_cant(
    row: str,
) -> None:
    """002 cost table: "0" means set up there but cannot move; "Can't" cannot be there."""
    state = board([mech(type="static")], [area("T", row, 5, 5, 20, 15)])
    verdict = judge(state, [])
    if SEED_TABLE[row][4] is None:
        assert verdict.codes == ["prohibited_terrain"]
    else:
        assert verdict.legal


def test_hover_uses_the_track_column_unless_the_table_says_otherwise() -> None:
    """MSW-D1 and MSW-D41: `hover_column`, "track" by default."""
    terrain = [area("T", "difficult", 5, 5, 20, 15)]
    assert judge(board([mech(type="hover")], terrain), [[12, 10]]).cost == pytest.approx(4)
    wheel = board([mech(type="hover")], terrain, options={"hover_column": "wheel"})
    assert judge(wheel, [[12, 10]]).cost == pytest.approx(8)


#: What each row costs a walker and a four-legged walker (together they tell rows apart).
ROW_SIGNATURE = {
    "flat": (1, 1),
    "difficult": (2, 1),
    "very_difficult": (4, 2),
    "deep_water": (4, None),
}


@pytest.mark.parametrize("feature", sorted(SIZE_CLASS_TERRAIN))
@pytest.mark.parametrize("size_class,column", [(0, 0), (1, 1), (3, 1), (4, 2), (7, 2)])
def test_a_named_feature_is_the_row_of_the_seed_table_for_the_movers_size_class(
    feature: str, size_class: int, column: int
) -> None:
    """002 Terrain's example table, every cell, by the moving unit's size class."""
    expected = ROW_SIGNATURE[SIZE_CLASS_TERRAIN[feature][column]]
    terrain = [area("T", feature, 5, 5, 20, 15)]
    for move_type, rate in zip(("walker", "four_legged_walker"), expected, strict=True):
        verdict = judge(board([mech(type=move_type, size_class=size_class)], terrain), [[12, 10]])
        if rate is None:
            assert "prohibited_terrain" in verdict.codes, (feature, move_type)
        else:
            assert verdict.cost == pytest.approx(2 * rate), (feature, move_type)


def test_a_partial_size_class_table_replaces_only_the_features_it_names() -> None:
    """MSW-D41: woodland made Flat Ground for SC 0; desert keeps the seed's rows."""
    options = {"size_class_terrain": {"woodland": ["flat", "flat", "flat"]}}
    wood = board([mech()], [area("T", "woodland", 5, 5, 20, 15)], options=options)
    sand = board([mech(size_class=2)], [area("T", "desert", 5, 5, 20, 15)], options=options)
    assert judge(wood, [[12, 10]]).cost == pytest.approx(2)
    assert judge(sand, [[12, 10]]).cost == pytest.approx(4)


@pytest.mark.parametrize(
    "height,size_class",
    [
        (0.5, 0),
        (1.5, 0),
        (1.6, 1),
        (2.5, 1),
        (2.6, 2),
        (4, 2),
        (4.1, 3),
        (5, 3),
        (5.1, 4),
        (6.5, 4),
        (6.6, 5),
        (8, 5),
    ],
)
def test_the_height_table_gives_the_smallest_class_whose_maximum_holds_the_height(
    height: float, size_class: int
) -> None:
    """002 Terrain: "the height on the table is the maximum height of that Size Class"."""
    assert size_class_for_height(height) == size_class


def test_elevated_terrain_over_8_inches_without_a_size_class_is_malformed() -> None:
    """MSW-D15: the seed's table stops at 8"."""
    state = board([mech()], [area("B", "elevated", 20, 20, 25, 25, height=8.5)])
    assert judge(state, [[12, 10]]).codes == ["malformed"]
    given = board([mech()], [area("B", "elevated", 20, 20, 25, 25, height=8.5, size_class=6)])
    assert judge(given, [[12, 10]]).legal


@pytest.mark.parametrize("height,elevated_for_sc8", [(2.5, False), (4, True)])
def test_the_quarter_rule_is_strict_real_division(height: float, elevated_for_sc8: bool) -> None:
    """MSW-D16: SC 1 terrain (< 8/4) is Very Difficult for SC 8; SC 2 stays elevated."""
    state = board(
        [mech(size_class=8, move=20)], [area("B", "elevated", 11.5, 5, 14, 15, height=height)]
    )
    verdict = judge(state, [[16, 10]])
    if elevated_for_sc8:
        assert verdict.codes == ["action_not_allowed"]
    else:
        # Walker: 1.5" flat, 2.5" very difficult at 4, 2" flat.
        assert verdict.legal and verdict.cost == pytest.approx(1.5 + 10 + 2)


def test_the_sight_tool_sees_hills_and_elevated_terrain_block_and_woodland_hinder() -> None:
    """Not in the seed (002 says nothing of sight): the board's line-of-sight tool shows
    tall features as blocking, cover as hindering, open ground and water as nothing."""
    sight = {kind.type: kind.sight for kind in SYSTEMS["mswars"].terrain_kinds}
    assert (sight["elevated"], sight["hills"]) == ("blocks", "blocks")
    assert (sight["woodland"], sight["rubble"], sight["small_walls"]) == ("hinders",) * 3
    assert sight["flat"] == sight["deep_water"] == sight["fields"] == ""
