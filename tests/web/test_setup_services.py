"""Setting up a battle (issue 13), below the browser: who may deploy what, the engine's
placement check in a player's words, the catalogue's defaults, invitations carried
through sign-up, roster files uploaded, and the battle page's answer to a dropped unit."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

import rules
from tabletop.models import Battle, Membership, Roster
from tabletop.selectors import roster_export
from tabletop.services import game_systems
from tabletop.services.battle_setup import Force, Table, UnitEntry, battle_set_up
from tabletop.services.battles import battle_deploy
from tabletop.services.campaigns import campaign_create, invitation_create
from tabletop.services.errors import PermissionDenied, ServiceError

pytestmark = pytest.mark.django_db

MECH = {"move": 8, "base": {"shape": "circle", "diameter": 1.75}}


#: Deep water W1 lies in P1's zone, along the south edge.
POND = Table(
    "Pond",
    36,
    36,
    [{"id": "W1", "type": "deep_water", "polygon": [[20, 0], [26, 0], [26, 5], [20, 5]]}],
)


def pond_battle(who: dict, campaign: str) -> Battle:
    """aod, in deployment on the POND: p1's Atlas and Hunchback (P1, south), p2's Ryoken
    (P2, north), 100 points each; the "watcher" in `who`, if any, a spectator."""
    forces = [
        Force(
            "P1",
            "P1 force",
            who["p1"],
            [UnitEntry(n, "mech", MECH, 100) for n in ("Atlas", "Hunchback")],
        ),
        Force("P2", "P2 force", who["p2"], [UnitEntry("Ryoken", "mech", MECH, 100)]),
    ]
    return battle_set_up(
        system="aod",
        gm=who["gm"],
        campaign=campaign,
        members=[(who[r], "spectator" if r == "watcher" else "player") for r in who if r != "gm"],
        table=POND,
        forces=forces,
        battle="Pond fight",
        deployment_zones={
            "P1": [[0, 0], [36, 0], [36, 6], [0, 6]],
            "P2": [[0, 30], [36, 30], [36, 36], [0, 36]],
        },
        start=False,
    )


def deploying_battle() -> tuple[Battle, dict]:
    """The pond battle, a spectator watching."""
    User = get_user_model()
    who = {
        r: User.objects.create_user(f"s-{r}", password="pw-12345678")
        for r in ("gm", "p1", "p2", "watcher")
    }
    return pond_battle(who, "Setup"), who


def ids(battle: Battle) -> dict[str, str]:
    return {label["name"]: uid for uid, label in battle.unit_labels.items()}


def position(battle: Battle, unit: str) -> list[float]:
    battle.refresh_from_db()
    return next(u for u in battle.state["units"] if u["id"] == unit)["position"]


def test_a_player_deploys_their_own_unit_the_gm_any_and_a_spectator_none() -> None:
    battle, who = deploying_battle()
    unit = ids(battle)
    battle_deploy(actor=who["p1"], battle=battle, placements={unit["Atlas"]: {"position": [12, 3]}})
    assert position(battle, unit["Atlas"]) == [12, 3]
    with pytest.raises(PermissionDenied, match="Ryoken is not yours to deploy"):
        battle_deploy(
            actor=who["p1"], battle=battle, placements={unit["Ryoken"]: {"position": [12, 33]}}
        )
    with pytest.raises(PermissionDenied, match="spectators watch"):
        battle_deploy(
            actor=who["watcher"], battle=battle, placements={unit["Atlas"]: {"position": [9, 3]}}
        )
    battle_deploy(
        actor=who["gm"], battle=battle, placements={unit["Ryoken"]: {"position": [12, 33]}}
    )
    assert position(battle, unit["Ryoken"]) == [12, 33]


@pytest.mark.parametrize(
    ("where", "words"),
    [
        ([23, 2.5], "Atlas may not stand in W1 (deep water)."),  # AOD-D44: prohibited
        ([4.5, 1.5], "Atlas would overlap the base of Hunchback."),  # 001 [19]
        ([12, 20], "Atlas must be wholly inside side P1's deployment zone."),
    ],
)
def test_a_placement_the_engine_refuses_is_refused_in_a_players_words(where, words) -> None:
    battle, who = deploying_battle()
    atlas, hunchback = ids(battle)["Atlas"], ids(battle)["Hunchback"]
    # The Hunchback out of the tray, onto the table where it was laid out.
    battle_deploy(actor=who["p1"], battle=battle, placements={hunchback: {"position": [4.5, 1.5]}})
    before = position(battle, atlas)
    with pytest.raises(ServiceError) as refused:
        battle_deploy(actor=who["p1"], battle=battle, placements={atlas: {"position": where}})
    assert refused.value.message == words and refused.value.field == atlas
    assert position(battle, atlas) == before


@pytest.mark.parametrize("system", sorted(rules.SYSTEMS))
def test_every_catalogue_entry_is_a_unit_its_system_accepts(system: str) -> None:
    entries = game_systems.unit_catalogue(system)
    assert [e["type"] for e in entries] == game_systems.unit_types(system)
    for entry in entries:
        assert "base" in entry["stats"], entry
        assert game_systems.unit_errors(system, entry["type"], entry["stats"]) == {}, entry


def test_signing_up_from_an_invitation_link_joins_the_campaign() -> None:
    User = get_user_model()
    gm = User.objects.create_user("s-gm", password="pw-12345678")
    campaign = campaign_create(gm=gm, name="Kearny", system="aod")
    link = reverse("join", args=[invitation_create(campaign=campaign, created_by=gm).token])
    visitor = Client()
    page = visitor.get(link)
    assert page.status_code == 200 and f"/accounts/signup/?next={link}" in page.content.decode()
    answer = visitor.post(
        reverse("signup"),
        {
            "username": "newcomer",
            "email": "n@example.org",
            "password1": "a-Long-pass-2026",
            "password2": "a-Long-pass-2026",
            "next": link,
        },
    )
    assert answer.status_code == 302 and answer["Location"] == reverse(
        "campaign", args=[campaign.pk]
    )
    assert Membership.objects.get(campaign=campaign, user__username="newcomer").role == "player"


def test_a_used_link_says_so_and_its_page_offers_no_join() -> None:
    battle, who = deploying_battle()
    invitation = invitation_create(campaign=battle.campaign, created_by=who["gm"])
    outsider = get_user_model().objects.create_user("s-out", password="pw-12345678")
    late = get_user_model().objects.create_user("s-late", password="pw-12345678")
    first, second = Client(), Client()
    first.force_login(outsider)
    second.force_login(late)
    first.post(reverse("join", args=[invitation.token]))
    page = second.get(reverse("join", args=[invitation.token])).content.decode()
    assert "already been used" in page and "Join the campaign" not in page


def test_a_roster_file_uploaded_makes_the_same_roster() -> None:
    battle, who = deploying_battle()
    roster = Roster.objects.get(owner=who["p1"])
    file = SimpleUploadedFile("force.json", json.dumps(roster_export(roster)).encode())
    client = Client()
    client.force_login(who["p1"])
    url = reverse("roster_import", args=[battle.campaign_id])
    answer = client.post(url, {"file": file})
    # The player already has a roster of that name: the page asks before a second one.
    assert "already have a roster named" in answer.content.decode()
    assert Roster.objects.filter(owner=who["p1"]).count() == 1
    again = answer.context["again"]
    answer = client.post(url, {"data": again["data"].value(), "second_copy": "True"})
    assert answer.status_code == 302
    copy = Roster.objects.filter(owner=who["p1"]).exclude(pk=roster.pk).get()
    assert sorted(copy.units.values_list("name", flat=True)) == ["Atlas", "Hunchback"]


def test_a_unit_dropped_on_the_battle_page_is_answered_with_where_it_stands_or_why_not() -> None:
    battle, who = deploying_battle()
    unit = ids(battle)
    url = reverse("battle_deploy", args=[battle.campaign_id, battle.pk])
    client = Client()
    client.force_login(who["p1"])

    def drop(unit_id: str, where: list[float]) -> tuple[int, dict]:
        body = json.dumps({"unit": unit_id, "position": where, "facing": 90})
        answer = client.post(url, body, content_type="application/json")
        return answer.status_code, answer.json()

    assert drop(unit["Atlas"], [10, 3]) == (
        200,
        {"unit": unit["Atlas"], "position": [10, 3], "facing": 90},
    )
    status, refused = drop(unit["Atlas"], [10, 12])
    assert status == 400 and "deployment zone" in refused["error"]
    status, refused = drop(unit["Ryoken"], [10, 33])
    assert status == 403 and "not yours" in refused["error"]
