"""Reach for LaserGrenadiers over terrain cheaper than firm ground (issue 20: every legal end
lies in its reach): a road or bridge doubles a foot piece's and a ground vehicle's
movement (003 Terrain 7-8, LG-D32), and overrides the soft ground, slope or river it lies
on (LG-D25); beyond it, firm ground costs 1" an inch again."""

from __future__ import annotations

from typing import Any

from rules import reach, validate
from tests.rules.lasergrenadiers.build import area, board, piece


def legal_along(state: Any, unit: str, end: tuple[float, float]) -> bool:
    found = reach(state, unit)
    path = found.path_to(end)
    steps = [dict(s) if isinstance(s, dict) else list(s) for s in (path or [])[1:]]
    return path is not None and validate(state, {"unit": unit, "type": "move", "path": steps}).legal


def test_a_foot_piece_on_a_road_goes_twice_as_far_ahead_and_reverses_at_firm_cost() -> None:
    # 003 Terrain 7 (road doubled), 003 Infantry movement 4 (reverse halved): forward 12"
    # on the road, reverse 6" (x2 / 2 = 1" an inch).
    state = board([piece(position=(20, 20))], [area("R1", "road", 5, 15, 40, 25)])
    found = reach(state, "U")
    assert found.complete
    assert found.contains((31.8, 20)) and not found.contains((32.2, 20))
    assert found.contains((14.2, 20)) and not found.contains((13.8, 20))
    assert legal_along(state, "U", (31.8, 20)) and legal_along(state, "U", (14.2, 20))


def test_a_road_over_soft_ground_is_paid_as_road_and_the_firm_ground_beyond_as_firm() -> None:
    # LG-D25: the road overrides the soft ground under it. A tracked vehicle of 30 on a
    # road over soft ground: 10" of road cost 5, then 25" of firm ground at 1" an inch.
    state = board(
        [piece(type="tracked", move=30, diameter=2, position=(10, 20))],
        [area("S1", "soft", 5, 10, 20, 30), area("R1", "road", 5, 15, 20, 25)],
    )
    found = reach(state, "U")
    assert found.contains((44.8, 20)) and not found.contains((45.2, 20))
    assert legal_along(state, "U", (44.8, 20))


def test_a_bridge_carries_the_centre_over_the_river_it_overrides() -> None:
    # 003 Terrain 4, 8; LG-D25: the river is prohibited to foot, the bridge over it is a
    # road: 1" firm + 8" bridge (4) + 1" firm = 6 of 6.
    state = board(
        [piece(position=(11, 20))],
        [area("W1", "river", 12, 0, 20, 48), area("B1", "bridge", 12, 18, 20, 22)],
    )
    found = reach(state, "U")
    assert found.contains((20.9, 20)) and legal_along(state, "U", (20.9, 20))
    assert not found.contains((21.2, 20))
    assert not found.contains((13, 16))  # in the river beside the bridge


def sound(state: Any, unit: str, action_type: str, points: list[tuple[float, float]]) -> int:
    """How many of `points` are shaded; each shaded one is legal along the engine's path
    with the keys the reach names (an overrun's target)."""
    found = reach(state, unit, action_type)
    n = 0
    for p in points:
        if not found.contains(p):
            continue
        path = found.path_to(p)
        assert path is not None, p
        steps = [dict(s) if isinstance(s, dict) else list(s) for s in path[1:]]
        verdict = validate(
            state, {"unit": unit, "type": action_type, "path": steps, **found.keys_at(p)}
        )
        assert verdict.legal, (p, steps, [r.message for r in verdict.reasons])
        n += 1
    return n


GRID = [(x * 0.75, y * 0.75) for x in range(0, 64) for y in range(0, 40)]


def tank(**extra: Any) -> dict[str, Any]:
    return piece("A1", "tracked", 30, (10, 10), diameter=2, armored=True, size=6, **extra)


def test_an_overrun_ends_beyond_its_target_straight_over_it() -> None:
    # 003 Overrun 1-4, LG-D9: into and over the target in one stretch, ending beyond it;
    # its base crossed at 3x. A size 6 tank of 30 over size 3 infantry 6" ahead.
    state = board([tank(), piece("E1", "foot", 6, (16, 10), side="P2", diameter=1, size=3)])
    found = reach(state, "A1", "overrun")
    assert found.complete
    assert found.keys_at((20, 10)) == {"target": "E1"}
    assert not found.contains((14, 10))  # short of the target
    assert not found.contains((16, 14))  # beside it, not over it
    assert found.contains((30, 10))  # 20" ahead: 19 + 3 x 1 (its base) = 22 of 30
    assert sound(state, "A1", "overrun", GRID) > 10


def test_an_overrun_is_not_shaded_for_a_target_it_may_not_run_over() -> None:
    # 003 Overrun 2: at least three size classes smaller.
    state = board([tank(), piece("E1", "foot", 6, (16, 10), side="P2", diameter=1, size=4)])
    assert reach(state, "A1", "overrun").area.area == 0


def test_a_foxhole_survivor_may_not_be_ended_on_one_eliminated_may() -> None:
    # 003 Overrun 5: >= 2/3 of A (20 of 30) spent over the base eliminates it; less, it
    # survives and the tank may not end on its base.
    firm = board(
        [
            tank(),
            piece("E1", "crew_weapon", 6, (16, 10), side="P2", diameter=4, size=3, foxhole=True),
        ]
    )
    found = reach(firm, "A1", "overrun")
    assert not found.contains((18.5, 10))  # 12 over it on firm ground: it survives
    assert found.contains((19.5, 10))  # clear of its base: legal, it survives
    assert sound(firm, "A1", "overrun", GRID) > 5
    soft = board(
        [
            tank(),
            piece("E1", "crew_weapon", 6, (16, 10), side="P2", diameter=4, size=3, foxhole=True),
        ],
        [area("S1", "soft", 14, 5, 18, 15)],
    )
    assert reach(soft, "A1", "overrun").contains((18.5, 10))  # 24 over it: eliminated
    assert sound(soft, "A1", "overrun", [(18.5, 10), (19.5, 10)]) == 2


def test_a_piece_enters_from_its_edge_and_ends_wholly_on_the_table() -> None:
    # 003 Off-board movement, LG-D14: from the entry point on the edge, as for a move;
    # the base ends wholly on the table.
    state = board([piece("J", "jetpack", 24, (0, 10), facing=0)])
    found = reach(state, "J", "enter_board")
    assert found.complete
    assert found.contains((23.9, 10)) and not found.contains((24.1, 10))
    assert not found.contains((0.3, 10))  # partly off
    assert sound(state, "J", "enter_board", GRID) > 50


def test_a_lander_above_the_table_flies_level_or_descends_within_its_reach() -> None:
    # 003 Assault landings 4a, LG-D16: from above, a point without a height keeps the one
    # before it (a level flight, as a move); a descent costs its 3-D length, so it ends
    # over a point of the same area (straight down 48 of 48: its own point).
    state = board([piece("L1", "thruster", 48, (24, 24, 48), diameter=2, aircraft=True)])
    found = reach(state, "L1", "enter_board")
    assert found.complete
    assert found.contains((24, 24)) and found.contains((70.9, 24))
    assert validate(state, {"unit": "L1", "type": "enter_board", "path": [[24, 24, 0]]}).legal
    assert sound(state, "L1", "enter_board", GRID) > 50


def test_an_entry_reach_judges_its_entry_point_once(monkeypatch: Any) -> None:
    # 003 Off-board movement: the entry point is judged by `enter_board` with no path;
    # the board's offers (may_take) and the reach's region both need that verdict, and
    # the reach asks the one the offers computed for this position.
    from rules.systems.lasergrenadiers import moves

    calls: list[str] = []
    judged = moves.LgMove.move

    def counted(self: Any, pos: Any, unit: Any, action: Any, dice: Any) -> Any:
        calls.append(unit.id)
        return judged(self, pos, unit, action, dice)

    monkeypatch.setattr(moves.LgMove, "move", counted)
    state = board([piece("J", "jetpack", 24, (0, 10), facing=0)])
    assert reach(state, "J", "enter_board").contains((23.9, 10))
    assert calls == ["J"]
