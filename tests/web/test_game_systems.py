"""What the web side learns from the engine through `services/game_systems.py` (issue 10, 5).

aod's metadata is the worked example (aod.md section 3 for its turns, section 12 for
who may take which order, section 6 for its terrain); a made-up phased system shows
that the web side needs no code for a system it has never seen.
"""

from typing import ClassVar
from unittest.mock import ANY

import pytest
from django.urls import reverse
from shapely.geometry import Polygon

import rules
from rules.engine.catalogue import ActionSpec
from rules.engine.system import System
from rules.engine.turns import TurnStructure
from tabletop.services import game_systems
from tabletop.services.battles import battle_create, battle_start
from tabletop.services.errors import ServiceError
from tabletop.services.maps import map_create
from tabletop.services.rosters import roster_create, unit_profile_add
from tests.web.world import MECH, PASSWORD, World

ONE_INCH = {"shape": "circle", "diameter": 1.0}
SQUARE = [[10, 10], [14, 10], [14, 14], [10, 14]]


#: (id, side, type, move, position, base diameter): two P1 units near the south edge,
#: P2's mech near the north one.
AOD_UNITS = [
    ("M1", "P1", "mech", 8, [5, 5], 1.75),
    ("I1", "P1", "infantry", 6, [9, 5], 1.25),
    ("M2", "P2", "mech", 8, [5, 30], 1.75),
]


def aod_position(**state: object) -> dict:
    units = [
        {
            "id": unit_id,
            "side": side,
            "type": kind,
            "move": move,
            "position": list(position),
            "base": {"shape": "circle", "diameter": diameter},
        }
        for unit_id, side, kind, move, position, diameter in AOD_UNITS
    ]
    return {
        "system": "aod",
        "table": {"width": 36, "height": 36},
        "terrain": [],
        "units": units,
        "state": dict(state),
    }


P1_TO_ACT = {"turn": 1, "active_side": "P1", "sides": ["P1", "P2"]}


# -- turns: aod.md section 3 -------------------------------------------------------------


def test_aod_sides_alternate_and_each_hand_over_resets_the_order_bookkeeping() -> None:
    position = aod_position(
        orders_available=2,
        orders_used=2,
        ordered=["M1"],
        order_log=[["M1", "move"]],
        free_spin_pending=["M2"],
    )
    turn, position = game_systems.end_part(position, P1_TO_ACT)
    assert (turn["turn"], turn["active_side"]) == (1, "P2")
    assert position["state"] == {"orders_available": 2}, "the GM's setting stays"
    turn, position = game_systems.end_part(position, turn)
    assert (turn["turn"], turn["active_side"]) == (2, "P1")
    assert not game_systems.phased(position)


def test_aod_refuses_a_side_out_of_orders_before_the_engine_is_asked() -> None:
    spent = aod_position(orders_available=1, orders_used=1)
    assert game_systems.refusal(spent, P1_TO_ACT, "P1")["code"] == "no_actions_left"
    assert game_systems.refusal(aod_position(), P1_TO_ACT, "P2")["code"] == "not_your_turn"
    assert game_systems.refusal(aod_position(), P1_TO_ACT, "P1") is None


def test_a_turn_structures_refusal_is_named_by_its_system_and_cited() -> None:
    """Issue 20: the message in a player's words, the rule's name from the system (the web
    side names none), the seed reference untouched."""
    aod = rules.SYSTEMS["aod"]
    spent = game_systems.refusal(aod_position(orders_available=1, orders_used=1), P1_TO_ACT, "P1")
    assert spent == {
        "code": "no_actions_left",
        "message": "P1 has given all 1 orders this turn.",
        "at": None,
        "cite": "001 [13]",
        "rule": f"Actions per turn, {aod.name} rules",
    }
    out_of_turn = game_systems.refusal(aod_position(), P1_TO_ACT, "P2")
    assert out_of_turn["rule"] == f"Turn order, {aod.name} rules"


def test_the_header_line_says_whose_turn_and_how_many_orders_are_left() -> None:
    position = aod_position(orders_available=3, orders_used=1)
    assert game_systems.summary(position, P1_TO_ACT) == "Turn 1 · P1 to act · 2 orders left"
    assert game_systems.summary(aod_position(), P1_TO_ACT) == "Turn 1 · P1 to act"


# -- the actions a unit is offered: aod.md section 12 ------------------------------------


def test_a_mech_may_run_and_infantry_may_not() -> None:
    offered = game_systems.available_actions(aod_position(), P1_TO_ACT)
    assert {"move", "run"} <= set(offered["M1"])
    assert "move" in offered["I1"] and "run" not in offered["I1"]


def test_a_unit_already_ordered_and_the_side_not_to_act_are_offered_nothing() -> None:
    offered = game_systems.available_actions(aod_position(ordered=["M1"]), P1_TO_ACT)
    assert offered["M1"] == [], "one order per unit per turn (aod.md 3)"
    assert offered["M2"] == [], "it is P1's turn"
    assert "move" in offered["I1"]


def test_a_free_spin_is_offered_only_to_a_unit_entitled_to_one() -> None:
    offered = game_systems.available_actions(
        aod_position(ordered=["M1"], free_spin_pending=["M1"]), P1_TO_ACT
    )
    assert offered["M1"] == ["free_spin"], "000 FREE SPINS: not an order"
    assert "free_spin" not in offered["I1"]


def test_the_board_gets_labels_and_drag_actions_from_the_catalogue() -> None:
    config = game_systems.board_config("aod")
    assert config["systemName"] == "MechWarrior: Age of Destruction"
    labels = {a["type"]: a["label"] for a in config["actions"]}
    assert labels["dfa"] == "Death from Above" and len(labels) == 13
    assert [a["type"] for a in config["actions"] if a["drag"]][:2] == ["move", "run"]
    assert (config["costUnit"], config["costSuffix"]) == ("in", '"')
    sight = {k["type"]: k["sight"] for k in config["terrainKinds"]}
    assert (sight["blocking"], sight["hindering"], sight["clear"]) == ("blocks", "hinders", "")


# -- a system the web side has never seen ---------------------------------------------


class TwoPhases(TurnStructure):
    phases: ClassVar[tuple[object, ...]] = (1, 2)
    reset_each_phase: ClassVar[tuple[str, ...]] = ("spent",)

    def budget(self, turn: dict, position: rules.GameState) -> str:
        return f"{3 - len(position.turn.get('spent', []))} AP left"


class MadeUp(System):
    key = "madeup"
    name = "Made-Up Skirmish"
    actions = (ActionSpec("stride", "Stride", drag=True, cost_unit="MP"),)
    turn_structure = TwoPhases()
    cost_unit = "MP"
    unit_types = frozenset({"raider"})  # and no unit schema of its own


@pytest.fixture
def made_up(monkeypatch: pytest.MonkeyPatch) -> System:
    system = MadeUp()
    monkeypatch.setitem(rules.SYSTEMS, system.key, system)
    return system


def test_a_phased_system_takes_each_side_in_each_phase_and_its_header_says_so(made_up) -> None:
    table = {"width": 24, "height": 24}
    position = {"system": "madeup", "table": table, "units": [], "state": {"spent": ["X"]}}
    turn, position = game_systems.begin(position, ["A", "B"])
    assert game_systems.summary(position, turn) == "Turn 1 · Phase 1 · A to act · 2 AP left"
    turn, position = game_systems.end_part(position, turn)
    turn, position = game_systems.end_part(position, turn)
    assert (turn["phase"], turn["active_side"], position["state"]) == (2, "A", {"phase": 2})
    turn, position = game_systems.end_part(position, turn, whole_turn=True)
    assert (turn["turn"], turn["phase"]) == (2, 1)


def test_the_board_of_a_system_counting_mp_labels_costs_in_mp(made_up) -> None:
    config = game_systems.board_config("madeup")
    assert (config["systemName"], config["costSuffix"]) == ("Made-Up Skirmish", " MP")
    assert config["phased"], "a player's end button ends their part of the phase"
    assert config["actions"][0]["label"] == "Stride"


def test_a_system_that_states_no_unit_keys_gets_the_scenario_formats_common_ones(
    made_up,
) -> None:
    assert list(game_systems.roster_fields("madeup")) == ["move", "base"]
    [raider] = game_systems.unit_catalogue("madeup")
    assert raider == {"type": "raider", "label": "Raider", "stats": {"base": ONE_INCH}}
    rect = {"shape": "rect", "width": 1, "length": 2}
    assert game_systems.unit_errors("madeup", "raider", {"move": 6, "base": rect}) == {}
    assert game_systems.unit_errors("madeup", "scout", {"move": -1, "speed": 2}) == {
        "unit_type": "Unknown unit type 'scout'; choose one of: raider.",
        "move": "Must be at least 0.",
        "speed": "madeup units have no field 'speed'.",
    }


# -- deployment and bases ---------------------------------------------------------------


def test_four_sides_get_four_edges_and_no_two_zones_overlap() -> None:
    zones = game_systems.deployment_zones("aod", 48, 36, ["P1", "P2", "P3", "P4"], 6)
    shapes = {side: Polygon(zone) for side, zone in zones.items()}
    assert shapes["P1"].bounds == (0, 0, 48, 6)  # south
    assert shapes["P2"].bounds == (0, 30, 48, 36)  # north
    assert shapes["P3"].bounds == (0, 6, 6, 30)  # west, corners left to south and north
    assert shapes["P4"].bounds == (42, 6, 48, 30)  # east
    sides = sorted(shapes)
    for i, a in enumerate(sides):
        for b in sides[i + 1 :]:
            assert shapes[a].intersection(shapes[b]).area == 0, (a, b)


def test_a_rect_base_turned_to_face_north_is_long_north_to_south() -> None:
    base = {"shape": "rect", "width": 1.5, "length": 2.5}
    footprint = game_systems.base_footprint("aod", base, [10, 10], 90)
    minx, miny, maxx, maxy = footprint.bounds
    assert (maxx - minx, maxy - miny) == pytest.approx((1.5, 2.5))


def test_a_three_sided_battle_deploys_each_side_on_its_edge_facing_the_centre(
    world: World,
) -> None:
    home = world.home
    third = roster_create(campaign=home.campaign, owner=world.users["gm"], name="Third")
    unit_profile_add(roster=third, name="Hunter", unit_type="mech", stats=MECH, points=100)
    battle = battle_create(
        campaign=home.campaign,
        battle_map=home.map,
        name="Three ways",
        sides=[(home.roster, "P1"), (home.other_roster, "P2"), (third, "P3")],
        zone_depth=4,
    )
    assert Polygon(battle.deployment_zones["P3"]).bounds == (0, 4, 4, 32)
    facings = {u["side"]: u["facing"] for u in battle.state["units"]}
    assert facings == {"P1": 90.0, "P2": 270.0, "P3": 0.0}
    started = battle_start(battle=battle)
    assert started.turn_state == {"turn": 1, "active_side": "P1", "sides": ["P1", "P2", "P3"]}


# -- maps: aod.md 6 ----------------------------------------------------------------------


def test_abrupt_elevated_terrain_keeps_its_access_segments_and_a_wood_takes_no_height(
    world: World,
) -> None:
    cliff = {
        "id": "C1",
        "type": "abrupt_elevated",
        "polygon": SQUARE,
        "height": 2,
        "access": [[[10, 10], [12, 10]]],
    }
    made = map_create(
        campaign=world.home.campaign, name="Cliffs", width=36, height=36, terrain=[cliff]
    )
    assert made.terrain[0]["access"] == [[[10, 10], [12, 10]]]
    wood = {"id": "W1", "type": "hindering", "polygon": SQUARE, "access": []}
    with pytest.raises(ServiceError, match="unknown key 'access' for hindering terrain"):
        map_create(campaign=world.home.campaign, name="Wood", width=36, height=36, terrain=[wood])


def test_the_map_editor_offers_terrain_by_its_label(client, world: World) -> None:
    client.login(username="gm", password=PASSWORD)
    page = client.get(reverse("map_new", args=[world.home.campaign.pk])).content.decode()
    assert '<option value="hindering" title="A unit entering it from clear must stop' in page
    assert ">Hindering terrain</option>" in page


def test_pages_show_the_system_by_its_name(client, world: World) -> None:
    client.login(username="gm", password=PASSWORD)
    page = client.get(reverse("campaign", args=[world.home.campaign.pk])).content.decode()
    assert "MechWarrior: Age of Destruction" in page


# -- the board hooks read the position the engine holds (issue 24) ---------------------------


def test_a_table_event_reads_the_position_the_verdict_left_and_never_its_json_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An act's event carries the header, the offers and the pieces' states, read from the
    engine's own position after the verdict (`game`), so no hook parses the table's JSON."""
    position = aod_position(orders_available=2, ordered=["M1"])
    game = rules.state_from_json(position)
    expected = game_systems.table_view(position, P1_TO_ACT)

    def no_parse(raw: object) -> rules.GameState:
        raise AssertionError("the position was parsed again")

    monkeypatch.setattr(rules, "state_from_json", no_parse)
    view = game_systems.table_view(position, P1_TO_ACT, game)
    assert view == expected
    assert view["summary"] == "Turn 1 · P1 to act · 2 orders left"
    assert view["actions"]["M1"] == [] and "move" in view["actions"]["I1"]
    assert view["unit_states"] == {"M1": [{"key": "ordered", "label": "ordered", "help": ANY}]}


def test_a_position_the_engine_cannot_read_shows_no_header_offers_or_states() -> None:
    lost = {**aod_position(), "system": "no_such_system"}
    assert game_systems.table_view(lost, P1_TO_ACT) == {
        "summary": "",
        "actions": {},
        "unit_states": {},
    }
