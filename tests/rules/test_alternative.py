"""The nearest legal alternative to a refused move (rules/referee/alternative.py; ui.md
"Moving a piece" 4): the legal end nearest the drop, its path, judged legal."""

from rules import action_from_json, validate
from rules.referee.alternative import nearest_alternative
from tests.rules.scenes import scene, square, unit

ORDERS = {"orders_available": 3}


def test_a_move_beyond_the_allowance_is_offered_the_reachable_point_nearest_the_drop():
    # 001 [16]: a mech moves up to its move (10") in inches.
    state = scene([unit("M1", position=(10, 5))], state=ORDERS)
    refused = action_from_json({"unit": "M1", "type": "move", "path": [[10, 20]]}, state)
    assert not validate(state, refused).legal
    alternative = nearest_alternative(state, refused)
    assert alternative is not None
    x, y = alternative.end
    assert abs(x - 10) < 0.05 and 14.4 < y <= 15.0  # as far north as 10" takes it
    assert abs(alternative.off_by - (20 - y)) < 1e-6
    assert validate(state, alternative.action).legal


def test_the_alternative_goes_around_blocking_terrain_and_is_legal():
    # 000 [33]: no unit may enter blocking terrain.
    state = scene(
        [unit("M1", position=(10, 5))], [square("R1", "blocking", 6, 9, 14, 11)], state=ORDERS
    )
    refused = action_from_json({"unit": "M1", "type": "move", "path": [[10, 10]]}, state)
    assert not validate(state, refused).legal
    alternative = nearest_alternative(state, refused)
    assert alternative is not None
    assert alternative.end[1] <= 9.0 + 1e-6  # at the rock's edge, not in it
    assert validate(state, alternative.action).legal
    assert alternative.to_json()["action"]["path"][-1] == list(alternative.end)


def test_a_unit_with_no_order_left_is_offered_nothing():
    state = scene([unit("M1", position=(10, 5))], state={"orders_available": 0})
    refused = action_from_json({"unit": "M1", "type": "move", "path": [[10, 8]]}, state)
    assert nearest_alternative(state, refused) is None


def test_an_action_without_a_waypoint_is_offered_nothing():
    state = scene([unit("M1", position=(10, 5))], state=ORDERS)
    turn = action_from_json({"unit": "M1", "type": "move", "path": [{"turn": 90}]}, state)
    assert nearest_alternative(state, turn) is None
