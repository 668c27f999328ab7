"""The campaign settings' table options: one field per option of the system's published
schema (no JSON to type); what the GM leaves alone stays the book's; the engine still
judges every value, and a refusal is shown at its option and changes nothing."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from tabletop.models import Campaign
from tabletop.services import game_systems
from tabletop.services.campaigns import campaign_create
from tests.web.test_permissions import snapshot
from tests.web.world import PASSWORD, World


def gm(world: World) -> Client:
    client = Client()
    client.login(username="gm", password=PASSWORD)
    return client


def as_posted(response) -> dict[str, str]:
    """What the settings page's form posts as it stands (each input's value)."""
    form = response.context["form"]
    data = {}
    for bound in form:
        value = bound.value()
        if value is None or value is False:
            continue
        data[bound.html_name] = "on" if value is True else str(value)
    return data


def settings_url(campaign: Campaign) -> str:
    return reverse("campaign_settings", args=[campaign.pk])


def test_the_settings_page_shows_each_option_as_a_field_at_the_books_default(
    world: World,
) -> None:
    page = gm(world).get(settings_url(world.home.campaign))
    html = page.content.decode()
    assert 'name="table_options"' not in html  # no JSON to type any more
    assert "Run multiplier" in html and "Default: 1." in html
    assert "Movement matrix" in html
    assert '<th scope="row">VTOL, nap of the earth</th>' in html  # the engine's words
    data = as_posted(page)
    assert data["option-run_multiplier"] == "1.0"
    assert data["option-hindering_entry"] == "contact"
    assert data["option-orders_from_points"] == "on"
    # The matrix is a grid of choices, the book's cells chosen.
    assert data["option-terrain_matrix-mech-4"] == "proh"  # a mech may not enter deep water
    assert data["option-terrain_matrix-colossal_mech-4"] == "hind"


@pytest.mark.parametrize("system", game_systems.system_keys())
def test_every_systems_options_render_and_save_unchanged_as_the_books(
    world: World, system: str
) -> None:
    campaign = campaign_create(gm=world.users["gm"], name="Any", system=system)
    client = gm(world)
    page = client.get(settings_url(campaign))
    assert page.status_code == 200
    for spec in game_systems.table_option_schema(system).values():
        assert escape(spec["label"]) in page.content.decode()
    answer = client.post(settings_url(campaign), as_posted(page))
    assert answer.status_code == 302, answer.content.decode()[:3000]
    campaign.refresh_from_db()
    assert campaign.table_options == {}


def test_changed_options_are_kept_and_only_what_differs(world: World) -> None:
    client = gm(world)
    campaign = world.home.campaign
    data = as_posted(client.get(settings_url(campaign)))
    data["option-run_multiplier"] = "1.5"
    data["option-hindering_entry"] = "centre"
    del data["option-orders_from_points"]  # unticked
    data["option-terrain_matrix-mech-4"] = "hind"
    assert client.post(settings_url(campaign), data).status_code == 302
    campaign.refresh_from_db()
    assert campaign.table_options == {
        "run_multiplier": 1.5,
        "hindering_entry": "centre",
        "orders_from_points": False,
        "terrain_matrix": {"mech": {"deep_water": "hind"}},
    }
    # Shown again as chosen.
    again = as_posted(client.get(settings_url(campaign)))
    assert again["option-run_multiplier"] == "1.5"
    assert again["option-terrain_matrix-mech-4"] == "hind"
    assert "option-orders_from_points" not in again


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("0", "more than 0"),
        ("-1", "more than 0"),
        ("nan", "enter a number"),
        ("inf", "enter a number"),
        ("1e999", "enter a number"),
        ("fast", "enter a number"),
    ],
)
def test_an_option_out_of_range_or_not_a_number_is_refused_at_its_field(
    world: World, value: str, words: str
) -> None:
    client = gm(world)
    campaign = world.home.campaign
    data = as_posted(client.get(settings_url(campaign))) | {"option-run_multiplier": value}
    before = snapshot()
    answer = client.post(settings_url(campaign), data)
    assert answer.status_code == 400
    errors = " ".join(answer.context["form"].errors.get("option-run_multiplier", []))
    assert words in errors.lower()
    assert snapshot() == before


def test_a_choice_the_schema_does_not_offer_is_refused(world: World) -> None:
    client = gm(world)
    campaign = world.home.campaign
    data = as_posted(client.get(settings_url(campaign)))
    data["option-hindering_entry"] = "anywhere"
    data["option-terrain_matrix-mech-0"] = "teleport"
    before = snapshot()
    answer = client.post(settings_url(campaign), data)
    assert answer.status_code == 400
    errors = answer.context["form"].errors
    assert "valid choice" in " ".join(errors["option-hindering_entry"])
    assert "valid choice" in " ".join(errors["option-terrain_matrix-mech-0"])
    assert snapshot() == before


def test_what_only_the_engine_judges_is_refused_at_its_option(world: World) -> None:
    """Turn bands that do not ascend pass each field's own checks; the service asks the
    engine, and its refusal is shown under the bands."""
    campaign = campaign_create(gm=world.users["gm"], name="Bands", system="lasergrenadiers")
    client = gm(world)
    data = as_posted(client.get(settings_url(campaign)))
    data["option-turn_bands-0-0"] = "90"
    data["option-turn_bands-1-0"] = "45"
    before = snapshot()
    answer = client.post(settings_url(campaign), data)
    assert answer.status_code == 400
    html = answer.content.decode()
    assert "bands must ascend" in html
    group = next(g for g in answer.context["form"].options.groups() if g.key == "turn_bands")
    assert any("ascend" in message for message in group.errors)
    assert snapshot() == before


def test_emptied_turn_band_rows_are_dropped(world: World) -> None:
    campaign = campaign_create(gm=world.users["gm"], name="Bands", system="lasergrenadiers")
    client = gm(world)
    data = as_posted(client.get(settings_url(campaign)))
    for part in (0, 1):
        data.pop(f"option-turn_bands-2-{part}")
    data["option-turn_bands-1-1"] = "0.5"
    assert client.post(settings_url(campaign), data).status_code == 302
    campaign.refresh_from_db()
    bands = campaign.table_options["turn_bands"]
    assert [b[0] for b in bands] == [45, 90, 180] and bands[1][1] == 0.5


def test_a_player_may_not_change_the_table_options(world: World) -> None:
    client = gm(world)
    campaign = world.home.campaign
    data = as_posted(client.get(settings_url(campaign))) | {"option-run_multiplier": "2"}
    player = Client()
    player.login(username="owner", password=PASSWORD)
    before = snapshot()
    assert player.post(settings_url(campaign), data).status_code == 403
    assert snapshot() == before


def test_a_name_with_a_nul_character_is_refused(world: World) -> None:
    client = gm(world)
    campaign = world.home.campaign
    data = as_posted(client.get(settings_url(campaign))) | {"name": "Ke\x00arny"}
    before = snapshot()
    answer = client.post(settings_url(campaign), data)
    assert answer.status_code == 400 and "name" in answer.context["form"].errors
    assert snapshot() == before
