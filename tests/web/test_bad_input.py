"""Bad input gets a clear error at the field it is about, and changes nothing."""

import math
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tabletop.models import Invitation
from tabletop.protocol import FrameError, decode
from tabletop.services.battles import battle_create, battle_deploy
from tabletop.services.campaigns import campaign_create, invitation_accept, invitation_create
from tabletop.services.errors import ServiceError
from tabletop.services.maps import map_create
from tabletop.services.results import battle_result_record
from tabletop.services.rosters import roster_import, unit_profile_add
from tests.web.test_permissions import snapshot
from tests.web.world import MECH, PASSWORD, ZONES, World

SQUARE = [[6, 14], [12, 14], [12, 20], [6, 20]]
BOWTIE = [[0, 0], [4, 4], [4, 0], [0, 4]]  # its edges cross in the middle


def refused(write: Callable[[], object], field: str | None, words: str) -> ServiceError:
    """Runs `write`, expecting a refusal at `field` whose message says `words`; nothing changes."""
    before = snapshot()
    with pytest.raises(ServiceError) as caught:
        write()
    error = caught.value
    fields = error.by_field()
    assert field in fields, f"expected an error at {field!r}, got {fields}"
    assert words.lower() in " ".join(fields[field]).lower(), fields
    assert snapshot() == before
    return error


# -- campaigns -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "field", "words"),
    [
        ({"name": "  "}, "name", "needs a name"),
        ({"system": "chess"}, "system", "unknown game system"),
        ({"points_limit": 0}, "points_limit", "between 1"),
        ({"points_limit": "300"}, "points_limit", "whole number"),
        ({"points_limit": math.inf}, "points_limit", "whole number"),
        ({"table_options": {"no_such_option": 1}}, "table_options", "unknown aod table option"),
        ({"table_options": {"run_multiplier": math.nan}}, "table_options", "not finite"),
        ({"table_options": [1, 2]}, "table_options", "json object"),
    ],
)
def test_a_bad_campaign_is_refused_at_its_field(world: World, kwargs, field, words) -> None:
    args = {"gm": world.users["gm"], "name": "Kearny", "system": "aod"} | kwargs
    refused(lambda: campaign_create(**args), field, words)


def test_an_expired_or_used_invitation_is_refused(world: World) -> None:
    gm, campaign = world.users["gm"], world.home.campaign
    expired = invitation_create(campaign=campaign, created_by=gm)
    Invitation.objects.filter(pk=expired.pk).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    refused(
        lambda: invitation_accept(token=expired.token, user=world.users["outsider"]),
        "token",
        "expired",
    )
    used = invitation_create(campaign=campaign, created_by=gm)
    invitation_accept(token=used.token, user=world.users["outsider"])
    refused(
        lambda: invitation_accept(token=used.token, user=world.users["away_player"]),
        "token",
        "already been used",
    )
    refused(
        lambda: invitation_accept(token="nope", user=world.users["away_player"]),
        "token",
        "not valid",
    )


# -- units and rosters -----------------------------------------------------------


@pytest.mark.parametrize(
    ("unit_type", "stats", "points", "field", "words"),
    [
        ("battleship", MECH, 10, "unit_type", "unknown unit type"),
        ("mech", {"base": MECH["base"]}, 10, "move", "required"),
        ("mech", {**MECH, "move": "fast"}, 10, "move", "finite number"),
        ("mech", {**MECH, "move": math.nan}, 10, "move", "finite number"),
        ("mech", {**MECH, "move": math.inf}, 10, "move", "finite number"),
        ("mech", {**MECH, "move": -1}, 10, "move", "at least 0"),
        ("mech", {**MECH, "jump_jets": "yes"}, 10, "jump_jets", "true or false"),
        (
            "mech",
            {**MECH, "base": {"shape": "circle", "diameter": -2}},
            10,
            "base.diameter",
            "more than 0",
        ),
        (
            "mech",
            {**MECH, "base": {"shape": "circle", "diameter": 0}},
            10,
            "base.diameter",
            "more than 0",
        ),
        ("mech", {**MECH, "base": {"shape": "hexagon"}}, 10, "base.shape", "choose one of"),
        ("mech", {**MECH, "armour": 3}, 10, "armour", "no field"),
        ("mech", {**MECH, "altitude": "cruising"}, 10, "altitude", "only for vtol"),
        ("mech", MECH, -5, "points", "0 or more"),
        ("mech", MECH, 201, "points", "limit is 300"),
    ],
)
def test_a_bad_unit_is_refused_at_its_field(
    world: World, unit_type, stats, points, field, words
) -> None:
    roster = world.home.roster  # already 100 points of a 300-point limit
    refused(
        lambda: unit_profile_add(
            actor=world.users["owner"],
            roster=roster,
            name="X",
            unit_type=unit_type,
            stats=stats,
            points=points,
        ),
        field,
        words,
    )


def test_a_unit_with_several_mistakes_gets_each_at_its_own_field(world: World) -> None:
    error = refused(
        lambda: unit_profile_add(
            roster=world.home.roster, name="", unit_type="mech", stats={"move": "x"}
        ),
        "move",
        "finite number",
    )
    assert {"name", "move", "base"} <= set(error.by_field())


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ([], "data", "json object"),
        ({"format": "something-else"}, "data", "format"),
        (
            {"format": "tabletop-roster/1", "system": "mswars", "units": []},
            "data",
            "this campaign plays",
        ),
        ({"format": "tabletop-roster/1", "system": "aod", "units": "many"}, "data", "list"),
        (
            {
                "format": "tabletop-roster/1",
                "system": "aod",
                "units": [{"name": "A", "type": "mech", "points": 10, "stats": {"move": 5}}],
            },
            "units[0].base",
            "required",
        ),
        (
            {
                "format": "tabletop-roster/1",
                "system": "aod",
                "units": [
                    {"name": f"A{i}", "type": "mech", "points": 100, "stats": MECH}
                    for i in range(4)
                ],
            },
            "data",
            "limit is 300",
        ),
    ],
)
def test_a_bad_roster_file_imports_nothing(world: World, data, field, words) -> None:
    refused(
        lambda: roster_import(actor=world.users["owner"], campaign=world.home.campaign, data=data),
        field,
        words,
    )


# -- maps ------------------------------------------------------------------------


def feature(**overrides: object) -> dict:
    return {"id": "W1", "type": "hindering", "polygon": SQUARE} | overrides


@pytest.mark.parametrize(
    ("width", "height", "terrain", "field", "words"),
    [
        (36, 36, [feature(polygon=BOWTIE)], "terrain", "crosses itself"),
        (36, 36, [feature(polygon=[[0, 0], [1, 1]])], "terrain", "3 to"),
        (36, 36, [feature(polygon=[[0, 0], [50, 0], [50, 5]])], "terrain", "at most 36"),
        (
            36,
            36,
            [feature(polygon=[[0, 0], [math.nan, 0], [5, 5]])],
            "terrain",
            "not a finite number",
        ),
        (36, 36, [feature(polygon=[[0, 0], ["a", 0], [5, 5]])], "terrain", "finite number"),
        (36, 36, [feature(type="lava")], "terrain", "unknown terrain type"),
        (36, 36, [feature(type="elevated", height=-1)], "terrain", "at least 0"),
        # aod.md 6.4: height belongs to elevated terrain, not to a wood (the kind's keys).
        (36, 36, [feature(height=2)], "terrain", "unknown key 'height' for hindering terrain"),
        (36, 36, [feature(colour="red")], "terrain", "unknown key"),
        (36, 36, [feature(), feature()], "terrain", "share the id"),
        (36, 36, "forest", "terrain", "list of features"),
        (36, 36, [feature(id=f"T{i}") for i in range(101)], "terrain", "at most 100"),
        (math.nan, 36, [], "width", "finite number"),
        (36, math.inf, [], "height", "finite number"),
        (0, 36, [], "width", "at least 1"),
        (1000, 36, [], "width", "at most 240"),
        ("36", 36, [], "width", "finite number"),
    ],
)
def test_a_bad_map_is_refused_at_its_field(
    world: World, width, height, terrain, field, words
) -> None:
    refused(
        lambda: map_create(
            actor=world.users["gm"],
            campaign=world.home.campaign,
            name="M",
            width=width,
            height=height,
            terrain=terrain,
        ),
        field,
        words,
    )


# -- battles and results -----------------------------------------------------------


def test_a_battle_on_a_map_or_with_a_roster_of_another_campaign_is_refused(world: World) -> None:
    home, away, gm = world.home, world.away, world.users["gm"]
    sides = [(home.roster, "P1"), (home.other_roster, "P2")]

    def make(**changes: object) -> object:
        args = {"name": "B", "battle_map": home.map, "sides": sides, "deployment_zones": ZONES}
        return battle_create(actor=gm, campaign=home.campaign, **(args | changes))

    refused(lambda: make(battle_map=away.map), "map", "another campaign")
    refused(
        lambda: make(sides=[(away.roster, "P1"), (home.roster, "P2")]), "sides", "another campaign"
    )
    refused(lambda: make(sides=[(home.roster, "P1")]), "sides", "at least two sides")
    refused(
        lambda: make(sides=[(home.roster, "P1"), (home.other_roster, "P 2")]), "sides", "side names"
    )
    refused(
        lambda: make(deployment_zones={"P1": ZONES["P1"]}), "deployment_zones", "no deployment zone"
    )
    refused(
        lambda: make(deployment_zones={**ZONES, "P2": BOWTIE}), "deployment_zones", "crosses itself"
    )
    refused(lambda: make(name=""), "name", "needs a name")


def test_a_unit_deployed_outside_its_zone_is_refused_at_that_unit(world: World) -> None:
    battle, gm = world.home.battle, world.users["gm"]
    unit_id = f"U{world.home.unit.pk}"
    refused(
        lambda: battle_deploy(
            actor=gm, battle=battle, placements={unit_id: {"position": [18, 18]}}
        ),
        unit_id,
        "wholly inside",
    )
    # the centre is inside, but a 1.75" base at y = 0.5 hangs over the table's edge
    refused(
        lambda: battle_deploy(
            actor=gm, battle=battle, placements={unit_id: {"position": [18, 0.5]}}
        ),
        unit_id,
        "wholly inside",
    )
    refused(
        lambda: battle_deploy(
            actor=gm, battle=battle, placements={unit_id: {"position": [18, math.nan]}}
        ),
        unit_id,
        "finite",
    )
    refused(
        lambda: battle_deploy(
            actor=gm, battle=battle, placements={"U999999": {"position": [1, 1]}}
        ),
        "U999999",
        "no unit",
    )


def test_a_bad_result_is_refused_and_a_result_is_recorded_once(world: World) -> None:
    battle, gm, unit = world.home.battle, world.users["gm"], world.home.unit

    def record(**changes: object) -> object:
        args = {"winner_side": "P1", "outcome": "won", "unit_fates": {}}
        return battle_result_record(actor=gm, battle=battle, **(args | changes))

    refused(lambda: record(winner_side="P9"), "winner_side", "no side")
    refused(lambda: record(outcome=" "), "outcome", "describe")
    refused(lambda: record(unit_fates={str(unit.pk): "eaten"}), "unit_fates", "fate")
    refused(
        lambda: record(unit_fates={str(world.away.unit.pk): "destroyed"}),
        "unit_fates",
        "did not fight",
    )
    record()
    refused(record, None, "already recorded")


# -- pages: the error sits at the field, and the page says so ----------------------


@pytest.fixture
def owner_client(world: World) -> Client:
    client = Client()
    client.login(username="owner", password=PASSWORD)
    return client


@pytest.fixture
def gm_client(world: World) -> Client:
    client = Client()
    client.login(username="gm", password=PASSWORD)
    return client


def field_errors(response, field: str) -> str:
    """The text of the error list Django renders for `field` (empty if none)."""
    form = next(
        f
        for f in (
            response.context.get(k)
            for k in ("form", "unit_form", "deployment_form", "result_form", "invitation_form")
        )
        if f is not None and f.errors
    )
    return " ".join(form.errors.get(field, []))


UNIT = {
    "name": "Hawk",
    "unit_type": "mech",
    "points": "50",
    "move": "10",
    "base_shape": "circle",
    "base_diameter": "1.75",
}


@pytest.mark.parametrize(
    ("overrides", "field", "words"),
    [
        ({"name": ""}, "name", "required"),
        ({"move": "nan"}, "move", "enter a number"),
        ({"move": "inf"}, "move", "enter a number"),
        ({"move": "ten"}, "move", "enter a number"),
        ({"move": ""}, "move", "required"),
        ({"unit_type": "battleship"}, "unit_type", "select a valid choice"),
        ({"points": "250"}, "points", "limit is 300"),
        ({"base_diameter": ""}, "base_diameter", "needs a diameter"),
        ({"altitude": "cruising"}, "altitude", "only for vtol"),
    ],
)
def test_the_roster_builder_shows_each_error_at_its_field(
    world: World, owner_client: Client, overrides, field, words
) -> None:
    url = reverse("unit_new", args=[world.home.campaign.pk, world.home.roster.pk])
    before = snapshot()
    response = owner_client.post(url, UNIT | overrides)
    assert response.status_code == 400
    assert words in field_errors(response, field).lower()
    assert 'aria-invalid="true"' in response.content.decode()
    assert snapshot() == before


@pytest.mark.parametrize(
    ("terrain", "words"),
    [
        ('[{"type": "hindering", "polygon": [[0, 0], [4, 4], [4, 0], [0, 4]]}]', "crosses itself"),
        ('[{"type": "hindering", "polygon": [[0, 0], [NaN, 4], [4, 0]]}]', "not valid json"),
        ('[{"type": "hindering", "polygon": [[0, 0], [Infinity, 4], [4, 0]]}]', "not valid json"),
        ("[{", "not valid json"),
        ("[" + ",".join(["[1.0, 2.0]"] * 12000) + "]", "too big"),
    ],
)
def test_the_map_editor_shows_terrain_errors_at_the_terrain_field(
    world: World, gm_client: Client, terrain, words
) -> None:
    url = reverse("map_new", args=[world.home.campaign.pk])
    before = snapshot()
    response = gm_client.post(
        url, {"name": "Valley", "width": "36", "height": "36", "terrain": terrain}
    )
    assert response.status_code == 400
    assert words in field_errors(response, "terrain").lower()
    assert snapshot() == before


def test_a_missing_map_size_is_shown_at_its_field(world: World, gm_client: Client) -> None:
    response = gm_client.post(
        reverse("map_new", args=[world.home.campaign.pk]),
        {"name": "Valley", "width": "", "height": "wide"},
    )
    assert response.status_code == 400
    assert "required" in field_errors(response, "width").lower()
    assert "enter a number" in field_errors(response, "height").lower()


def test_a_request_bigger_than_the_upload_limit_is_refused(
    world: World, gm_client: Client, settings
) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 50_000
    before = snapshot()
    response = gm_client.post(
        reverse("map_new", args=[world.home.campaign.pk]),
        {"name": "Valley", "width": "36", "height": "36", "terrain": "[" + " " * 60_000 + "]"},
    )
    assert response.status_code == 400
    assert snapshot() == before


def test_a_campaign_without_a_name_is_shown_at_its_fields(world: World, gm_client: Client) -> None:
    before = snapshot()
    response = gm_client.post(
        reverse("campaigns"), {"name": "", "system": "aod", "points_limit": "x"}
    )
    assert response.status_code == 400
    assert "required" in field_errors(response, "name").lower()
    assert "whole number" in field_errors(response, "points_limit").lower()
    assert snapshot() == before


def test_a_deployment_outside_the_zone_is_shown_at_that_unit(
    world: World, gm_client: Client
) -> None:
    home = world.home
    uid = f"U{home.unit.pk}"
    other = home.other_roster.units.get()
    data = {
        f"{uid}_x": "18",
        f"{uid}_y": "18",
        f"{uid}_facing": "90",
        f"U{other.pk}_x": "18",
        f"U{other.pk}_y": "33",
        f"U{other.pk}_facing": "270",
    }
    before = snapshot()
    response = gm_client.post(
        reverse("battle_deploy", args=[home.campaign.pk, home.battle.pk]), data
    )
    assert response.status_code == 400
    assert "wholly inside" in field_errors(response, f"{uid}_x")
    assert snapshot() == before


# -- JSON nested too deeply: 400 and a clear message everywhere JSON is parsed ------------

DEEP = "[" * 40_000 + "]" * 40_000


def _deep_posts(world: World) -> dict[str, tuple[str, str, dict]]:
    """Each place a page takes JSON: (user, url, post arguments) sending DEEP there."""
    home = world.home
    campaign = home.campaign.pk
    map_form = {"name": "Valley", "width": "36", "height": "36", "terrain": DEEP}
    return {
        "map editor, new": ("gm", reverse("map_new", args=[campaign]), {"data": map_form}),
        "map editor, edit": (
            "gm",
            reverse("map", args=[campaign, home.map.pk]),
            {"data": map_form},
        ),
        "roster import, pasted": (
            "owner",
            reverse("roster_import", args=[campaign]),
            {"data": {"data": DEEP}},
        ),
        "roster import, file": (
            "owner",
            reverse("roster_import", args=[campaign]),
            {"data": {"file": SimpleUploadedFile("deep.json", DEEP.encode())}},
        ),
        "deploy by drag": (
            "gm",
            reverse("battle_deploy", args=[campaign, home.battle.pk]),
            {"data": DEEP, "content_type": "application/json"},
        ),
    }


@pytest.mark.parametrize(
    "where",
    [
        "map editor, new",
        "map editor, edit",
        "roster import, pasted",
        "roster import, file",
        "deploy by drag",
    ],
)
def test_json_nested_forty_thousand_deep_is_refused_with_a_clear_message(
    world: World, where: str
) -> None:
    user, url, post = _deep_posts(world)[where]
    client = Client()
    client.login(username=user, password=PASSWORD)
    before = snapshot()
    response = client.post(url, **post)
    assert response.status_code == 400
    assert "nested more than 64 levels deep" in response.content.decode()
    assert snapshot() == before


def test_a_ruling_asked_with_a_deeply_nested_action_is_refused(
    world: World, owner_client: Client
) -> None:
    url = reverse("battle_ruling_file", args=[world.home.battle.pk])
    before = snapshot()
    response = owner_client.get(url, {"reply": "drag-1", "action": DEEP})
    assert response.status_code == 400
    assert response.json() == {
        "error": "The JSON is nested more than 64 levels deep.",
        "field": "action",
    }
    assert snapshot() == before


def test_a_websocket_frame_nested_too_deeply_gets_a_clear_error() -> None:
    """Frames are at most 16 kB: 8,000 levels fit, and are refused before Python's parser
    recurses; 64 levels still parse (the frame's own checks judge what is inside)."""
    with pytest.raises(FrameError) as caught:
        decode('{"type": "chat", "x": ' + "[" * 8000 + "]" * 8000 + "}", None)
    assert (caught.value.code, caught.value.message) == (
        "bad_json",
        "The JSON is nested more than 64 levels deep",
    )
    brackets_in_a_string = '{"type": "chat", "text": "' + "[" * 100 + '"}'
    assert decode(brackets_in_a_string, None)["text"] == "[" * 100
    assert decode('{"type": "ping", "x": ' + "[" * 63 + "]" * 63 + "}", None)["type"] == "ping"
    with pytest.raises(FrameError):
        decode('{"type": "ping", "x": ' + "[" * 64 + "]" * 64 + "}", None)
