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

from rules import SYSTEMS, GameState, state_from_json, validate
from rules.engine.catalogue import PATH_SHAPES, ActionSpec
from rules.referee.offers import offered_types
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
    # lasergrenadiers.md 9: `load` names its `carrier` (a vehicle's variant: its
    # `passengers`), `unload` its `passengers` placed.
    assert spec("lasergrenadiers", "load").unit_keys == ("carrier",)
    assert spec("lasergrenadiers", "unload").placement_keys == ("passengers",)
    # An overrun's target comes with a path the player drags (003 Overrun attacks).
    assert spec("lasergrenadiers", "overrun").unit_keys == ()
    assert spec("mswars", "enter_unit").unit_keys == ("carrier",)
    assert spec("mswars", "carrier_unloading").placement_keys == ("unload",)
    assert spec("aod", "capture").unit_keys == ("target",)


def test_load_is_offered_to_the_pieces_that_board_and_to_vehicles_unload_to_vehicles() -> None:
    # lasergrenadiers.md 9: a boarding piece clicks its carrier; a vehicle takes aboard
    # pieces in contact (its variant), so the catalogue hides neither's Load.
    load, unload = spec("lasergrenadiers", "load"), spec("lasergrenadiers", "unload")
    assert load.offered_to({"type": "foot"}) and load.offered_to({"type": "jetpack"})
    assert load.offered_to({"type": "wheeled"}) and load.offered_to({"type": "grav"})
    assert unload.offered_to({"type": "wheeled"}) and not unload.offered_to({"type": "foot"})


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_variants_give_picked_keys_of_the_action_for_types_it_names(key: str) -> None:
    for action in SYSTEMS[key].actions:
        for variant in action.variants:
            assert variant.unit_types, action.type
            assert action.to_json()["variants"][action.variants.index(variant)] == variant.to_json()
            resolved = action.for_type(variant.unit_types[0])
            assert action.offered_to({"type": variant.unit_types[0]}), action.type
            picked = [
                k
                for keys in (
                    resolved.point_keys,
                    resolved.unit_keys,
                    resolved.placement_keys,
                    resolved.unit_list_keys,
                    resolved.target_keys,
                )
                for k in keys
            ]
            assert set(picked) <= set(action.keys), action.type
            assert len(picked) == len(set(picked)), f"{action.type}: a key picked two ways"
            assert resolved.path in PATH_SHAPES, action.type


def test_a_vehicle_loads_the_pieces_it_clicks_with_no_path() -> None:
    # lasergrenadiers.md 9 (LG-D34): for a vehicle the board's Load picks `passengers`,
    # the pieces in base contact clicked one by one, then a click on the vehicle sends it
    # with no path; a boarding piece's Load still clicks its `carrier`.
    load = spec("lasergrenadiers", "load")
    assert load.for_type("foot").unit_keys == ("carrier",)
    carried = load.for_type("grav")
    assert carried.unit_keys == () and carried.unit_list_keys == ("passengers",)
    assert carried.path == "none" and carried.placement_keys == ()
    assert load.to_json()["variants"][0]["unit_list_keys"] == ["passengers"]
    carrier = vehicle("V", type="grav", move=36, position=(20, 3), facing=90, capacity=2)
    state = board([carrier, piece("T1", position=(21.5, 3)), piece("T2", position=(18.5, 3))])
    assert "load" in offered_types(state)["V"]
    action: dict[str, Any] = {"unit": "V", "type": "load"}
    for key in carried.unit_list_keys:
        action[key] = ["T1", "T2"]  # the board's clicks; no path, no carrier
    verdict = validate(state, action, dice=[])
    after = then(verdict)
    assert after.unit("T1").aboard == "V" and after.unit("T2").aboard == "V"
    assert after.unit("V").position[:2] == (20, 3)


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


# -- what the board builds besides clicks: a drag's target and turns, a press, a turn ----


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_drag_filled_and_listed_keys_are_the_actions_own(key: str) -> None:
    for action in SYSTEMS[key].actions:
        assert set(action.target_keys) | set(action.unit_list_keys) <= set(action.keys)
        assert not action.target_keys or action.drag, f"{action.type}: a target needs a drag"
        assert not action.from_aboard or action.placement_keys, action.type
        assert not action.faces_each_leg or action.path == "free", action.type
        assert not (action.at_once and action.drag), action.type


def _state(system: str, units: list[dict[str, Any]], **turn: Any) -> GameState:
    return state_from_json(
        {
            "system": system,
            "table": {"width": 48, "height": 48},
            "terrain": [],
            "units": units,
            "state": turn,
        }
    )


def _piece(
    uid: str,
    side: str,
    kind: str,
    at: tuple[float, float],
    facing: float = 90,
    diameter: float = 1.5,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "id": uid,
        "side": side,
        "type": kind,
        "move": 6,
        "position": list(at),
        "facing": facing,
        "base": {"shape": "circle", "diameter": diameter},
        **extra,
    }


def test_a_ram_dropped_onto_its_target_stops_in_contact_and_is_legal() -> None:
    # 001 [27-28]: the board stops the drag 0.004" short of the target's base (drag.js
    # `docked`) and names the piece it touches as the target.
    tanks = [_piece("V3", "P1", "tracked", (34, 12)), _piece("B4", "P2", "tracked", (34, 19))]
    state = _state("aod", tanks, orders_available=4)
    rammed = {"unit": "V3", "type": "ram", "target": "B4", "path": [[34, 17.496]]}
    verdict = validate(state, rammed, dice=[])
    assert verdict.legal, [r.message for r in verdict.reasons]


def test_a_free_spin_is_a_turn_in_place_and_a_vent_a_press() -> None:
    # 000 FREE SPINS (path "turn"): [{"turn": a}]; 001 [22] (`at_once`): no path, no keys.
    mech = _piece("A4", "P1", "mech", (28, 4), diameter=1.75)
    state = _state("aod", [mech], orders_available=4, free_spin_pending=["A4"])
    assert spec("aod", "free_spin").path == "turn" and spec("aod", "vent").at_once
    spun = validate(state, {"unit": "A4", "type": "free_spin", "path": [{"turn": 45}]}, dice=[])
    assert spun.legal, [r.message for r in spun.reasons]
    vented = validate(state, {"unit": "A4", "type": "vent"}, dice=[])
    assert vented.legal, [r.message for r in vented.reasons]


def test_a_diagonal_drag_with_the_turn_to_face_it_is_legal_where_the_catalogue_says() -> None:
    # MSW-D5 (every move type), LG-D12 (tracked, wheeled): the board turns to face each leg.
    track = {
        **_piece("T1", "P1", "track", (10, 10)),
        "move": 8,
        "size_class": 2,
        "base": {"shape": "rect", "width": 2, "length": 3},
    }
    ms = _state("mswars", [track])
    assert "track" in spec("mswars", "standard_move").faces_each_leg
    straight = {"unit": "T1", "type": "standard_move", "path": [[12, 12]]}
    assert not validate(ms, straight, dice=[]).legal
    turned = {**straight, "path": [{"turn": -45}, [12, 12], {"turn": 45}, [12, 14]]}
    assert validate(ms, turned, dice=[]).legal
    lg_track = {**track, "type": "tracked", "move": 12, "size": 4}
    del lg_track["size_class"]
    lg = _state("lasergrenadiers", [lg_track])
    assert spec("lasergrenadiers", "move").faces_each_leg == ("tracked", "wheeled")
    moved = {"unit": "T1", "type": "move", "path": [{"turn": -45}, [13, 13]]}
    assert validate(lg, moved, dice=[]).legal
