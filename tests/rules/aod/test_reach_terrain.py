"""aod reach over elevated and hindering terrain (aod.md 6.2, 6.4, 6.5; issue 20: reach is
where one order can end, sound and complete within 0.1"). Every point drawn from an area
is judged by validate along the path reach gives, and must end where it was drawn."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any

from shapely.geometry import Point, box

from rules import GameState, reach, validate
from rules.engine.dice import make_dice
from rules.model.actions import Action, Waypoint
from rules.referee.alternative import nearest_alternative, path_steps
from rules.systems.aod import reach as aod_reach
from rules.systems.aod.position import aod_position
from rules.systems.aod.reach_elevated import target_depth
from rules.systems.aod.units import matrix_row
from tests.rules.reach_sampling import judged_ends as sample_ends
from tests.rules.scenes import rect_unit, scene, square, unit

HILL = square("E1", "elevated", 12, 4, 20, 16)
HILL_SHAPE = box(12, 4, 20, 16)


def legal_ends(state: GameState, zone: Any, count: int = 30, seed: int = 1) -> int:
    """Points of the reach inside `zone`, each judged along reach's path: legal, and the
    unit ends within 0.01" of the point (where the engine puts it, AOD-D9)."""
    return len(sample_ends(state, "M1", count=count, seed=seed, zone=zone, ends_where_drawn=True))


def test_a_unit_entering_elevated_terrain_ends_where_the_engine_repositions_it() -> None:
    # 000 [33], AOD-D9: it stops upon occupying and is put entirely on, for free.
    state = scene([unit("M1", position=(8, 10), diameter=2.0, move=8)], [HILL])
    found = reach(state, "M1")
    depth = target_depth(1.0)
    assert found.area.distance(Point(12 + depth, 10)) < 0.01
    assert not found.area.contains(Point(14, 10))  # past the stop: must_stop_hindering
    assert legal_ends(state, HILL_SHAPE.difference(HILL_SHAPE.buffer(-1.5))) == 30


def test_a_unit_on_elevated_terrain_moves_within_it_and_ends_off_it_repositioned() -> None:
    # 000 [33-34]: free within it; leaving it stops, the base put entirely off.
    state = scene([unit("M1", position=(14, 10), diameter=2.0, move=8)], [HILL])
    found = reach(state, "M1")
    assert found.contains((18, 14))  # 8" within the hill
    assert found.area.distance(Point(12 - target_depth(1.0), 10)) < 0.01
    assert not found.area.contains(Point(10, 10))
    assert legal_ends(state, HILL_SHAPE.buffer(1.5).difference(HILL_SHAPE)) == 30


def test_abrupt_elevated_terrain_is_entered_only_through_its_access_without_jump_jets() -> None:
    # 000 [34], AOD-D34: the crossing must lie on an access segment.
    cliff = square("A1", "abrupt_elevated", 12, 4, 20, 16, access=[[[12, 9], [12, 11]]])
    state = scene([unit("M1", position=(8, 10), diameter=2.0, move=8)], [cliff])
    found = reach(state, "M1")
    inside = found.area.intersection(HILL_SHAPE)
    assert not inside.is_empty
    assert inside.bounds[1] >= 9 - 1e-9 and inside.bounds[3] <= 11 + 1e-9
    jumper = scene([unit("M1", position=(8, 10), diameter=2.0, move=8, jump_jets=True)], [cliff])
    assert reach(jumper, "M1").area.intersection(HILL_SHAPE).bounds[3] > 12
    assert legal_ends(state, HILL_SHAPE, count=10) == 10


def test_an_abrupt_edge_crossed_within_the_referees_figure_of_an_access_is_shaded() -> None:
    # 000 [34], AOD-D34: the crossing within 0.01" of an access segment (aod.md 6.5). The
    # edge crossed 0.006" past the segment's end: the referee accepts it, and reach
    # shades it (it once kept within 0.005", a figure of its own).
    cliff = square("A1", "abrupt_elevated", 12, 4, 20, 16, access=[[[12, 9], [12, 11.014]]])
    state = scene([unit("M1", position=(8, 10), diameter=2.0, move=8)], [cliff])
    found = reach(state, "M1")
    assert found.contains((12.99, 11.019))
    path = found.path_to((12.99, 11.019))
    assert path is not None and path[-2][1] == 11.019  # crosses at (12, 11.019)
    steps = [list(q) for q in path[1:]]
    assert validate(state, {"unit": "M1", "type": "move", "path": steps}).legal


def test_hindering_terrain_joined_to_the_one_it_starts_in_does_not_stop_it() -> None:
    # 000 [32], AOD-D4: never clear, so never entering from clear.
    woods = [square("H1", "hindering", 8, 6, 12, 14), square("H2", "hindering", 12, 6, 16, 14)]
    state = scene([unit("M1", position=(10, 10), diameter=2.0, move=8)], woods)
    found = reach(state, "M1")
    assert found.contains((13.9, 10)) and found.horizon == 4  # half speed
    assert legal_ends(state, Point(13.5, 10).buffer(1.5)) == 30


#: A wood with a notch from the north: its two arms face each other across clear ground.
U_WOOD = {
    "id": "H1",
    "type": "hindering",
    "polygon": [[8, 6], [20, 6], [20, 14], [17, 14], [17, 9], [11, 9], [11, 14], [8, 14]],
}


def test_a_unit_that_leaves_the_wood_it_starts_in_is_not_shaded_back_into_it() -> None:
    # 000 [32], AOD-D4: a unit that leaves hindering terrain and meets it again moves
    # from clear, so it must stop there: across the notch into the other arm is refused,
    # and reach (which once took the wood it starts in for open ground) does not shade
    # it. Within the wood, round the notch, it goes on (never clear).
    state = scene([unit("M1", position=(9.5, 12), diameter=1.0, move=16)], [U_WOOD])
    across = validate(state, {"unit": "M1", "type": "move", "path": [[17.4, 12]]})
    assert "must_stop_hindering" in across.codes
    found = reach(state, "M1")
    assert not found.contains((17.4, 12))
    assert found.contains((14, 7.5)) and found.contains((14, 12)) and found.contains((5, 12))
    assert legal_ends(state, box(0, 0, 36, 36), count=60) == 60


def test_with_centre_entry_a_unit_in_hindering_terrain_may_leave_it() -> None:
    # AOD-D3 option "centre", AOD-D4: the centre leaving the wood is clear once more than
    # 0.001" out (AOD-D18), and enters only on reaching it again (section 4), so the
    # point where it becomes clear is no entry (the referee once refused every move
    # out of a wood this way).
    woods = [square("H1", "hindering", 10, 8, 14, 12)]
    state = scene(
        [unit("M1", position=(12, 10), diameter=1.25, move=10)],
        woods,
        options={"hindering_entry": "centre"},
    )
    for end in ([12, 14], [16.9, 10]):
        verdict = validate(state, {"unit": "M1", "type": "move", "path": [end]})
        assert verdict.legal, [r.message for r in verdict.reasons]
    found = reach(state, "M1")
    assert found.contains((12, 14)) and found.contains((16.9, 10))
    assert legal_ends(state, box(0, 0, 36, 36), count=60) == 60


def test_a_rect_that_turns_clear_of_the_wood_it_touches_and_back_is_not_shaded_on() -> None:
    # 000 [32], AOD-D4, AOD-D17: a rect touching a wood, turned a quarter in place, swings
    # clear of it and touches it again: it enters it from clear at its start and must
    # stop there, so no move may follow the turn.
    wood = square("H0", "hindering", 10.6996531222091, 12.522289975224975, 13.8339722, 17.8637)
    rect = rect_unit(
        "M1", 1.0, 2.0, move=12, position=(9.899653122209099, 15.29045311543816), facing=33
    )
    state = scene([rect], [wood], width=30, height=30)
    turned = validate(state, {"unit": "M1", "type": "move", "path": [{"turn": 90}, [9.7, 15.2]]})
    assert "must_stop_hindering" in turned.codes
    # Reach's ends after that turn (a reach-vs-referee fuzz once found one shaded): none.
    position = aod_position(state)
    m1 = state.units_by_id["M1"]
    ground = aod_reach._terrain(position, m1, (matrix_row(m1),), 6.0)
    assert aod_reach._stopped_by_turning(position, m1, replace(m1, facing=123), ground)
    assert legal_ends(state, box(0, 0, 30, 30), count=60) == 60


def test_with_centre_entry_the_base_may_overlap_hindering_terrain_before_its_centre_stops() -> None:
    # AOD-D3 option hindering_entry "centre": entering is the centre reaching it.
    woods = [square("H1", "hindering", 9, 6, 13, 14)]
    state = scene(
        [unit("M1", position=(5, 10), diameter=2.0, move=9)],
        woods,
        options={"hindering_entry": "centre"},
    )
    found = reach(state, "M1")
    assert found.area.distance(Point(9, 10)) < 0.05
    assert not found.area.contains(Point(10, 10))
    assert legal_ends(state, Point(8.5, 10).buffer(1.0)) == 30


def contact_ends_are_legal(state: GameState, action_type: str, count: int = 24) -> set[str]:
    """Points drawn on the contact bands of a close combat order's reach, each judged with
    the path and the target reach gives: legal, ending where drawn. The targets met."""
    found = reach(state, "M1", action_type)
    polys = list(getattr(found.area, "geoms", [found.area]))
    assert polys and not found.area.is_empty
    rng = random.Random(3)
    met = set()
    for _ in range(count):
        inner = rng.choice(polys).buffer(-0.0015)
        ring = max(getattr(inner, "geoms", [inner]), key=lambda g: g.area).exterior
        q = ring.interpolate(rng.random(), normalized=True)
        p = (q.x, q.y)
        path, keys = found.path_to(p), found.keys_at(p)
        assert path is not None and "target" in keys, p
        verdict = validate(
            state,
            Action("M1", action_type, path_steps(path), params=keys),
            make_dice(unresolved=True),
        )
        assert verdict.legal, (p, keys, [r.message for r in verdict.reasons])
        after = verdict.state_after.unit("M1")
        assert Point(after.position[:2]).distance(Point(p)) <= 0.01
        met.add(keys["target"])
    return met


def test_a_charge_shades_base_contact_with_each_target_it_can_reach_and_names_it() -> None:
    # 001 [27-28], AOD-D31: a charge runs into base contact with its target; the end
    # names the target it touches (Reach.keys_at).
    state = scene(
        [
            unit("M1", position=(10, 10), diameter=2.0, move=6, run_move=9),
            unit("E1", side="P2", position=(16, 10), diameter=2.0),
            unit("E2", side="P2", position=(10, 16), diameter=2.0),
            unit("E3", side="P2", position=(30, 30), diameter=2.0),
        ]
    )
    found = reach(state, "M1", "charge")
    assert found.complete
    assert found.area.distance(Point(13.995, 10)) < 0.005  # touching E1
    assert found.keys_at((13.995, 10)) == {"target": "E1"}
    assert not found.contains((12, 10))  # not in contact: must_end_in_contact
    assert found.area.distance(Point(30, 30)) > 5  # E3 is beyond the run
    assert contact_ends_are_legal(state, "charge") == {"E1", "E2"}


def test_a_ram_does_not_shade_infantry_and_goes_round_other_bases() -> None:
    # 001 [27]: a ram targets a non-infantry unit; AOD-D8: no passing through bases.
    state = scene(
        [
            unit("M1", type="tracked", position=(10, 10), diameter=2.0, move=10),
            unit("E1", side="P2", type="tracked", position=(18, 10), diameter=2.0),
            unit("F1", position=(14, 10), diameter=2.0),
            unit("I1", side="P2", type="infantry", position=(10, 16), diameter=1.0),
        ]
    )
    found = reach(state, "M1", "ram")
    assert found.area.distance(Point(10, 16)) > 1  # infantry: not a ram's target
    assert not found.area.intersection(Point(18, 10).buffer(2.1)).is_empty
    assert contact_ends_are_legal(state, "ram") == {"E1"}


def test_a_unit_that_may_not_be_given_the_order_shades_nothing() -> None:
    # 001 [27]: only 'Mechs assault; a charge is not from base contact at turn start.
    tank = scene(
        [
            unit("M1", type="tracked", position=(10, 10), diameter=2.0),
            unit("E1", side="P2", position=(14, 10), diameter=2.0),
        ]
    )
    assert reach(tank, "M1", "assault_full").area.is_empty
    engaged = scene(
        [
            unit("M1", position=(10, 10), diameter=2.0, run_move=9),
            unit("E1", side="P2", position=(12, 10), diameter=2.0),
            unit("E2", side="P2", position=(10, 16), diameter=2.0),
        ]
    )
    assert reach(engaged, "M1", "charge").area.is_empty


def test_a_charge_that_stops_short_is_offered_the_nearest_end_in_contact() -> None:
    # issue 20, ui.md "Moving a piece" 4: the nearest legal alternative of a refused
    # charge (must_end_in_contact, AOD-D31) ends in base contact with its target.
    state = scene(
        [
            unit("M1", position=(10, 10), diameter=2.0, move=6, run_move=9),
            unit("E1", side="P2", position=(16, 10), diameter=2.0),
        ]
    )
    short = Action("M1", "charge", (Waypoint(12.5, 10.5),), params={"target": "E1"})
    assert not validate(state, short, make_dice(unresolved=True)).legal
    offer = nearest_alternative(state, short)
    assert offer is not None and offer.verdict.legal
    assert offer.action.params["target"] == "E1"
    assert abs(math.dist(offer.end, (16, 10)) - 2.005) < 0.004


def test_a_move_past_the_edge_of_a_hill_is_offered_the_repositioned_end() -> None:
    # 000 [33], AOD-D9: a move that goes on past its stop on the hill is refused; the
    # nearest legal end is on the hill, where the engine puts the unit.
    state = scene([unit("M1", position=(8, 10), diameter=2.0, move=8)], [HILL])
    on = Action("M1", "move", (Waypoint(15, 10),))
    assert not validate(state, on, make_dice(unresolved=True)).legal
    offer = nearest_alternative(state, on)
    assert offer is not None and offer.verdict.legal
    assert abs(offer.end[0] - (12 + target_depth(1.0))) < 0.01


def test_a_captor_shades_its_move_at_the_slower_speed_carrying_its_captive() -> None:
    # 001 [27], AOD-D33: a captor moves at min(captor, captive) and carries the captive
    # rigidly; neither base may go where either may not.
    state = scene(
        [
            unit("M1", type="infantry", position=(10, 10), diameter=1.0, move=6),
            unit(
                "C1",
                side="P2",
                type="infantry",
                position=(11, 10),
                diameter=1.0,
                move=3,
                captive_of="M1",
            ),
            unit("F1", position=(10, 13), diameter=1.0),
        ],
        [square("B1", "blocking", 13, 6, 14, 9)],
    )
    found = reach(state, "M1")
    assert found.complete and found.allowance == 3
    assert found.contains((7.5, 10)) and not found.contains((6.5, 10))
    assert legal_ends(state, Point(10, 10).buffer(3)) == 30
    mech = scene(
        [
            unit("M1", type="infantry", position=(10, 10), diameter=1.0, move=6),
            unit("C1", side="P2", position=(11, 10), diameter=1.0, captive_of="M1"),
        ]
    )
    # a captive 'Mech stays: the captor ends touching it (tests/rules/aod/test_reach_captor)
    assert reach(mech, "M1").area.distance(Point(10, 10)) < 0.01


def test_a_vtol_at_noe_shades_the_ends_of_a_climb_over_what_it_could_not_cross() -> None:
    # 000 [17-18], AOD-D26: climbing to cruising costs 2" at the start of the path; at
    # cruising it ignores terrain and bases, and may not end on a base. The end names it.
    wall = square("B1", "blocking", 9, 6, 11, 14)
    state = scene(
        [unit("V1", type="vtol", position=(5, 10), diameter=2.0, move=12, altitude="noe")], [wall]
    )
    found = reach(state, "V1")
    assert found.contains((14.9, 10))
    assert found.keys_at((14.9, 10)) == {"altitude": "cruising"}
    assert found.keys_at((5, 12)) == {}  # within its NOE reach: no climb
    assert not found.contains((15.1, 10))
    path = found.path_to((14.9, 10))
    assert path is not None
    verdict = validate(
        state,
        Action("V1", "move", path_steps(path), params=found.keys_at((14.9, 10))),
        make_dice(unresolved=True),
    )
    assert verdict.legal and abs(verdict.cost - 11.9) < 1e-9  # 2" climb + 9.9" flown


def test_a_rect_base_turned_a_quarter_first_passes_where_its_side_does_not() -> None:
    # AOD-D21: facing is free; 000 [33]: its swept base (the turn included, AOD-D17) may
    # not overlap blocking terrain. The path reach gives starts with the turn.
    state = scene(
        [rect_unit("M1", 1, 3, type="tracked", position=(10, 10), move=6)],
        [square("B1", "blocking", 10.8, 12, 13, 13)],
    )
    found = reach(state, "M1")
    assert found.contains((10, 14))
    path = found.path_to((10, 14))
    assert path is not None and path[1] == {"turn": 90.0}
    assert legal_ends(state, Point(10, 14).buffer(0.5), count=20) == 20
