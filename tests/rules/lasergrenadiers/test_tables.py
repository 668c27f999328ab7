"""The seed's tables over every row: movement rates (003 Infantry movement 1-3, 003 Ground
vehicle movement 1a-1b), altitude limits (003 Altitude limits), the damaged-vehicle
turning table with its 44 entries (003 Damaged c, LG-D17) and the terrain effects
(003 Terrain effects on movement, lasergrenadiers.md 6)."""

from __future__ import annotations

import pytest

from rules import Verdict
from rules.model.state import BaseShape, Unit
from rules.systems.lasergrenadiers.pieces import round_half_up, turn_cost
from rules.systems.lasergrenadiers.tables import (
    ADVANCED_RATES,
    BASIC_RATES,
    DAMAGED_TURNING,
    INFANTRY_RATES,
)
from tests.rules.lasergrenadiers.build import act, area, board, piece, vehicle

#: The seed's tables as printed.
SEED_INFANTRY = {"foot": 6, "gravpack": 12, "jetpack": 24, "powered_armor": 12}
SEED_BASIC = {"grav": 36, "hover": 30, "thruster": 48, "tracked": 30, "walker": 24, "wheeled": 36}
SEED_ADVANCED = {
    "grav": (36, 30, 24),
    "hover": (30, 24, 18),
    "thruster": (48, 42, 36),
    "tracked": (30, 24, 18),
    "walker": (24, 18, 12),
    "wheeled": (36, 30, 24),
}
SEED_ALTITUDE = {
    "foot": 0,
    "gravpack": 2,
    "jetpack": 12,
    "grav": 4,
    "hover": 1,
    "thruster": None,
    "tracked": 0,
    "walker": 0,
    "wheeled": 0,
}
SEED_DAMAGED = """4 1 1 3 3
6 1 2 4 5
8 1 3 5 7
10 2 3 7 8
12 2 4 8 10
14 2 5 9 12
16 3 5 11 13
18 3 6 12 15
20 3 7 13 17
22 4 7 15 18
24 4 8 16 20"""
DAMAGED_ROWS = [tuple(int(v) for v in line.split()) for line in SEED_DAMAGED.splitlines()]
#: One rotation angle inside each column's band (LG-D1): 1/6, 1/3, 2/3, 5/6.
ANGLES = (45.0, 90.0, 135.0, 180.0)


def test_the_rate_tables_are_the_seeds() -> None:
    """003 Infantry movement 1-3, Crew-served weapon 2, Ground vehicle movement 1a-1b."""
    assert {k: INFANTRY_RATES[k] for k in SEED_INFANTRY} == SEED_INFANTRY
    assert INFANTRY_RATES["crew_weapon"] == 6
    assert BASIC_RATES == SEED_BASIC
    assert ADVANCED_RATES == SEED_ADVANCED
    # 003 Ground vehicle movement 1d: every rate is a multiple of 6.
    assert all(r % 6 == 0 for rates in SEED_ADVANCED.values() for r in rates)


@pytest.mark.parametrize("kind,rate", [*SEED_INFANTRY.items(), *SEED_BASIC.items()])
def test_a_piece_moves_exactly_its_basic_rate_and_no_further(kind: str, rate: int) -> None:
    """003 Infantry movement 1-3, 003 Ground vehicle movement 1a: the allowance is `move`."""
    make = vehicle if kind in SEED_BASIC else piece
    state = board([make("U", kind, rate, (5, 24))], width=120)
    assert act(state, path=[[5 + rate, 24]]).legal
    refused = act(state, path=[[5 + rate + 0.01, 24]])
    assert refused.codes == ["speed_exceeded"]
    assert refused.allowance == rate


@pytest.mark.parametrize("kind", sorted(SEED_ADVANCED))
@pytest.mark.parametrize("speed", [0, 1, 2])
def test_an_advanced_rate_is_the_allowance_the_roster_gives(kind: str, speed: int) -> None:
    """003 Ground vehicle movement 1b: the player picks fast, average or slow."""
    rate = SEED_ADVANCED[kind][speed]
    state = board([vehicle("U", kind, rate, (5, 24))], width=120)
    assert act(state, path=[[5 + rate, 24]]).legal
    assert not act(state, path=[[5 + rate + 0.5, 24]]).legal


@pytest.mark.parametrize("full_crew,allowed", [(True, 6), (False, 3)])
def test_a_crew_weapon_moves_six_with_its_full_crew_and_three_without(
    full_crew: bool, allowed: float
) -> None:
    """003 Crew-served weapon movement 2-3."""
    state = board([piece("U", "crew_weapon", 6, (10, 10), full_crew=full_crew)])
    assert act(state, path=[[10 + allowed, 10]]).legal
    assert act(state, path=[[10 + allowed + 0.1, 10]]).codes == ["speed_exceeded"]


@pytest.mark.parametrize("kind,limit", sorted(SEED_ALTITUDE.items()))
def test_each_piece_climbs_to_its_altitude_limit_and_no_higher(
    kind: str, limit: float | None
) -> None:
    """003 Altitude limits: "Surface" is z = 0; thruster vehicles have no limit."""
    make = vehicle if kind in SEED_BASIC else piece
    state = board([make("U", kind, 48, (10, 10))])
    top = 30.0 if limit is None else limit
    assert act(state, path=[[12, 10, top]]).legal
    over = act(state, path=[[12, 10, top + 0.01]])
    if limit is None:
        assert over.legal
    else:
        assert over.codes == ["altitude_exceeded"]


@pytest.mark.parametrize("row", DAMAGED_ROWS, ids=[str(r[0]) for r in DAMAGED_ROWS])
def test_the_damaged_turning_table_is_the_seeds_and_the_formula_reproduces_it(
    row: tuple[int, ...],
) -> None:
    """003 Damaged c, all 44 entries; LG-D17: round(rate x fraction), halves up, gives
    each of them."""
    rate, *costs = row
    assert DAMAGED_TURNING[rate] == tuple(costs)
    for share, cost in zip((1 / 6, 1 / 3, 2 / 3, 5 / 6), costs, strict=True):
        assert round_half_up(rate * share) == cost


@pytest.mark.parametrize("row", DAMAGED_ROWS, ids=[str(r[0]) for r in DAMAGED_ROWS])
def test_a_damaged_vehicle_pays_the_tables_turning_cost(row: tuple[int, ...]) -> None:
    """003 Damaged b-c: a vehicle whose reduced rate is in the table pays its entries for
    turns of 45, 90, 135 and 180 degrees (one angle in each band, LG-D1)."""
    rate, *costs = row
    for angle, cost in zip(ANGLES, costs, strict=True):
        state = board([vehicle("U", "grav", 36, (20, 20), damage_levels=1, current_rate=rate)])
        verdict = act(state, path=[{"turn": angle}])
        assert verdict.legal and verdict.cost == pytest.approx(cost), (rate, angle)


def test_a_reduced_rate_the_table_lacks_rounds_halves_up() -> None:
    """LG-D17: a rate of 15 turning 90 degrees pays round(5) = 5, 45 degrees round(2.5) = 3."""
    unit = Unit(
        "U",
        "P1",
        "grav",
        36,
        BaseShape("circle", 1.0),
        (0, 0),
        props={"damage_levels": 1, "current_rate": 15},
    )
    assert turn_cost(unit, 1 / 3) == 5
    assert turn_cost(unit, 1 / 6) == 3


#: lasergrenadiers.md 6, as printed (X = None): F, G, J, grav, hover, thruster, tracked,
#: walker, wheeled. Slope rows: uphill and across.
NOTES_TERRAIN = {
    "firm": (1, 1, 1, 1, 1, 1, 1, 1, 1),
    "soft": (0.5, 1, 1, 1, 1, 1, 0.5, 0.5, 0.5),
    "river": (None, 1, 1, 1, 1, 1, None, None, None),
    "lake": (None, 1, 1, 1, 1, 1, None, None, None),
    "ford": (0.5, 1, 1, 1, 1, 1, 0.5, 0.5, 0.5),
    "road": (2, 1, 1, 1, 1, 1, 2, 2, 2),
    "bridge": (2, 1, 1, 1, 1, 1, 2, 2, 2),
    "vegetation": (0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5),
    "dense_vegetation": (None,) * 9,
    "low_obstacle": (0.5, 1, 1, 1, 0.5, 1, 0.5, 0.5, 0.5),
    "high_wall": (None, None, 1, None, None, 1, None, None, None),
    "antitank_obstacle": (0.5, 1, 1, 1, 0.5, 1, None, 0.5, None),
    "building": (2, 1, 1, 1, 1, 1, 2, 2, 2),
    "stairs": (0.5, 1, 1, 1, 1, 1, 0.5, 0.5, 0.5),
    "ladder": (3, 1, 1, None, None, None, None, None, None),
}
SLOPE_UPHILL = (0.5, 1, 1, 1, 0.5, 1, 0.5, 0.5, 0.5)
KINDS = ("foot", "gravpack", "jetpack", "grav", "hover", "thruster", "tracked", "walker", "wheeled")
#: Features a vehicle enters only with access (LG-D20).
ACCESS = {"vehicle_access": True}


def two_inches_in(kind: str, terrain: dict[str, object]) -> Verdict:
    make = vehicle if kind in SEED_BASIC else piece
    state = board([make("U", kind, 48, (10, 10))], [terrain])
    return act(state, path=[[14, 10]])


@pytest.mark.parametrize("row", sorted(NOTES_TERRAIN))
@pytest.mark.parametrize("column", range(9), ids=KINDS)
def test_two_inches_inside_a_terrain_cost_two_over_its_multiplier(row: str, column: int) -> None:
    """003 Terrain 1-13 (lasergrenadiers.md 6): cost per inch = 1 / m; X is prohibited.
    The path runs 2" of its 4" inside the feature."""
    kind = KINDS[column]
    verdict = two_inches_in(kind, area("T", row, 11, 5, 13, 15, **ACCESS))
    m = NOTES_TERRAIN[row][column]
    if m is None:
        assert "prohibited_terrain" in verdict.codes
    else:
        assert verdict.cost == pytest.approx(2 + 2 / m), (row, kind)


@pytest.mark.parametrize("column", range(9), ids=KINDS)
def test_a_slope_halves_going_uphill_only(column: int) -> None:
    """003 Terrain 3, LG-D5: uphill = within 90 degrees of the `uphill` bearing."""
    kind = KINDS[column]
    up = two_inches_in(kind, area("S", "slope", 11, 5, 13, 15, uphill=30))
    across = two_inches_in(kind, area("S", "slope", 11, 5, 13, 15, uphill=90))
    down = two_inches_in(kind, area("S", "slope", 11, 5, 13, 15, uphill=180))
    assert up.cost == pytest.approx(2 + 2 / SLOPE_UPHILL[column])
    assert across.cost == pytest.approx(4)
    assert down.cost == pytest.approx(4)
