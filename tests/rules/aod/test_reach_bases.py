"""aod reach beside other bases: a rect base whose corners pass near a base next to its
start (aod.md 5.1, AOD-D8: no unit passes through another's base, friendly or opposing;
only a 'Mech crosses infantry, 000 [17])."""

from __future__ import annotations

from typing import Any

from shapely.geometry import Point

from rules import GameState, reach, validate
from rules.engine.reach import Reach
from tests.rules.reach_sampling import judged_ends as sample_ends
from tests.rules.scenes import rect_unit, scene, square, unit


def legal_ends(state: GameState, uid: str = "U", count: int = 40) -> int:
    return len(sample_ends(state, uid, count=count, seed=5))


def assert_reached_legally(found: Reach, state: GameState, q: tuple[float, float]) -> None:
    """Reach's path to `q` is one the referee accepts (a breakaway rolled 6)."""
    path = found.path_to(q)
    assert path is not None, q
    steps = [s if isinstance(s, dict) else list(s) for s in path[1:]]
    verdict = validate(state, {"unit": "U", "type": "move", "path": steps}, dice=[6])
    assert verdict.legal, (q, path, [r.message for r in verdict.reasons])


def rect_beside_a_friend(**more: Any) -> GameState:
    """A 1" x 2" 'Mech facing along x, 0.375" above a friendly 'Mech's circle base, both
    touching a hindering square (half speed, 000 [32]): the circle round the rect reaches
    over the friend's base, the rect itself does not. Found by test_properties.py's
    reach-soundness property once the file was reformatted."""
    hindering = [[60.0, 60.0], [61.0, 60.0], [61.0, 61.0], [60.0, 61.0]]
    return scene(
        [
            rect_unit("U", 1.0, 2.0, position=(60.0, 61.5), facing=0.0, move=10, **more),
            unit("O0", position=(60.0, 60.0), diameter=1.25, move=6),
        ],
        [{"id": t, "type": "hindering", "polygon": hindering} for t in ("T0", "T1")],
        width=120,
        height=120,
    )


def test_a_rect_base_goes_round_a_friendly_base_next_to_its_start() -> None:
    # AOD-D8 (aod.md 5.1): the swept base may not overlap O0's. West first, then down to
    # q, is legal (3.61" of the 5" a start in hindering leaves), so q is reachable and
    # the path reach gives must be one the referee accepts.
    state = rect_beside_a_friend()
    q = (57.50273214741214, 59.63522332342674)
    direct = validate(state, {"unit": "U", "type": "move", "path": [[58.5, 61.5], list(q)]})
    assert direct.legal
    found = reach(state, "U")
    assert found.contains(q)
    assert_reached_legally(found, state, q)


def test_every_end_shaded_for_a_rect_base_beside_a_friend_is_legal() -> None:
    # AOD-D8: every shaded end's path keeps the rect itself off O0's base.
    assert legal_ends(rect_beside_a_friend()) == 40


def sound_ends(state: GameState, near: tuple[float, float], count: int = 30) -> int:
    """Points of the reach within 3" of `near`, on a grid, each judged with reach's path
    (a breakaway rolled 6). How many there were."""
    found = reach(state, "U")
    zone = found.area.intersection(Point(near).buffer(3))
    x0, y0, x1, y1 = zone.bounds
    judged = 0
    for i in range(count):
        for k in range(count):
            q = (x0 + (x1 - x0) * i / (count - 1), y0 + (y1 - y0) * k / (count - 1))
            if not zone.contains(Point(q)):
                continue
            assert_reached_legally(found, state, q)
            judged += 1
    return judged


def test_a_rect_base_leaving_a_foe_it_touches_does_not_touch_it_again() -> None:
    # AOD-D6 (aod.md 5.3): a foe touched at the start may be left (breakaway, 000 [16])
    # but touching it again ends the move. Going round the foe's base, the path keeps in
    # contact (the corners of the polygon round its arc within 0.01") or away from it: the
    # polygon's corners 0.011" out once made it separate and touch again (a random scene).
    state = scene(
        [
            rect_unit("U", 1.856, 1.267, type="hover", position=(60, 60), facing=86.0723420042),
            unit("E", "P2", "infantry", position=(59.0183207229, 61.6514381597), diameter=1.922),
        ],
        width=120,
        height=120,
    )
    assert_reached_legally(reach(state, "U"), state, (59.9489626796336, 66.7190284921539))
    assert sound_ends(state, (59.0, 64.0)) > 20


def test_a_rect_base_turning_into_hindering_terrain_shades_nothing_beyond() -> None:
    # 000 [32], AOD-D3: the turn sweeps the rect's corner onto the hindering square, first
    # contact from clear, so the unit stops there (the turn is swept, AOD-D17): no move
    # after that turn is legal, and reach shades none.
    state = scene(
        [rect_unit("U", 1.6, 2.5, position=(10, 10), facing=0)],
        [square("H", "hindering", 11, 11, 12, 12)],
    )
    after_turn = validate(state, {"unit": "U", "type": "move", "path": [{"turn": 90}, [10, 7]]})
    assert after_turn.codes == ["must_stop_hindering"]
    assert not reach(state, "U").contains((10, 7))


def test_a_rect_base_leaving_a_foe_round_a_corner_beside_it_does_not_touch_it_again() -> None:
    # AOD-D6: the blocking square's corner (000 [33]) beside the foe it touches bent the
    # path away from the foe and back into contact with it. Beyond 0.1" of its start the
    # rect keeps more than 0.01" from the foe (a random scene).
    state = scene(
        [
            rect_unit("U", 1.744, 2.657, type="tracked", position=(60, 60), facing=193.3700106),
            unit("E", "P2", "infantry", position=(62.4191388929, 59.5164841831), diameter=1.849),
            unit("F", "P1", "tracked", position=(61.7599891057, 62.0394142077), diameter=1.373),
        ],
        [square("B", "blocking", 62.1721012536, 59.4141531902, 63.6773299732, 61.0697691425)],
        width=120,
        height=120,
    )
    assert_reached_legally(reach(state, "U"), state, (62.289576065208884, 56.60997956031953))
    assert sound_ends(state, (61.5, 57.5)) > 20


def test_a_circle_base_beside_a_rect_foe_goes_round_it_without_touching_it() -> None:
    # AOD-D6: a rect foe the unit touches where it starts may be left, not touched again.
    # It was kept from it by a round buffer, as near as it starts: going round the foe's
    # corner the path left it and touched it again (a random scene).
    state = scene(
        [
            unit("U", type="wheeled", move=6, position=(60, 60), diameter=1.159),
            rect_unit(
                "E",
                0.594,
                2.319,
                side="P2",
                type="tracked",
                position=(61.3707074047, 58.9274831525),
                facing=164.3130689406,
            ),
            rect_unit(
                "F",
                1.864,
                1.072,
                side="P2",
                type="infantry",
                position=(60.2896250385, 61.7094414645),
                facing=114.4281473169,
            ),
            rect_unit("G", 0.844, 2.735, position=(58.1950386939, 59.1926395319), facing=0.2501629),
        ],
        [square("H", "hindering", 59.6816969892, 58.186153513, 61.7905109464, 59.1161640979)],
        width=120,
        height=120,
    )
    assert_reached_legally(reach(state, "U"), state, (63.37474675619238, 57.69073822568637))
