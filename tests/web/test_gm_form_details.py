"""Smaller things the GM met in the forms (issue 23): the unit form's type by name and
none chosen in advance, a roster file imported twice asks first, the map form's terrain
one feature a line and a saved map says so."""

import json

from django.test import Client
from django.urls import reverse

from tabletop.forms import UnitForm, compact_terrain
from tabletop.models import Map, Roster
from tabletop.selectors import roster_export
from tabletop.services import game_systems
from tabletop.services.errors import ServiceError
from tabletop.services.maps import map_update
from tabletop.services.rosters import roster_import
from tests.web.test_permissions import UNIT_FORM, snapshot
from tests.web.world import PASSWORD, World


def client_as(name: str) -> Client:
    client = Client()
    client.login(username=name, password=PASSWORD)
    return client


# -- the unit form's type ------------------------------------------------------------------


def test_the_unit_type_is_chosen_from_the_catalogues_names_and_none_is_preselected(
    world: World,
) -> None:
    for system in game_systems.system_keys():
        choices = UnitForm(system=system).fields["unit_type"].choices
        assert choices[0] == ("", "Choose a unit type…")
        labels = [label for _, label in choices[1:]]
        assert all("_" not in label for label in labels), labels
        assert len(labels) == len(game_systems.unit_types(system))
    home = world.home
    html = client_as("owner").get(reverse("roster", args=[home.campaign.pk, home.roster.pk]))
    html = html.content.decode()
    assert '<option value="colossal_mech">Colossal mech</option>' in html
    start = html.index('name="unit_type"')
    select = html[start : html.index("</select>", start)]
    # The placeholder is what the select shows: no type is chosen for the GM.
    assert select.count("selected") == 1
    assert '<option value="" selected>Choose a unit type…</option>' in select


def test_a_unit_without_a_type_is_refused_with_a_clear_message(world: World) -> None:
    home = world.home
    before = snapshot()
    answer = client_as("owner").post(
        reverse("unit_new", args=[home.campaign.pk, home.roster.pk]),
        {**UNIT_FORM, "unit_type": ""},
    )
    assert answer.status_code == 400
    assert answer.context["unit_form"].errors["unit_type"] == ["Choose the unit's type."]
    assert snapshot() == before


# -- a roster file imported twice --------------------------------------------------------------


def test_a_roster_file_imported_twice_asks_before_a_second_roster_of_that_name(
    world: World,
) -> None:
    home = world.home
    data = roster_export(home.roster)
    owner = world.users["owner"]
    try:
        roster_import(actor=owner, campaign=home.campaign, data=data)
    except ServiceError as error:
        assert error.code == "same_name" and "already have a roster named" in error.message
    else:
        raise AssertionError("a second roster of the same name was made without asking")
    url = reverse("roster_import", args=[home.campaign.pk])
    client = client_as("owner")
    before = snapshot()
    question = client.post(url, {"data": json.dumps(data)})
    assert question.status_code == 200
    assert "Import a second roster of that name?" in question.content.decode()
    assert snapshot() == before
    again = question.context["again"]
    answer = client.post(url, {"data": again["data"].value(), "second_copy": "True"})
    assert answer.status_code == 302
    assert Roster.objects.filter(campaign=home.campaign, name=home.roster.name).count() == 2


def test_a_roster_file_of_a_new_name_is_imported_without_a_question(world: World) -> None:
    home = world.home
    data = roster_export(home.roster) | {"name": "Fresh lance"}
    roster = roster_import(actor=world.users["owner"], campaign=home.campaign, data=data)
    assert roster.name == "Fresh lance"
    # Another player's roster of the same name is theirs: no question either.
    other = roster_export(home.other_roster)
    copy = roster_import(actor=world.users["owner"], campaign=home.campaign, data=other)
    assert copy.name == home.other_roster.name


# -- the map form ---------------------------------------------------------------------------


SQUARES = [
    {"id": f"T{i}", "type": "hindering", "polygon": [[i, 1], [i + 1, 1], [i + 1, 2], [i, 2]]}
    for i in range(1, 4)
]


def test_the_map_forms_terrain_is_one_feature_a_line(world: World) -> None:
    home = world.home
    map_update(
        actor=world.users["gm"],
        battle_map=home.map,
        name="Ridge",
        width=36,
        height=36,
        terrain=SQUARES,
    )
    page = client_as("gm").get(reverse("map", args=[home.campaign.pk, home.map.pk]))
    text = page.context["form"].initial["terrain"]
    assert text == compact_terrain(SQUARES)
    assert text.count("\n") == len(SQUARES) + 1  # "[", a line each, "]"
    assert json.loads(text) == SQUARES
    assert compact_terrain([]) == "[]"


def test_a_saved_map_says_it_was_saved(world: World) -> None:
    home = world.home
    client = client_as("gm")
    url = reverse("map", args=[home.campaign.pk, home.map.pk])
    form = {"name": "Ridge", "width": "36", "height": "36", "terrain": compact_terrain(SQUARES)}
    answer = client.post(url, form, follow=True)
    assert "Map &#x27;Ridge&#x27; saved." in answer.content.decode()
    assert Map.objects.get(pk=home.map.pk).terrain == SQUARES
    created = client.post(
        reverse("map_new", args=[home.campaign.pk]), form | {"name": "Vale"}, follow=True
    )
    assert "Map &#x27;Vale&#x27; saved." in created.content.decode()
