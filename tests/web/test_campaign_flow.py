"""Results write back to the rosters; rosters round-trip as JSON; the admin covers every model."""

import json

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tabletop import selectors
from tabletop.models.roster import UnitStatus
from tabletop.services.battles import battle_create, battle_start
from tabletop.services.campaigns import invitation_accept, invitation_create
from tabletop.services.results import battle_result_record
from tabletop.services.rosters import roster_import, unit_profile_add
from tests.web.world import MECH, PASSWORD, ZONES, World


def test_a_result_destroys_units_and_lets_those_that_left_the_board_return(world: World) -> None:
    home, gm = world.home, world.users["gm"]
    scout = unit_profile_add(
        roster=home.roster, name="Scout", unit_type="mech", stats=MECH, points=20
    )
    wolf = home.other_roster.units.get()
    # the first battle was set up before the scout joined; a second one fields it
    first = battle_start(battle=home.battle, actor=gm)
    battle_result_record(
        actor=gm,
        battle=first,
        winner_side="P1",
        outcome="P1 holds the ridge",
        unit_fates={str(home.unit.pk): "off_board", str(wolf.pk): "destroyed"},
    )
    home.unit.refresh_from_db()
    wolf.refresh_from_db()
    assert home.unit.status == UnitStatus.OFF_BOARD
    assert wolf.status == UnitStatus.DESTROYED
    assert selectors.roster_points(home.other_roster) == 0  # the destroyed unit no longer counts

    reserve = unit_profile_add(
        roster=home.other_roster, name="Reserve", unit_type="mech", stats=MECH
    )
    second = battle_create(
        actor=gm,
        campaign=home.campaign,
        battle_map=home.map,
        name="Second battle",
        sides=[(home.roster, "P1"), (home.other_roster, "P2")],
        deployment_zones=ZONES,
    )
    fielded = {label["profile"] for label in second.unit_labels.values()}
    assert home.unit.pk in fielded, "a unit that left the board returns next battle (seed 003)"
    assert scout.pk in fielded and reserve.pk in fielded
    assert wolf.pk not in fielded, "a destroyed unit does not come back"
    home.unit.refresh_from_db()
    assert home.unit.status == UnitStatus.READY


def test_standings_count_wins_losses_and_losses_of_units(world: World) -> None:
    home, gm = world.home, world.users["gm"]
    wolf = home.other_roster.units.get()
    battle_result_record(
        actor=gm,
        battle=home.battle,
        winner_side="P2",
        outcome="P2 wins",
        unit_fates={str(home.unit.pk): "destroyed", str(wolf.pk): "off_board"},
    )
    table = {s.roster.pk: s for s in selectors.standings(home.campaign)}
    winner, loser = table[home.other_roster.pk], table[home.roster.pk]
    assert (winner.played, winner.won, winner.score, winner.off_board) == (1, 1, 3, 1)
    assert (loser.played, loser.lost, loser.score, loser.destroyed) == (1, 1, 0, 1)
    assert selectors.standings(home.campaign)[0].roster == home.other_roster


def test_a_roster_exported_as_json_imports_as_an_equal_roster(world: World) -> None:
    client = Client()
    client.login(username="owner", password=PASSWORD)
    home = world.home
    response = client.get(reverse("roster_export", args=[home.campaign.pk, home.roster.pk]))
    assert response["Content-Type"] == "application/json"
    data = json.loads(response.content)
    copy = roster_import(
        actor=world.users["owner"], campaign=home.campaign, data=data, second_copy=True
    )
    assert copy.pk != home.roster.pk and copy.owner == world.users["owner"]
    assert selectors.roster_export(copy)["units"] == data["units"]


def test_a_multiple_use_invitation_admits_several_people_once_each(world: World) -> None:
    invitation = invitation_create(
        campaign=world.home.campaign,
        created_by=world.users["gm"],
        role="spectator",
        single_use=False,
    )
    for name in ("outsider", "away_player"):
        membership = invitation_accept(token=invitation.token, user=world.users[name])
        assert membership.role == "spectator"
    again = invitation_accept(token=invitation.token, user=world.users["outsider"])
    assert again.role == "spectator"
    invitation.refresh_from_db()
    assert invitation.uses == 2


def test_the_campaign_page_shows_members_rosters_battles_standings_and_log(world: World) -> None:
    client = Client()
    client.login(username="spectator", password=PASSWORD)
    page = client.get(reverse("campaign", args=[world.home.campaign.pk])).content.decode()
    for text in (
        "Members",
        "owner",
        "Home Lance",
        "100 / 300",
        "Home battle",
        "Standings",
        "Campaign log",
        "mustered Home Lance",
    ):
        assert text in page
    assert "Create invitation link" not in page  # the GM's tools are the GM's


def test_user_text_reaches_the_page_escaped(world: World) -> None:
    unit_profile_add(
        roster=world.home.roster, name="<script>alert(1)</script>", unit_type="mech", stats=MECH
    )
    client = Client()
    client.login(username="owner", password=PASSWORD)
    page = client.get(
        reverse("roster", args=[world.home.campaign.pk, world.home.roster.pk])
    ).content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


@pytest.mark.django_db
def test_every_model_has_an_admin_page_that_opens() -> None:
    get_user_model().objects.create_superuser("root", password=PASSWORD)
    client = Client()
    client.login(username="root", password=PASSWORD)
    for model in apps.get_app_config("tabletop").get_models():
        assert admin.site.is_registered(model), f"{model.__name__} has no admin"
        url = reverse(f"admin:tabletop_{model._meta.model_name}_changelist")
        assert client.get(url).status_code == 200, url
