"""`manage.py demo`: people and a ready battle for every game system; idempotent."""

import math
from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

import rules
from tabletop.demo import DEMO_SYSTEMS, DEMO_USERS
from tabletop.models import Battle, Campaign, Event, Map, Membership, Roster, UnitProfile
from tabletop.services import game_systems

pytestmark = pytest.mark.django_db

MODELS = (Campaign, Membership, Map, Roster, UnitProfile, Battle, Event)
SYSTEMS = game_systems.system_keys()


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def demo_battle(key: str) -> Battle:
    call_command("demo", stdout=StringIO())
    return Campaign.objects.get(system=key).battles.get()


def test_demo_creates_a_ready_battle_for_every_system_and_prints_the_logins() -> None:
    out = StringIO()
    call_command("demo", stdout=out)
    for username, password, _ in DEMO_USERS:
        assert f"{username}" in out.getvalue() and password in out.getvalue()
        assert authenticate(username=username, password=password) is not None
    for key in game_systems.system_keys():
        assert key in DEMO_SYSTEMS, f"no demo content for {key}"
        campaign = Campaign.objects.get(system=key)
        assert f"created {campaign.name}" in out.getvalue()
        assert campaign.memberships.count() == len(DEMO_USERS)
        battle = campaign.battles.get()
        assert battle.status == "active"
        assert battle.state["system"] == key
        assert len(battle.state["units"]) >= 2
        assert {u["side"] for u in battle.state["units"]} == {"P1", "P2"}


def test_running_demo_twice_changes_nothing() -> None:
    call_command("demo", stdout=StringIO())
    before = counts()
    call_command("demo", stdout=StringIO())
    assert counts() == before


@pytest.mark.parametrize("key", SYSTEMS)
def test_the_demo_battle_is_live_with_the_systems_turn_and_a_position_the_engine_accepts(
    key: str,
) -> None:
    battle = demo_battle(key)
    assert game_systems.position_error(battle.state) is None
    # The turn structure has begun: a side to act, and the header's line from the engine.
    assert battle.turn_state["turn"] == 1
    assert battle.turn_state["active_side"] == "P1"
    # (The action-point skirmish game plays in rounds: apskirmish.md 6b.)
    header = game_systems.summary(battle.state, battle.turn_state)
    assert header.startswith(("Turn 1", "Round 1"))


@pytest.mark.parametrize("key", SYSTEMS)
def test_every_demo_unit_may_make_a_short_move_straight_ahead(key: str) -> None:
    """Every unit is legal for the engine: the first drag action it is offered, 1" along its
    facing, is a legal move (a unit with a bad set-up or keys would be refused)."""
    battle = demo_battle(key)
    state = rules.state_from_json(battle.state)
    drags = [spec["type"] for spec in game_systems.catalogue(key) if spec["drag"]]
    for unit in battle.state["units"]:
        # What the board offers the unit when its side is to act.
        turn = {**battle.turn_state, "active_side": unit["side"]}
        offered = game_systems.available_actions(battle.state, turn)[unit["id"]]
        action_type = next(t for t in drags if t in offered)
        x, y = unit["position"][:2]
        facing = math.radians(unit["facing"])
        ahead = [round(x + math.cos(facing), 6), round(y + math.sin(facing), 6)]
        verdict = rules.validate(
            state, {"unit": unit["id"], "type": action_type, "path": [ahead]}, dice=[4] * 10
        )
        assert verdict.legal, (battle.unit_labels[unit["id"]]["name"], verdict.reasons)


def beside_a_carrier(unit: dict, units: list[dict]) -> bool:
    """A piece within 3" of a carrier of its side: its passengers wait in base contact
    (lasergrenadiers.md 9), and the board finds their names another side of the piece."""
    return any(
        other["side"] == unit["side"]
        and other.get("capacity", 0) > 0
        and math.dist(other["position"][:2], unit["position"][:2]) <= 3
        for other in units
    )


@pytest.mark.parametrize("key", SYSTEMS)
def test_the_demo_pieces_stand_far_enough_apart_for_their_names(key: str) -> None:
    units = demo_battle(key).state["units"]
    for side in {u["side"] for u in units}:
        xs = sorted(
            u["position"][0] for u in units if u["side"] == side and not beside_a_carrier(u, units)
        )
        assert min(b - a for a, b in zip(xs, xs[1:], strict=False)) >= 8


# -- M.S. Wars: the demo shows what the system counts (mswars.md sections 2 and 3) -------


def test_the_mswars_demo_map_has_every_cost_table_row_a_named_feature_and_elevated_ground():
    """002 cost table: six rows; 002 Terrain: features by size class, elevated by height."""
    battle = demo_battle("mswars")
    types = {feature["type"] for feature in battle.state["terrain"]}
    rows = {"flat", "rough", "difficult", "very_difficult", "shallow_water", "deep_water"}
    assert rows <= types
    assert {"woodland", "river"} <= types
    elevated = [f for f in battle.state["terrain"] if f["type"] == "elevated"]
    assert elevated and all(f.get("height", 0) > 0 for f in elevated)
    # Every type is one the map editor offers, with its label.
    labels = {kind["type"]: kind["label"] for kind in game_systems.terrain_kinds("mswars")}
    assert types <= set(labels)


def test_the_mswars_demo_forces_field_each_kind_of_unit_with_its_stats():
    """002 Rules: Movement: Move in MP, a move type, a size class and a base; infantry
    walk (MSW-D2); carriers carry (MSW-D17)."""
    battle = demo_battle("mswars")
    units = battle.state["units"]
    assert {"walker", "four_legged_walker", "track", "hover"} <= {u["type"] for u in units}
    assert any(u.get("infantry") for u in units)
    assert any(u.get("carrier", 0) > 0 for u in units)
    assert any("combat_manoeuvres" in u.get("skills", []) for u in units)
    schema = game_systems.unit_schema("mswars")["properties"]
    for unit in units:
        assert unit["move"] > 0 and isinstance(unit["size_class"], int) and unit["base"]
        stats = set(unit) - {"id", "side", "position", "facing"}
        assert stats <= set(schema), stats - set(schema)


def test_the_mswars_demo_header_counts_phases_and_the_board_counts_mp():
    battle = demo_battle("mswars")
    assert game_systems.summary(battle.state, battle.turn_state).startswith(
        "Turn 1 · Phase 1 · P1 to act"
    )
    assert game_systems.board_config("mswars")["costSuffix"].strip() == "MP"


# -- LaserGrenadiers: the demo shows what the system counts (lasergrenadiers.md 2, 6, 9) ---


def test_the_lasergrenadiers_demo_map_has_a_bridged_and_forded_river_woods_a_building_a_slope():
    """003 Terrain 3-11: a river crossed only at a bridge or a ford; a slope with its uphill
    bearing (LG-D5); a building closed to vehicles (LG-D20)."""
    terrain = demo_battle("lasergrenadiers").state["terrain"]
    types = {feature["type"] for feature in terrain}
    assert {"road", "river", "bridge", "ford", "vegetation", "building", "slope"} <= types
    assert all("uphill" in f for f in terrain if f["type"] == "slope")
    labels = {kind["type"] for kind in game_systems.terrain_kinds("lasergrenadiers")}
    assert types <= labels


def test_the_lasergrenadiers_demo_forces_field_vehicles_a_carrier_infantry_and_a_crew_weapon():
    """003 Movement: a grav tank, a damaged armoured car (003 Damaged a), a carrier with a
    capacity (LG-D29), foot and jetpack infantry, a crewed weapon; keys from the schema."""
    units = demo_battle("lasergrenadiers").state["units"]
    assert {"grav", "wheeled", "tracked", "foot", "jetpack", "crew_weapon"} <= {
        u["type"] for u in units
    }
    assert any(u.get("damage_levels", 0) > 0 for u in units)
    carrier = next(u for u in units if u.get("capacity", 0) > 0)
    assert any(u["side"] == carrier["side"] and u["type"] == "foot" for u in units)
    schema = game_systems.unit_schema("lasergrenadiers")["properties"]
    for unit in units:
        assert set(unit) - {"id", "side", "position", "facing"} <= set(schema)


def test_the_lasergrenadiers_demo_troopers_may_load_into_their_carrier_at_once():
    """003 Transport 1 (lasergrenadiers.md 9): a piece loads only in base contact with the
    vehicle; the demo's troopers stand so, and their first action may be to board."""
    battle = demo_battle("lasergrenadiers")
    ids = {label["name"]: unit_id for unit_id, label in battle.unit_labels.items()}
    action = {"unit": ids["Troopers"], "type": "load", "carrier": ids["Carrier"]}
    verdict = rules.validate(rules.state_from_json(battle.state), action)
    assert verdict.legal, verdict.reasons
    assert (
        "load" in game_systems.available_actions(battle.state, battle.turn_state)[ids["Troopers"]]
    )
