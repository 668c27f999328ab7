"""Reach for M.S. Wars (issue 20: every legal end lies in its reach, every shaded point is a
legal end along the path the engine gives)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from shapely.geometry import Point

from rules import reach, state_from_json, validate
from tests.rules.cli_run import rules_cli

#: Scenes a seeded random search found, each kept for the test that names it.
FOUND = Path(__file__).parent / "scenes_found"


def scene(
    units: list[dict[str, Any]],
    terrain: list[dict[str, Any]] | None = None,
    state: dict[str, Any] | None = None,
) -> Any:
    return state_from_json(
        {
            "system": "mswars",
            "table": {"width": 48, "height": 48},
            "terrain": terrain or [],
            "units": units,
            "state": state or {},
        }
    )


def walker(
    uid: str = "U",
    position: Any = (10, 10),
    facing: float = 0,
    move: float = 12,
    side: str = "P1",
    diameter: float = 2,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "id": uid,
        "side": side,
        "type": "walker",
        "move": move,
        "base": {"shape": "circle", "diameter": diameter},
        "position": list(position),
        "facing": facing,
        **extra,
    }


def legal_along(
    state: Any, unit: str, end: tuple[float, float], action_type: str = "standard_move", **keys: Any
) -> bool:
    found = reach(state, unit, action_type)
    path = found.path_to(end)
    steps = [dict(s) if isinstance(s, dict) else list(s) for s in (path or [])[1:]]
    return (
        path is not None
        and validate(state, {"unit": unit, "type": action_type, "path": steps, **keys}).legal
    )


def test_a_low_feature_under_the_quarter_rule_is_crossed_as_very_difficult() -> None:
    # 002 Terrain, MSW-D16: an SC 1 feature (2.5" high) is Very Difficult for an SC 8
    # walker, not a barrier: 2" flat + 2" x 4 + 2" flat = 12 of 12, and the flat ground
    # beyond it costs 1 an inch again.
    low = {
        "id": "B1",
        "type": "elevated",
        "height": 2.5,
        "polygon": [[12, 5], [14, 5], [14, 15], [12, 15]],
    }
    state = scene([walker(size_class=8)], [low])
    found = reach(state, "U")
    assert found.complete
    assert found.contains((15.7, 10)) and not found.contains((16.1, 10))
    assert legal_along(state, "U", (15.7, 10))


def band_points(found: Any, n: int = 40) -> list[tuple[float, float]]:
    """Points spread over an area's pieces (thin bands: their representative points and
    points along their boundaries pulled to the nearest point of the piece)."""
    from shapely.ops import nearest_points

    out = []
    for g in getattr(found.area, "geoms", [found.area]):
        out.append(g.representative_point().coords[0])
        ring = g.exterior
        for k in range(n):
            q = ring.interpolate(k / n, normalized=True)
            inner = (
                nearest_points(g.buffer(-0.001), Point(q))[0]
                if not g.buffer(-0.001).is_empty
                else q
            )
            out.append((round(inner.x, 3), round(inner.y, 3)))
    return out


def test_a_charge_reaches_only_base_contact_with_an_opposing_unit_beyond_move() -> None:
    # 002 Charge Move Action, MSW-D12: like a Run (more than Move, at most twice Move),
    # ending in base contact with the target. Two opposing units: each end names the one
    # it touches; every end is legal along the engine's path (a turn first, MSW-D5).
    state = scene(
        [
            walker(move=6, position=(10, 24)),
            walker("E1", position=(20, 24), side="P2"),
            walker("E2", position=(14, 34), side="P2"),
            walker("F1", position=(14, 18)),
        ]
    )
    found = reach(state, "U", "charge")
    assert found.complete and not found.area.is_empty
    # Contact with E1 straight ahead: 8" (> 6, <= 12).
    assert found.keys_at((18.0, 24.0)) == {"target": "E1"}
    assert found.keys_at((14.0, 32.0)) == {"target": "E2"}
    assert not found.contains((15, 24))  # not in contact
    checked = 0
    for p in band_points(found):
        path = found.path_to(p)
        if path is None:
            continue
        steps = [dict(s) if isinstance(s, dict) else list(s) for s in path[1:]]
        verdict = validate(
            state, {"unit": "U", "type": "charge", "path": steps, **found.keys_at(p)}
        )
        assert verdict.legal, (p, steps, [r.message for r in verdict.reasons])
        checked += 1
    assert checked > 20


def test_a_charge_does_not_shade_contact_behind_its_target_or_too_near() -> None:
    # 002 Rules: Movement: the base may not pass through the target on the way; a charge
    # must cost more than Move (MSW-D12): contact 3" away is not a charge.
    state = scene([walker(move=6, position=(10, 24)), walker("E1", position=(15, 24), side="P2")])
    found = reach(state, "U", "charge")
    assert not found.contains((17.0, 24.0))  # the far side: through E1
    assert not found.contains((13.0, 24.0))  # 3" ahead: not more than Move
    # The near side of E1 lies within 4.6" of the start (not more than Move) and the far
    # side behind it: one turn and one straight line reach no charge's end here.
    assert found.area.is_empty


def test_a_manoeuvre_touching_no_opposing_unit_reaches_half_move() -> None:
    # 002 Manoeuvre Action, MSW-D47: with no opposing unit in contact the end-in-contact
    # condition is empty; half Move (MSW-D21), the free turn first.
    state = scene([walker(move=8, position=(10, 24), skills=["combat_manoeuvres"])])
    found = reach(state, "U", "manoeuvre")
    assert found.complete
    assert found.contains((13.9, 24)) and not found.contains((14.1, 24))
    assert legal_along(state, "U", (10, 27.9), "manoeuvre")


def test_a_pilot_without_combat_manoeuvres_is_shaded_no_manoeuvre() -> None:
    # 002 Manoeuvre Action: only a pilot with the Combat Manoeuvres skill; the referee
    # refuses any other's, so the board shades none of the ground it would have reached.
    state = scene([walker(move=8, position=(10, 24))])
    found = reach(state, "U", "manoeuvre")
    assert not found.contains((12, 24)) and not legal_along(state, "U", (12, 24), "manoeuvre")


def test_enter_unit_has_no_area_it_ends_aboard() -> None:
    # 002 Enter Unit: the unit ends aboard its carrier, off the table.
    state = scene([walker(), walker("C", position=(12, 10), carrier=2)])
    assert reach(state, "U", "enter_unit").area is None


BUILDING = {
    "id": "B1",
    "type": "elevated",
    "height": 4,
    "polygon": [[5, 5], [15, 5], [15, 15], [5, 15]],
}


def test_a_jump_lands_with_the_base_wholly_off_the_top_in_one_straight_line() -> None:
    # 002 Jump Action, MSW-D13: off the edge in one straight line (a turn first, on top),
    # landing with the base wholly off; MP as usual (Move 8: 2" of top + 6" of ground).
    state = scene([walker(move=8, position=(13, 10), size_class=2)], [BUILDING])
    found = reach(state, "U", "jump")
    assert found.complete
    assert found.contains((20.9, 10)) and not found.contains((21.1, 10))
    assert not found.contains((15.5, 10))  # the base still over the edge
    assert not found.contains((10, 10))  # on the top: not a jump
    for end in [(17, 10), (20.9, 10), (14, 16.5), (16.2, 12.5)]:
        assert found.contains(end), end
        assert legal_along(state, "U", end, "jump"), end


def test_a_jump_from_too_high_is_shaded_it_is_a_fall_not_a_refusal() -> None:
    # MSW-D29: a jump from a feature above the limit is resolved as a Fall (legal).
    state = scene([walker(move=8, position=(13, 10), size_class=0)], [BUILDING])
    found = reach(state, "U", "jump")
    assert found.contains((17, 10)) and legal_along(state, "U", (17, 10), "jump")


def test_a_climb_shades_the_one_pose_on_top_the_engine_places_it_at() -> None:
    # 002 Climb Action, MSW-D23: in contact, facing the feature; placed inward across the
    # contacted edge; a one-point path must match the placement within 0.01".
    state = scene([walker(position=(4, 10), facing=0, free_hands=True, size_class=2)], [BUILDING])
    found = reach(state, "U", "climb")
    assert found.contains((6, 10)) and not found.contains((6.02, 10))
    assert found.keys_at((6, 10)) == {"target": "B1"}
    path = found.path_to((6, 10))
    assert path is not None
    assert validate(
        state, {"unit": "U", "type": "climb", "path": [list(path[1])], "target": "B1"}
    ).legal
    # Facing away from the feature: no climb, nothing shaded.
    away = scene([walker(position=(4, 10), facing=180, free_hands=True)], [BUILDING])
    assert reach(away, "U", "climb").area.is_empty or reach(away, "U", "climb").area.area == 0


def carrier_scene(terrain: list[dict[str, Any]] | None = None) -> Any:
    return scene(
        [
            {
                "id": "C",
                "side": "P1",
                "type": "track",
                "move": 6,
                "carrier": 2,
                "base": {"shape": "rect", "width": 2, "length": 3},
                "position": [20, 20],
                "facing": 0,
            },
            walker(position=(0, 0), move=4, diameter=1, aboard="C"),
        ],
        terrain,
    )


def proposal_legal(state: Any, action_type: str, p: tuple[float, float]) -> bool:
    found = reach(state, "U", action_type)
    path = found.path_to(p)
    assert path is not None, p
    steps = [dict(s) if isinstance(s, dict) else list(s) for s in path[1:]]
    verdict = validate(state, {"unit": "U", "type": action_type, "path": steps, **found.keys_at(p)})
    return verdict.legal or not print(p, steps, [r.message for r in verdict.reasons])


def test_a_unit_exiting_is_placed_at_the_carriers_rear_then_moves_half_move() -> None:
    # 002 Unit Exiting Action, MSW-D35: placed in base contact with the carrier's rear,
    # facing away, then up to Move / 2 (2 of 4): the placements run along the whole rear
    # edge (x 17.996, y 19.02 to 20.98 here), each then straight on or turned.
    state = carrier_scene()
    found = reach(state, "U", "unit_exiting")
    assert found.complete
    assert found.contains((16.1, 20)) and not found.contains((15.8, 20))
    assert found.contains((16.1, 20.9)) and found.contains((16.1, 19.1))
    assert not found.contains((18.5, 20))  # in the carrier
    assert found.keys_at((16.1, 20.5))["placement"]["facing"] == 180.0
    for p in [(16.1, 20), (16.1, 20.9), (16.5, 19.1), (17.5, 21.6), (17.0, 18.6)]:
        assert found.contains(p), p
        assert proposal_legal(state, "unit_exiting", p), p


def test_a_unit_exiting_a_carrier_that_moved_this_phase_has_nowhere_to_go() -> None:
    # 002 Unit Exiting Action: the carrier must have made no move action this phase.
    state = carrier_scene()
    moved = scene(
        [
            {
                "id": "C",
                "side": "P1",
                "type": "track",
                "move": 6,
                "carrier": 2,
                "base": {"shape": "rect", "width": 2, "length": 3},
                "position": [20, 20],
                "facing": 0,
            },
            walker(position=(0, 0), move=4, diameter=1, aboard="C"),
        ],
        state={"actions_taken": {"C": [{"phase": 1, "type": "standard_move"}]}},
    )
    assert reach(state, "U", "unit_exiting").area.area > 1
    assert reach(moved, "U", "unit_exiting").area.area == 0


def test_the_alternative_to_a_charge_names_the_unit_its_end_touches() -> None:
    # 002 Charge Move Action: a drop short of contact is offered the nearest end in
    # contact, with that unit as the target.
    from rules.model.actions import Action, Waypoint
    from rules.referee.alternative import nearest_alternative

    state = scene([walker(move=6, position=(10, 24)), walker("E1", position=(20, 24), side="P2")])
    offer = nearest_alternative(
        state, Action("U", "charge", (Waypoint(17, 24),), params={"target": "E1"})
    )
    assert offer is not None and offer.off_by < 1.1
    assert offer.action.params["target"] == "E1"


def test_a_moving_carrier_ends_where_the_unit_it_unloads_has_room_behind_it() -> None:
    # 002 Carrier Unloading Action, MSW-D19, MSW-D39: half Move, then one unit placed in
    # contact with the carrier's rear, on the table, on no base and no elevated feature.
    # A building behind the end leaves no room: those ends are not shaded.
    wall = {
        "id": "B1",
        "type": "elevated",
        "height": 4,
        "polygon": [[10, 10], [15.5, 10], [15.5, 30], [10, 30]],
    }
    state = scene(
        [
            {
                "id": "C",
                "side": "P1",
                "type": "walker",
                "move": 8,
                "carrier": 2,
                "base": {"shape": "circle", "diameter": 2},
                "position": [20, 20],
                "facing": 0,
            },
            walker("I", position=(0, 0), move=4, diameter=1, aboard="C"),
        ],
        [wall],
    )
    found = reach(state, "C", "carrier_unloading")
    assert found.contains((23.9, 20))  # ahead: the unit goes behind, at x 21.9 less
    assert not found.contains((17.5, 20))  # its unit would be set down in the building
    assert found.keys_at((23, 20))["unload"][0]["unit"] == "I"
    n = 0
    for p in [(23.9, 20), (23, 20), (22, 22.5), (21, 17.5), (20, 23.5), (18.5, 20)]:
        if not found.contains(p):
            continue
        path = found.path_to(p)
        assert path is not None
        steps = [dict(s) if isinstance(s, dict) else list(s) for s in path[1:]]
        verdict = validate(
            state, {"unit": "C", "type": "carrier_unloading", "path": steps, **found.keys_at(p)}
        )
        assert verdict.legal, (p, [r.message for r in verdict.reasons])
        n += 1
    assert n >= 4


def test_a_unit_exiting_a_round_carrier_is_placed_at_points_of_its_rear_arc() -> None:
    # MSW-D27: a circle's rear is its rear 90 degrees; placements at a few points of it,
    # each end legal along its path (and the area says it is not complete between them).
    state = scene(
        [
            {
                "id": "C",
                "side": "P1",
                "type": "walker",
                "move": 6,
                "carrier": 2,
                "base": {"shape": "circle", "diameter": 3},
                "position": [20, 20],
                "facing": 90,
            },
            walker(position=(0, 0), move=4, diameter=1, aboard="C"),
        ]
    )
    found = reach(state, "U", "unit_exiting")
    assert not found.complete and found.area.area > 1
    assert not found.area.intersects(Point(20, 20).buffer(1.99))  # never on the carrier
    x0, y0, x1, y1 = found.area.bounds
    grid = [(x0 + (x1 - x0) * u / 8, y0 + (y1 - y0) * v / 8) for u in range(9) for v in range(9)]
    inside = [p for p in grid if found.contains(p)]
    assert len(inside) > 5
    assert all(proposal_legal(state, "unit_exiting", p) for p in inside)


def test_a_manoeuvre_in_contact_slides_along_the_edge_it_touches() -> None:
    # 002 Manoeuvre Action, MSW-D21: half Move (4 of 8), ending in contact with every
    # opposing unit touched at the start: straight along E1's edge (the free turn first,
    # MSW-D7); going round its corner takes more legs, so the answer is not complete.
    foe = {
        "id": "E1",
        "side": "P2",
        "type": "walker",
        "move": 6,
        "base": {"shape": "rect", "width": 2, "length": 6},
        "position": [12, 10],
        "facing": 90,
    }
    state = scene([walker(move=8, position=(10, 10), skills=["combat_manoeuvres"]), foe])
    found = reach(state, "U", "manoeuvre")
    assert not found.complete and found.area.area > 0
    assert found.contains((10, 12)) and found.contains((10, 7.5))
    assert not found.contains((9.5, 12))  # out of contact
    x0, y0, x1, y1 = found.area.bounds
    checked = 0
    for k in range(41):
        y = y0 + (y1 - y0) * k / 40
        for x in (10.0, 10.004, (x0 + x1) / 2):
            if found.contains((x, y)):
                assert proposal_legal(state, "manoeuvre", (x, y)), (x, y)
                checked += 1
    assert checked > 30


def test_a_moving_carrier_sets_a_rect_unit_down_facing_away_behind_its_end() -> None:
    # 002 Carrier Unloading Action, MSW-D39, MSW-D27, MSW-D35: a rect unit set down in
    # contact with the carrier's rear (rect carrier: its rear edge; round: its rear
    # point), facing away; ends with no room behind are left out.
    wall = {
        "id": "B1",
        "type": "elevated",
        "height": 4,
        "polygon": [[10, 10], [15.5, 10], [15.5, 30], [10, 30]],
    }
    for carrier_base in (
        {"shape": "rect", "width": 2, "length": 3},
        {"shape": "circle", "diameter": 2},
    ):
        state = scene(
            [
                {
                    "id": "C",
                    "side": "P1",
                    "type": "walker",
                    "move": 8,
                    "carrier": 2,
                    "base": carrier_base,
                    "position": [20, 20],
                    "facing": 0,
                },
                {
                    **walker("R", position=(0, 0), move=4, aboard="C"),
                    "base": {"shape": "rect", "width": 1.5, "length": 2},
                },
            ],
            [wall],
        )
        found = reach(state, "C", "carrier_unloading")
        assert found.contains((23.5, 20)) and not found.contains((17.5, 20))
        placed = found.keys_at((23, 20))["unload"][0]
        assert placed["unit"] == "R" and placed["facing"] == 180.0
        n = 0
        for p in [
            (23.5, 20),
            (23, 20),
            (22, 22.5),
            (21, 17.5),
            (20, 23.5),
            (19, 20),
            (22.5, 21),
            (21.5, 18.5),
        ]:
            if not found.contains(p):
                continue
            path = found.path_to(p)
            assert path is not None
            steps = [dict(s) if isinstance(s, dict) else list(s) for s in path[1:]]
            verdict = validate(
                state, {"unit": "C", "type": "carrier_unloading", "path": steps, **found.keys_at(p)}
            )
            assert verdict.legal, (carrier_base, p, [r.message for r in verdict.reasons])
            n += 1
        assert n >= 5


def test_a_rect_unit_exiting_is_set_down_facing_away_and_moves_without_turning() -> None:
    # 002 Unit Exiting Action, MSW-D35: placed touching the carrier's rear facing away
    # (a rect carrier's rear edge, a round one's rear point, MSW-D27), then up to half
    # Move from there; it keeps its facing (a turn there would swing into the carrier):
    # straight ahead, or sideways for a walker (002 "Specials"). Not complete: says so.
    for carrier_base in (
        {"shape": "rect", "width": 2, "length": 3},
        {"shape": "circle", "diameter": 2},
    ):
        for kind in ("walker", "track"):
            state = scene(
                [
                    {
                        "id": "C",
                        "side": "P1",
                        "type": "track",
                        "move": 8,
                        "carrier": 2,
                        "base": carrier_base,
                        "position": [20, 20],
                        "facing": 0,
                    },
                    {
                        **walker(position=(0, 0), move=8, aboard="C"),
                        "type": kind,
                        "base": {"shape": "rect", "width": 1.5, "length": 2},
                    },
                    walker("E", side="P2", position=(15, 23.5)),
                ]
            )
            found = reach(state, "U", "unit_exiting")
            assert not found.complete and found.horizon == 0
            assert found.contains((14.2, 20)) and not found.contains((13, 20))
            assert found.keys_at((15, 20))["placement"]["facing"] == 180.0
            x0, y0, x1, y1 = found.area.bounds
            judged = 0
            for u in range(1, 12):
                for v in range(1, 12):
                    p = (x0 + (x1 - x0) * u / 12, y0 + (y1 - y0) * v / 12)
                    if found.area.contains(Point(p)):
                        assert proposal_legal(state, "unit_exiting", p), (carrier_base, p)
                        judged += 1
            assert judged >= 20


def test_a_rect_charge_ends_facing_its_target_with_its_front_touching_it() -> None:
    # 002 Charge Move Action, MSW-D12: like a Run (more than Move), ending in base contact
    # with its target; a rect base turns to face the end and goes straight (MSW-D5), so
    # its front edge or a front corner touches. No end passes through another target.
    for kind, facing in (("track", 0), ("track", 50), ("walker", 0)):
        state = scene(
            [
                {
                    "id": "U",
                    "side": "P1",
                    "type": kind,
                    "move": 6,
                    "position": [20, 20],
                    "base": {"shape": "rect", "width": 1.5, "length": 1},
                    "facing": facing,
                },
                walker("E", side="P2", position=(28, 21)),
                walker("G", side="P2", position=(25, 26), diameter=1.5),
                walker("H", side="P2", position=(32, 22), diameter=1),
            ]
        )
        found = reach(state, "U", "charge")
        assert not found.complete and found.horizon == 0
        assert not found.area.is_empty
        x0, y0, x1, y1 = found.area.bounds
        judged, targets = 0, set()
        for u in range(1, 120):
            for v in range(1, 120):
                p = (x0 + (x1 - x0) * u / 120, y0 + (y1 - y0) * v / 120)
                if not found.area.contains(Point(p)):
                    continue
                path = found.path_to(p)
                assert path is not None
                steps = [dict(s) if isinstance(s, dict) else list(s) for s in path[1:]]
                keys = found.keys_at(p)
                verdict = validate(state, {"unit": "U", "type": "charge", "path": steps, **keys})
                assert verdict.legal, (kind, p, [r.message for r in verdict.reasons])
                judged += 1
                targets.add(keys["target"])
        assert judged >= 8 and "E" in targets


def test_a_rect_manoeuvre_in_contact_slides_along_its_axis_keeping_every_contact() -> None:
    # 002 Manoeuvre Action, MSW-D5: ends touching every opposing unit it touched at the
    # start; a rect base keeps its facing (a turn would swing into the base it touches)
    # and slides along its axis, within the 1 degree allowed, as far as the contact lasts.
    for foe, reach_x in (
        ({"shape": "circle", "diameter": 2}, 1.1),
        ({"shape": "rect", "width": 2, "length": 3}, 2.4),
    ):
        state = scene(
            [
                {
                    "id": "U",
                    "side": "P1",
                    "type": "track",
                    "move": 8,
                    "base": {"shape": "rect", "width": 1.5, "length": 2},
                    "position": [20, 20],
                    "facing": 0,
                    "skills": ["combat_manoeuvres"],
                },
                {**walker("E", side="P2", position=(20, 21.754)), "base": foe},
            ]
        )
        found = reach(state, "U", "manoeuvre")
        assert not found.complete and found.horizon == 0  # round a corner: not found
        assert found.area.dwithin(Point(20 + reach_x, 20), 0.01)
        assert not found.area.dwithin(Point(20 + reach_x + 0.3, 20), 0.01)
        assert not found.area.dwithin(Point(20, 19.5), 0.01)  # off the edge: no contact
        x0, y0, x1, y1 = found.area.bounds
        judged = 0
        for u in range(1, 60):
            for v in range(1, 8):
                p = (x0 + (x1 - x0) * u / 60, y0 + (y1 - y0) * v / 8)
                if found.area.contains(Point(p)):
                    assert legal_along(state, "U", p, "manoeuvre"), (foe, p)
                    judged += 1
        assert judged >= 20


def test_a_carrier_on_a_top_sets_its_unit_down_on_the_same_top() -> None:
    # 002 Carrier Unloading Action: units are placed on the carrier's level (both on the
    # same elevated top), on no other elevated feature; a tower on the top leaves no room.
    top = {
        "id": "T1",
        "type": "elevated",
        "height": 2,
        "polygon": [[12, 12], [26, 12], [26, 24], [12, 24]],
    }
    tower = {
        "id": "T2",
        "type": "elevated",
        "height": 4,
        "polygon": [[15, 18], [17, 18], [17, 21], [15, 21]],
    }
    state = scene(
        [
            {
                "id": "C",
                "side": "P1",
                "type": "walker",
                "move": 8,
                "carrier": 2,
                "size_class": 3,
                "base": {"shape": "circle", "diameter": 2},
                "position": [20, 20],
                "facing": 0,
            },
            walker("I", position=(0, 0), move=4, diameter=1, aboard="C", size_class=1),
        ],
        [top, tower],
    )
    found = reach(state, "C", "carrier_unloading")
    assert found.contains((23, 20))  # the unit behind at x 21.5, on the top
    assert not found.contains((18.5, 20))  # it would be set down on the tower
    assert not found.contains((13.2, 20))  # or off the top's edge
    judged = 0
    for p in [(23, 20), (22, 22), (21, 17), (24, 19), (22.5, 18.5), (20.5, 21.5)]:
        if found.contains(p):
            path = found.path_to(p)
            assert path is not None
            steps = [dict(s) if isinstance(s, dict) else list(s) for s in path[1:]]
            verdict = validate(
                state, {"unit": "C", "type": "carrier_unloading", "path": steps, **found.keys_at(p)}
            )
            assert verdict.legal, (p, [r.message for r in verdict.reasons])
            judged += 1
    assert judged >= 4


def test_a_unit_exiting_whose_sweep_only_touches_its_reach_gets_a_legal_alternative(
    tmp_path: Path,
) -> None:
    """Unit Exiting (mswars.md, "Carriers": set down at the carrier's rear, then moved):
    a placement away from a rect carrier's rear, its drop where the swept reach only
    touches the sweep's segment at points. The alternative raised AttributeError (the
    kernel's turn reach read a point of several with get_point); it is now a legal move
    (found by a seeded random scene, tests/rules/mswars/scenes_found)."""
    scene = json.loads((FOUND / "unit_exiting_beside_the_rear.json").read_text())
    answered = rules_cli("alternative", str(FOUND / "unit_exiting_beside_the_rear.json"))
    assert answered.returncode == 0, answered.stderr[-2000:]
    offer = json.loads(answered.stdout.splitlines()[-1])["alternative"]
    assert offer is not None and offer["action"]["type"] == "unit_exiting"
    path = tmp_path / "offer.json"
    path.write_text(json.dumps({**scene, "action": offer["action"]}))
    checked = rules_cli("check", str(path))
    assert json.loads(checked.stdout.splitlines()[-1])["legal"] is True
