"""The catalogue's picked keys: what the board asks a player to click for an action no
drag proposes (rules/engine/catalogue.py, `point_keys`, `unit_keys`, `placement_keys`).

The board sends what these say and nothing else: a unit-key action goes without a path,
a placement is the unit aboard set down in base contact with the actor, facing away. So
the keys must be the action's own, and the actions built that way must be legal where
the rules allow them.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules import SYSTEMS, validate
from rules.engine.catalogue import ActionSpec
from tests.rules import scenes
from tests.rules.lasergrenadiers.build import act, board, piece, then, vehicle


def spec(system: str, action_type: str) -> ActionSpec:
    return next(s for s in SYSTEMS[system].actions if s.type == action_type)


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_picked_keys_are_the_actions_own_and_picked_one_way(key: str) -> None:
    for action in SYSTEMS[key].actions:
        kinds = (action.point_keys, action.unit_keys, action.placement_keys)
        picked = [k for keys in kinds for k in keys]
        assert set(picked) <= set(action.keys), action.type
        assert len(picked) == len(set(picked)), f"{action.type}: a key picked two ways"
        as_json = action.to_json()
        assert as_json["unit_keys"] == list(action.unit_keys)
        assert as_json["placement_keys"] == list(action.placement_keys)


def test_transport_is_picked_on_the_board() -> None:
    # lasergrenadiers.md 9: `load` names its `carrier`, `unload` its `passengers` placed.
    assert spec("lasergrenadiers", "load").unit_keys == ("carrier",)
    assert spec("lasergrenadiers", "unload").placement_keys == ("passengers",)
    # An overrun's target comes with a path the player drags (003 Overrun attacks).
    assert spec("lasergrenadiers", "overrun").unit_keys == ()
    assert spec("mswars", "enter_unit").unit_keys == ("carrier",)
    assert spec("mswars", "carrier_unloading").placement_keys == ("unload",)
    assert spec("aod", "capture").unit_keys == ("target",)


def test_load_is_offered_to_the_pieces_that_board_and_unload_to_vehicles() -> None:
    # lasergrenadiers.md 9: the board's Load is the boarding piece's gesture (click the
    # carrier); a vehicle sets its passengers down, it does not click itself a carrier.
    load, unload = spec("lasergrenadiers", "load"), spec("lasergrenadiers", "unload")
    assert load.offered_to({"type": "foot"}) and load.offered_to({"type": "jetpack"})
    assert not load.offered_to({"type": "wheeled"}) and not load.offered_to({"type": "grav"})
    assert unload.offered_to({"type": "wheeled"}) and not unload.offered_to({"type": "foot"})


def test_a_piece_in_contact_boards_with_no_path_and_is_set_down_in_contact() -> None:
    # 003 Transport 1-3 (LG-D26): the board's load names only the carrier; its unload puts
    # the trooper 0.5" beyond the vehicle's west edge (the vehicle faces north, 2" wide),
    # facing away from it.
    carrier = vehicle("V", position=(20, 3), facing=90, capacity=2)
    state = board([carrier, piece("T", position=(21.5, 3), facing=180)])
    loaded = then(act(state, "T", type="load", carrier="V"))
    assert loaded.unit("T").aboard == "V"
    placed = [{"unit": "T", "position": [18.5, 3.0], "facing": 180}]
    verdict = act(loaded, "V", type="unload", passengers=placed)
    assert verdict.legal, [r.message for r in verdict.reasons]
    assert then(verdict).unit("T").position[:2] == (18.5, 3.0)


def test_a_unit_in_contact_enters_a_carrier_with_no_path() -> None:
    # 002 Enter Unit: touching the carrier already, it boards without moving.
    units: list[dict[str, Any]] = [
        scenes.unit("I1", "P1", "walker", 8, (13.5, 10), 0, 1.0, size_class=0, infantry=True),
        scenes.unit("C1", "P1", "track", 8, (16, 10), 180, 4.0, size_class=4, carrier=2),
    ]
    state = scenes.scene(units, None, None, 48, 48, None, system="mswars")
    verdict = validate(state, {"unit": "I1", "type": "enter_unit", "carrier": "C1"}, dice=[])
    assert verdict.legal, [r.message for r in verdict.reasons]
    assert verdict.state_after is not None
    assert verdict.state_after.unit("I1").aboard == "C1"
