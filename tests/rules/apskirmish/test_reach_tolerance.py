"""apskirmish reach to the engine's tolerance (issue 20: reach is where one action can
end, sound, and complete within 0.1"): a base fits a gap its own width, passes an enemy
base tangent, runs its front along an obstacle's face (004 Size Restrictions, 004 Base
Blocking, 004 Obstacles, APS-D18, APS-D32), and a round base may end further turned to
face back, the front measured with its final facing (004 Standard Movement, APS-D4,
APS-D15). Points drawn from each area are judged along the path reach gives."""

from __future__ import annotations

import random

from shapely.geometry import Point

from rules import GameState, reach
from rules.engine.dice import make_dice
from rules.model.actions import Action
from rules.referee.alternative import path_steps
from rules.systems.registry import get_system
from tests.rules.apskirmish.build import area, board, soldier


def judged_points(
    state: GameState, zone: object, action_type: str = "move", count: int = 40
) -> int:
    """Points of the reach in `zone` (and on its edge there), each legal along path_to."""
    found = reach(state, "S1", action_type)
    part = found.area.intersection(zone)
    assert not part.is_empty
    rng = random.Random(4)
    polys = list(getattr(part, "geoms", [part]))
    engine = get_system("apskirmish")
    judged = 0
    for _ in range(count):
        poly = rng.choice(polys)
        if rng.random() < 0.5:
            q = poly.exterior.interpolate(rng.random(), normalized=True)
            p = (q.x, q.y)
        else:
            x0, y0, x1, y1 = poly.bounds
            p = (rng.uniform(x0, x1), rng.uniform(y0, y1))
            if not poly.covers(Point(p)):
                continue
        path = found.path_to(p)
        assert path is not None, p
        verdict = engine.validate(
            state, Action("S1", action_type, path_steps(path)), make_dice(unresolved=True)
        )
        assert verdict.legal, (p, path, [r.message for r in verdict.reasons])
        judged += 1
    return judged


def test_a_base_fits_a_gap_its_own_width() -> None:
    # 004 Size Restrictions, APS-D19: overlap is deeper than 0.01", so it fits.
    walls = [area("O1", "obstacle", 11, 10.5, 12, 14), area("O2", "obstacle", 11, 6, 12, 9.5)]
    state = board([soldier(ap=3)], walls)
    found = reach(state, "S1")
    assert found.area.distance(Point(13, 10)) < 0.01
    assert judged_points(state, Point(12.8, 10).buffer(0.3)) > 10


def test_a_base_passes_an_enemy_base_tangent_and_its_front_runs_along_a_face() -> None:
    # 004 Base Blocking; 004 Obstacles, APS-D32: grazing is not crossing.
    state = board([soldier(ap=3), soldier("E1", (12, 11), side="P2")])
    assert reach(state, "S1").area.distance(Point(13, 10)) < 0.01
    face = board(
        [soldier(ap=3, position=(10, 9.5), facing=90)], [area("O1", "obstacle", 11, 10, 12, 12)]
    )
    assert reach(face, "S1").area.distance(Point(13, 9.5)) < 0.01
    assert judged_points(face, Point(12, 9.5).buffer(0.6)) > 10


def test_a_round_base_ends_further_turned_to_face_back_and_only_so() -> None:
    # APS-D4, APS-D15: prone, 1" front to front; 2" of centre turned about measures 1".
    state = board([soldier(ap=3, stance="prone")])
    found = reach(state, "S1")
    assert found.contains((11.99, 10))
    path = found.path_to((11.99, 10))
    assert path is not None and path[-1] == {"turn": 180.0}
    assert not found.contains((12.1, 10))
    assert not found.contains((10, 12.1))
    assert judged_points(state, Point(10, 10).buffer(3)) > 20


def test_a_run_still_keeps_clear_of_what_it_may_not_cross() -> None:
    # 004 Running: no Traverse in a run; an obstacle in the way is gone round or not at all.
    state = board([soldier(ap=3)], [area("O1", "obstacle", 12, 5, 12.5, 15)])
    found = reach(state, "S1", "run")
    assert not found.contains((14, 10))
    assert judged_points(state, Point(10, 10).buffer(9), "run") > 20


def test_a_traverse_shades_where_it_lands_beyond_and_where_a_failure_stops_it() -> None:
    # 004 Obstacles, APS-D7, APS-D20, APS-D21: along the ray through its one point, a
    # success lands touching the far face (t2), a failure stops at the near side (t1).
    state = board([soldier(ap=3)], [area("O1", "obstacle", 11, 6, 11.5, 14)])
    found = reach(state, "S1", "traverse")
    assert found.area.distance(Point(12, 10)) < 0.002  # t2 straight across
    assert found.area.distance(Point(10.5, 10)) < 0.002  # t1, the near side
    assert not found.contains((13, 10))
    engine = get_system("apskirmish")
    polys = list(getattr(found.area, "geoms", [found.area]))
    rng = random.Random(6)
    for _ in range(30):
        poly = rng.choice(polys)
        q = poly.representative_point()
        p = (q.x, q.y)
        path = found.path_to(p)
        assert path is not None, p
        verdict = engine.validate(
            state, Action("S1", "traverse", path_steps(path)), make_dice(unresolved=True)
        )
        assert verdict.legal, (p, [r.message for r in verdict.reasons])
    far = board([soldier(ap=3)], [area("O1", "obstacle", 12, 6, 12.5, 14)])
    assert reach(far, "S1", "traverse").area.is_empty  # 1.5" away: beyond 1" (APS-D6)
