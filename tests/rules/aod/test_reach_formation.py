"""aod reach of a formation move (000 [29], aod.md 11.1; issue 20: every shaded point is
a legal end, the whole formation moving by the proposal reach gives)."""

from __future__ import annotations

from rules import GameState, reach
from tests.rules.reach_sampling import judged_ends as sample_ends
from tests.rules.scenes import rect_unit, scene, square, unit


def judged_ends(state: GameState, uid: str = "A", count: int = 40) -> int:
    return len(sample_ends(state, uid, "formation_move", count=count, seed=7, tries=50000))


def trio(move_c: float = 4) -> list[dict[str, object]]:
    return [
        unit("A", type="infantry", position=(10, 10), diameter=1.0, move=6),
        unit("B", type="infantry", position=(11.005, 10), diameter=1.0, move=6),
        unit("C", type="tracked", position=(10, 11.005), diameter=1.0, move=move_c),
    ]


def test_a_formation_shades_where_its_unit_ends_the_slowest_speed_away() -> None:
    # 000 [29], AOD-D25: every member at the slowest member's move; one order for all.
    state = scene(trio())
    found = reach(state, "A", "formation_move")
    assert found.complete and found.allowance == 4
    assert found.contains((13.9, 10)) and not found.contains((14.2, 10))
    moves = found.keys_at((13, 10))["moves"]
    assert {m.unit for m in moves} == {"A", "B", "C"}
    assert moves[0].unit == "B"  # front first along the move (AOD-D43)
    assert judged_ends(state) == 40


def test_a_formation_keeps_every_member_off_terrain_and_other_bases() -> None:
    # 000 [33] blocking, 000 [32] hindering stop, AOD-D8 bases, for each member's base.
    state = scene(
        [*trio(move_c=8), unit("E", side="P2", position=(16, 12), diameter=1.5)],
        [square("B1", "blocking", 13, 6, 14, 10.6), square("H1", "hindering", 6, 13, 9, 16)],
    )
    found = reach(state, "A", "formation_move")
    assert not found.complete and 0 < found.horizon < 8  # cut short where it meets them
    assert not found.contains((15, 10))  # B would cross the wall
    assert judged_ends(state) == 40


def test_a_formation_the_engine_cannot_pick_or_move_stays_unshaded() -> None:
    # A group of six (the board's selection decides), or a rect member: not shaded.
    six = [
        unit(f"U{i}", type="infantry", position=(10 + 1.005 * i, 10), diameter=1.0)
        for i in range(6)
    ]
    assert not reach(scene(six), "U0", "formation_move").complete
    rect = [*trio()[:2], rect_unit("C", 1, 1.5, type="tracked", position=(10, 11.255))]
    found = reach(scene(rect), "A", "formation_move")
    assert found.area.is_empty and found.horizon == 0


def test_a_unit_with_no_mates_shades_nothing() -> None:
    # 000 [29]: 3 to 5 members; a lone unit is refused whatever the path.
    state = scene([unit("A", type="infantry", position=(10, 10), diameter=1.0)])
    assert reach(state, "A", "formation_move").area.is_empty
