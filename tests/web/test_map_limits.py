"""The map limits (issue 21): a map too complex for the engine to answer a preview in time
is refused wherever terrain arrives (the map service, the map editor's page, a battle's
set-up on a map saved before the limits), in the player's words."""

import json
import math

from django.test import Client
from django.urls import reverse

from tabletop.models import Battle, Map
from tabletop.services.battles import battle_create
from tabletop.services.maps import (
    MAX_CORNERS,
    MAX_FEATURE_CORNERS,
    MAX_FEATURES,
    map_create,
)
from tests.web.test_bad_input import field_errors, refused
from tests.web.test_permissions import snapshot
from tests.web.world import PASSWORD, ZONES, World


def ring(i: int, corners: int) -> dict:
    """Feature i: a small regular polygon of `corners` corners, on a grid of 2" cells."""
    cx, cy = 1 + 2 * (i % 10), 1 + 2 * (i // 10)
    polygon = [
        [
            round(cx + 0.8 * math.cos(2 * math.pi * k / corners), 3),
            round(cy + 0.8 * math.sin(2 * math.pi * k / corners), 3),
        ]
        for k in range(corners)
    ]
    return {"id": f"T{i}", "type": "hindering", "polygon": polygon}


#: One corner a feature too many in all: (MAX_CORNERS // 60 + 1) features of 60 corners.
TOO_MANY = [ring(i, 60) for i in range(MAX_CORNERS // 60 + 1)]


def create(world: World, terrain: list[dict]) -> Map:
    return map_create(
        actor=world.users["gm"],
        campaign=world.home.campaign,
        name="Saw teeth",
        width=24,
        height=24,
        terrain=terrain,
    )


def test_a_map_with_more_corners_in_all_than_the_limit_is_refused_in_the_players_words(
    world: World,
) -> None:
    corners = sum(len(f["polygon"]) for f in TOO_MANY)
    error = refused(lambda: create(world, TOO_MANY), "terrain", "corners in all")
    assert error.message == (
        f"A map has at most {MAX_CORNERS:,} corners in all; this one has {corners:,}."
    )


def test_a_feature_with_more_corners_than_the_limit_is_refused_naming_it(world: World) -> None:
    terrain = [ring(0, 8), ring(1, MAX_FEATURE_CORNERS + 1)]
    error = refused(lambda: create(world, terrain), "terrain", "feature 2 (t1)")
    assert (
        f"a feature has at most {MAX_FEATURE_CORNERS} corners; "
        f"this one has {MAX_FEATURE_CORNERS + 1}" in error.message
    )


def test_access_segments_count_as_corners_of_their_feature(world: World) -> None:
    """aod's abrupt elevated terrain: each access segment is two more corners (000 [33])."""
    feature = ring(0, MAX_FEATURE_CORNERS - 1) | {"type": "abrupt_elevated", "height": 1}
    feature["access"] = [[feature["polygon"][0], feature["polygon"][1]]]
    refused(lambda: create(world, [feature]), "terrain", f"this one has {MAX_FEATURE_CORNERS + 1}")


def test_a_map_with_more_features_than_the_limit_is_refused(world: World) -> None:
    terrain = [ring(i % 100, 3) | {"id": f"F{i}"} for i in range(MAX_FEATURES + 1)]
    refused(
        lambda: create(world, terrain),
        "terrain",
        f"at most {MAX_FEATURES} features; this one has {MAX_FEATURES + 1}",
    )


def test_a_map_at_the_limits_is_saved(world: World) -> None:
    terrain = [ring(i, 60) for i in range(MAX_CORNERS // 60)]
    saved = create(world, terrain)
    assert sum(len(f["polygon"]) for f in saved.terrain) == MAX_CORNERS // 60 * 60


def test_the_map_editor_refuses_a_map_over_the_limits_at_the_terrain_field(world: World) -> None:
    client = Client()
    client.login(username="gm", password=PASSWORD)
    before = snapshot()
    response = client.post(
        reverse("map_new", args=[world.home.campaign.pk]),
        {"name": "Saw teeth", "width": "24", "height": "24", "terrain": json.dumps(TOO_MANY)},
    )
    assert response.status_code == 400
    assert f"at most {MAX_CORNERS:,} corners in all" in field_errors(response, "terrain")
    assert snapshot() == before


def test_a_battle_is_not_set_up_on_a_map_saved_before_the_limits(world: World) -> None:
    """A map written before the limits existed (or behind the services' back) reaches a
    battle only through its set-up, which refuses it at the map field."""
    home = world.home
    Map.objects.filter(pk=home.spare_map.pk).update(terrain=TOO_MANY)
    home.spare_map.refresh_from_db()
    battles = Battle.objects.count()
    refused(
        lambda: battle_create(
            actor=world.users["gm"],
            campaign=home.campaign,
            battle_map=home.spare_map,
            name="On the old map",
            sides=[(home.roster, "P1"), (home.other_roster, "P2")],
            deployment_zones={
                k: [[x * 24 / 36, y * 24 / 36] for x, y in v] for k, v in ZONES.items()
            },
        ),
        "map",
        "corners in all",
    )
    assert Battle.objects.count() == battles
