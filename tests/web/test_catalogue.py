"""The campaign's catalogue of named unit profiles: the GM curates it and shares it as a
file; players pick from it into their rosters. A bad file gets a clear error and changes
nothing; a player may not change the catalogue."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from tabletop.models import CatalogueProfile
from tabletop.selectors import catalogue_file
from tabletop.services.catalogue import catalogue_import, catalogue_profile_add, roster_pick
from tabletop.services.errors import PermissionDenied, ServiceError
from tabletop.services.inputs import MAX_JSON_BYTES
from tests.web.test_permissions import UNIT_FORM, snapshot
from tests.web.world import MECH, PASSWORD, World


def client_as(name: str) -> Client:
    client = Client()
    client.login(username=name, password=PASSWORD)
    return client


def add(world: World, name: str, points: int = 40) -> CatalogueProfile:
    return catalogue_profile_add(
        actor=world.users["gm"],
        campaign=world.home.campaign,
        name=name,
        unit_type="mech",
        stats=MECH,
        points=points,
    )


def upload(client: Client, world: World, content: bytes, name: str = "catalogue.json"):
    url = reverse("catalogue_import", args=[world.home.campaign.pk])
    return client.post(url, {"file": SimpleUploadedFile(name, content)})


def good_file(world: World, **profile) -> dict:
    entry = {"name": "Commando", "type": "mech", "points": 30, "stats": MECH} | profile
    return {"format": "tabletop-catalogue/1", "system": "aod", "profiles": [entry]}


def test_the_gm_adds_a_profile_on_the_catalogue_page_and_every_member_reads_it(
    world: World,
) -> None:
    url = reverse("catalogue", args=[world.home.campaign.pk])
    answer = client_as("gm").post(url, {**UNIT_FORM, "name": "Jenner", "points": "35"})
    assert answer.status_code == 302
    profile = CatalogueProfile.objects.get(campaign=world.home.campaign)
    assert (profile.name, profile.unit_type, profile.points) == ("Jenner", "mech", 35)
    page = client_as("spectator").get(url).content.decode()
    assert "Jenner" in page and "Mech" in page and "Add to the catalogue" not in page


def test_a_player_may_not_add_import_or_remove_catalogue_profiles(world: World) -> None:
    profile = add(world, "Locust")
    player = world.users["owner"]
    with pytest.raises(PermissionDenied):
        catalogue_profile_add(
            actor=player,
            campaign=world.home.campaign,
            name="Mine",
            unit_type="mech",
            stats=MECH,
            points=1,
        )
    with pytest.raises(PermissionDenied):
        catalogue_import(actor=player, campaign=world.home.campaign, data=good_file(world))
    before = snapshot()
    client = client_as("owner")
    assert upload(client, world, json.dumps(good_file(world)).encode()).status_code == 403
    delete = reverse("catalogue_profile_delete", args=[world.home.campaign.pk, profile.pk])
    assert client.post(delete).status_code == 403
    assert snapshot() == before


def test_a_catalogue_file_downloaded_imports_into_another_campaign_as_the_same_profiles(
    world: World,
) -> None:
    add(world, "Locust", 20)
    add(world, "Atlas", 100)
    answer = client_as("gm").get(reverse("catalogue_export", args=[world.home.campaign.pk]))
    assert answer["Content-Type"] == "application/json"
    data = json.loads(answer.content)
    assert [p["name"] for p in data["profiles"]] == ["Atlas", "Locust"]
    away = world.away.campaign
    assert catalogue_import(actor=world.users["outsider"], campaign=away, data=data) == (2, 0)
    assert catalogue_file(away)["profiles"] == data["profiles"]


def test_a_profile_of_the_same_name_is_replaced_by_an_import(world: World) -> None:
    add(world, "Commando", 10)
    client = client_as("gm")
    answer = upload(client, world, json.dumps(good_file(world, points=45)).encode())
    assert answer.status_code == 302
    assert CatalogueProfile.objects.get(name="Commando").points == 45
    page = client.get(answer["Location"]).content.decode()
    assert "0 profiles added, 1 replaced" in page


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"this is not json", "not valid json"),
        (b"\xff\xfe\x00", "not text"),
        (b"[" + b" " * (MAX_JSON_BYTES + 10) + b"]", "too big"),
        (b'{"profiles": []}', '"format": "tabletop-catalogue/1"'),
        (b"[1, 2]", "a json object"),
        (b'{"format": "tabletop-catalogue/1", "system": "mswars", "profiles": []}', "another"),
        (b'{"format": "tabletop-catalogue/1", "system": "aod", "profiles": {}}', "a list"),
        (b'{"format": "tabletop-catalogue/1", "system": "aod", "profiles": [1]}', "not an object"),
        (
            b'{"format": "tabletop-catalogue/1", "system": "aod", "profiles": [{"name": "x", '
            b'"type": "mech", "points": NaN}]}',
            "nan",
        ),
    ],
    ids=[
        "not json",
        "not text",
        "too big",
        "no format",
        "a list",
        "other system",
        "profiles not a list",
        "profile not an object",
        "nan",
    ],
)
def test_a_bad_catalogue_file_gets_a_clear_error_and_changes_nothing(
    world: World, content: bytes, words: str
) -> None:
    before = snapshot()
    answer = upload(client_as("gm"), world, content)
    assert answer.status_code == 400
    errors = " ".join(answer.context["import_form"].errors.get("file", []))
    assert words.lower() in errors.lower(), errors
    assert snapshot() == before


@pytest.mark.parametrize(
    ("profile", "words"),
    [
        ({"points": -5}, "Profile 1 (Commando): points: Points are a whole number"),
        ({"type": "colossus"}, "Profile 1 (Commando): unit_type: Unknown unit type 'colossus'"),
        ({"name": "Com\u0000mando"}, "cannot be stored"),
        ({"stats": {"move": -1, "base": MECH["base"]}}, "Profile 1 (Commando): move"),
    ],
    ids=["negative points", "unknown type", "nul in a name", "move below its minimum"],
)
def test_a_bad_profile_in_a_file_is_named_and_nothing_is_imported(
    world: World, profile: dict, words: str
) -> None:
    data = good_file(world, **profile)
    data["profiles"].insert(1, good_file(world, name="Second")["profiles"][0])
    before = snapshot()
    answer = upload(client_as("gm"), world, json.dumps(data).encode())
    assert answer.status_code == 400
    errors = " ".join(answer.context["import_form"].errors.get("file", []))
    assert words in errors, errors
    assert snapshot() == before


def test_a_file_naming_a_profile_twice_is_refused(world: World) -> None:
    data = good_file(world)
    data["profiles"] *= 2
    with pytest.raises(ServiceError, match="names 'Commando' twice"):
        catalogue_import(actor=world.users["gm"], campaign=world.home.campaign, data=data)
    assert not CatalogueProfile.objects.exists()


def test_two_profiles_may_not_share_a_name(world: World) -> None:
    add(world, "Locust")
    url = reverse("catalogue", args=[world.home.campaign.pk])
    answer = client_as("gm").post(url, {**UNIT_FORM, "name": "Locust"})
    assert answer.status_code == 400
    assert escape("already has a profile named 'Locust'") in answer.content.decode()
    assert CatalogueProfile.objects.count() == 1


def test_a_player_picks_a_profile_into_their_roster_as_a_copy(world: World) -> None:
    profile = add(world, "Locust", 20)
    roster = world.home.roster
    url = reverse("catalogue_pick", args=[world.home.campaign.pk, roster.pk])
    page = client_as("owner").get(reverse("roster", args=[world.home.campaign.pk, roster.pk]))
    assert "From the campaign's catalogue" in page.content.decode()
    assert client_as("owner").post(url, {"profile": str(profile.pk)}).status_code == 302
    unit = roster.units.get(name="Locust")
    assert (unit.unit_type, unit.points, unit.stats["move"]) == ("mech", 20, MECH["move"])
    # The catalogue changing later does not change the roster's copy.
    profile.points = 99
    profile.save()
    unit.refresh_from_db()
    assert unit.points == 20


def test_a_pick_past_the_points_limit_is_refused_with_the_total(world: World) -> None:
    profile = add(world, "Atlas", 250)  # the roster has 100 of 300 points
    with pytest.raises(ServiceError, match="350 points; the campaign's limit is 300"):
        roster_pick(actor=world.users["owner"], roster=world.home.roster, profile=profile)
    assert not world.home.roster.units.filter(name="Atlas").exists()


def test_a_player_may_not_pick_into_another_players_roster(world: World) -> None:
    profile = add(world, "Locust")
    before = snapshot()
    url = reverse("catalogue_pick", args=[world.home.campaign.pk, world.home.other_roster.pk])
    assert client_as("owner").post(url, {"profile": str(profile.pk)}).status_code == 403
    assert client_as("owner").post(url, {"profile": "x"}).status_code == 404
    assert snapshot() == before


def test_a_profile_of_another_campaigns_catalogue_cannot_be_picked(world: World) -> None:
    foreign = catalogue_profile_add(
        actor=world.users["outsider"],
        campaign=world.away.campaign,
        name="Spy",
        unit_type="mech",
        stats=MECH,
        points=1,
    )
    before = snapshot()
    with pytest.raises(ServiceError, match="not in this campaign's catalogue"):
        roster_pick(actor=world.users["owner"], roster=world.home.roster, profile=foreign)
    assert snapshot() == before
