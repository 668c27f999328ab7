"""The referee builds a map's geometry once, not at every sequence number (issue 21): after
a GM's fiat (a new sequence number, the same terrain) a preview with reach parses the
new position's units but reuses the map's features, their index and the obstacles built
from them; and a preview's reach runs within the referee's deadline."""

from typing import Any

import pytest

from rules.engine import scenario
from rules.geometry import deadline as clocks
from rules.model.map_geometry import MapCache, MapGeometry
from tabletop.models import Battle, Membership
from tabletop.services.battle_setup import Table, UnitEntry
from tabletop.services.table import referee
from tabletop.services.table.actor import Actor, actor_for
from tabletop.services.table.gm import battle_fiat
from tabletop.services.table.preview import battle_preview
from tests.web.factories import MECH, battle_for_people, zones

#: Blocking blocks across the way north (aod 000 [33]: a unit may not enter them).
BLOCKS = [
    {"id": f"B{i}", "type": "blocking", "polygon": [[x, 9], [x + 3, 9], [x + 3, 11], [x, 11]]}
    for i, x in enumerate((8, 14, 20, 26))
]


def walled_battle(prefix: str) -> tuple[Battle, dict[str, Any]]:
    """A live aod battle: a mech a side, P1's at (17, 3) south of the blocks."""
    forces = {
        side: (f"{side} force", [UnitEntry(f"{side} mech", "mech", MECH)])
        for side in "P1 P2".split()
    }
    battle, users = battle_for_people(
        prefix,
        "aod",
        forces,
        table=Table("Table", 36, 36, BLOCKS),
        deployment_zones=zones(36, 36),
        placements={"P1 mech": [17, 3], "P2 mech": [17, 33]},
    )
    battle.state = {**battle.state, "state": {"orders_available": 5}}  # 001 [13]
    battle.save(update_fields=["state"])
    return battle, users


def actor(battle: Battle, user: Any) -> Actor:
    return actor_for(battle, user, Membership.objects.get(campaign=battle.campaign, user=user))


@pytest.fixture
def built(monkeypatch: Any) -> dict[str, list[str]]:
    """What the engine builds from terrain during the test: features parsed (by key) and
    the items each map builds (by memo key), with a fresh cache of maps."""
    monkeypatch.setattr(scenario, "MAPS", MapCache())
    monkeypatch.setattr(referee, "positions", referee.ParsedPositions())
    out: dict[str, list[str]] = {"parsed": [], "memo": []}
    parse, memo = scenario.parse_terrain, MapGeometry.memo
    monkeypatch.setattr(
        scenario, "parse_terrain", lambda raw, key: out["parsed"].append(key) or parse(raw, key)
    )
    monkeypatch.setattr(
        MapGeometry,
        "memo",
        lambda self, key, factory: memo(self, key, lambda: (out["memo"].append(key), factory())[1]),
    )
    return out


def preview_walk(battle: Battle, users: dict[str, Any]) -> dict[str, Any]:
    """P1's mech asks to move 2" north, with reach (001 [16]: a move of up to 10")."""
    mech = next(u for u in battle.state["units"] if u["side"] == "P1")
    x, y = mech["position"][:2]
    return battle_preview(
        battle_id=battle.pk,
        actor=actor(battle, users["p1"]),
        action={"unit": mech["id"], "type": "move", "path": [[x, y + 2]]},
        reach=True,
    )


@pytest.mark.django_db
def test_a_preview_after_a_fiat_reuses_the_maps_geometry(built: dict[str, list[str]]) -> None:
    battle, users = walled_battle("cache-")
    built["parsed"].clear()
    built["memo"].clear()
    first = preview_walk(battle, users)
    assert first["verdict"]["legal"] and first["reach"]["type"] in ("Polygon", "MultiPolygon")
    index_builds = built["memo"].count("engine.terrain_index")
    assert index_builds <= 1
    before = referee.positions.get((battle.pk, battle.last_seq), battle.state)

    enemy = next(u for u in battle.state["units"] if u["side"] == "P2")
    battle_fiat(
        battle_id=battle.pk,
        actor=actor(battle, users["gm"]),
        client_msg_id="fiat-1",
        unit_id=enemy["id"],
        position=[enemy["position"][0] + 1, enemy["position"][1]],
    )
    battle.refresh_from_db()
    built["parsed"].clear()
    second = preview_walk(battle, users)

    assert second["seq"] == first["seq"] + 1 and second["verdict"]["legal"]
    assert built["parsed"] == []  # the new position's terrain was not parsed again
    assert built["memo"].count("engine.terrain_index") == index_builds  # nor its index
    after = referee.positions.get((battle.pk, battle.last_seq), battle.state)
    assert after is not before and after.geometry is before.geometry


@pytest.mark.django_db
def test_a_preview_past_the_reach_deadline_says_its_area_is_cut_short(
    built: dict[str, list[str]], monkeypatch: Any
) -> None:
    """The referee's deadline stops the search; the reach says how far it is exact."""
    battle, users = walled_battle("late-")
    monkeypatch.setattr(referee, "REACH_DEADLINE", 0.0)
    monkeypatch.setattr(clocks, "clock", lambda: 0.0)  # the deadline is already due
    reply = preview_walk(battle, users)
    assert reply["verdict"]["legal"]
    assert reply["reach"]["complete"] is False and reply["reach"]["to"] < 10
