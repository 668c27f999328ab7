"""Who may change what: every role against every write, and objects of other campaigns.

The GM changes the campaign, maps, battles and results; a player changes only
their own rosters; a spectator only reads. A refused write changes nothing:
anonymous visitors are sent to log in, non-members get 404 (the campaign is
not theirs to know of), members without the right get 403.
"""

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tabletop import models
from tabletop.services.catalogue import catalogue_profile_add
from tabletop.services.results import battle_result_record
from tests.web.world import MECH, PASSWORD, World

ROLES = ["gm", "owner", "other", "spectator", "outsider", "anonymous"]
FIELDERS = {"gm", "owner", "other"}  # the members who may bring (their own) rosters

TRACKED = [
    models.Campaign,
    models.Membership,
    models.Invitation,
    models.Roster,
    models.UnitProfile,
    models.Map,
    models.Battle,
    models.BattleSide,
    models.BattleResult,
    models.CatalogueProfile,
    models.ResultCorrection,
]


def snapshot() -> dict[str, list[dict]]:
    """Every row a campaign write could touch (the log is left out: reads do not write it)."""
    return {m.__name__: list(m.objects.order_by("pk").values()) for m in TRACKED}


UNIT_FORM = {
    "name": "Shadow Hawk",
    "unit_type": "mech",
    "points": "50",
    "move": "10",
    "base_shape": "circle",
    "base_diameter": "1.75",
}
IMPORTED = '{"format": "tabletop-roster/1", "system": "aod", "name": "Imported", "units": []}'
TERRAIN = '[{"id": "W1", "type": "hindering", "polygon": [[6, 14], [12, 14], [12, 20], [6, 20]]}]'


@dataclass(frozen=True)
class Write:
    name: str
    allowed: frozenset[str]
    request: Callable[[World], tuple[str, dict]]

    def __str__(self) -> str:
        return self.name


def _c(w: World) -> int:
    return w.home.campaign.pk


def _battle_fates(w: World) -> dict:
    return {
        "winner_side": "P1",
        "outcome": "P1 holds the ridge",
        **{
            f"fate_{u.pk}": "ready"
            for r in (w.home.roster, w.home.other_roster)
            for u in r.units.all()
        },
    }


def _profile(w: World, name: str = "Locust") -> models.CatalogueProfile:
    """A profile in campaign A's catalogue (made before the write is tried)."""
    return catalogue_profile_add(
        actor=w.users["gm"],
        campaign=w.home.campaign,
        name=name,
        unit_type="mech",
        stats=MECH,
        points=20,
    )


def _recorded(w: World) -> dict:
    """Records campaign A's battle (P1 won) and gives the correction's form: P2 won."""
    battle_result_record(
        actor=w.users["gm"],
        battle=w.home.battle,
        winner_side="P1",
        outcome="P1 holds the ridge",
        unit_fates={},
    )
    return {f"correct-{k}": v for k, v in _battle_fates(w).items()} | {"correct-winner_side": "P2"}


CATALOGUE_FILE = (
    '{"format": "tabletop-catalogue/1", "system": "aod", "profiles": '
    '[{"name": "Commando", "type": "mech", "points": 30, '
    '"stats": {"move": 10, "base": {"shape": "circle", "diameter": 1.75}}}]}'
)


GM = frozenset({"gm"})
OWNER = frozenset({"owner"})
WRITES = [
    Write(
        "campaign settings",
        GM,
        lambda w: (
            reverse("campaign_settings", args=[_c(w)]),
            {"name": "Renamed", "points_limit": "400", "table_options": ""},
        ),
    ),
    Write(
        "invitation",
        GM,
        lambda w: (
            reverse("invitation_new", args=[_c(w)]),
            {"role": "player", "valid_days": "7", "single_use": "on"},
        ),
    ),
    Write(
        "member role",
        GM,
        lambda w: (
            reverse("member_role", args=[_c(w), w.users["other"].pk]),
            {"role": "spectator"},
        ),
    ),
    Write(
        "roster create",
        frozenset(FIELDERS),
        lambda w: (reverse("roster_new", args=[_c(w)]), {"name": "New force", "faction": ""}),
    ),
    Write(
        "roster import",
        frozenset(FIELDERS),
        lambda w: (
            reverse("roster_import", args=[_c(w)]),
            {"data": IMPORTED},
        ),
    ),
    Write(
        "roster rename",
        OWNER,
        lambda w: (
            reverse("roster", args=[_c(w), w.home.roster.pk]),
            {"name": "Renamed lance", "faction": "Republic"},
        ),
    ),
    Write(
        "unit add",
        OWNER,
        lambda w: (reverse("unit_new", args=[_c(w), w.home.roster.pk]), UNIT_FORM),
    ),
    Write(
        "unit edit",
        OWNER,
        lambda w: (
            reverse("unit", args=[_c(w), w.home.roster.pk, w.home.unit.pk]),
            {**UNIT_FORM, "name": "Atlas II"},
        ),
    ),
    Write(
        "unit remove",
        OWNER,
        lambda w: (reverse("unit_delete", args=[_c(w), w.home.roster.pk, w.home.unit.pk]), {}),
    ),
    Write(
        "map create",
        GM,
        lambda w: (
            reverse("map_new", args=[_c(w)]),
            {"name": "Valley", "width": "48", "height": "36", "terrain": TERRAIN},
        ),
    ),
    Write(
        "map edit",
        GM,
        lambda w: (
            reverse("map", args=[_c(w), w.home.map.pk]),
            {"name": "Ridge", "width": "36", "height": "36", "terrain": TERRAIN},
        ),
    ),
    Write(
        "map delete", GM, lambda w: (reverse("map_delete", args=[_c(w), w.home.spare_map.pk]), {})
    ),
    Write(
        "battle create",
        GM,
        lambda w: (
            reverse("battle_new", args=[_c(w)]),
            {
                "name": "Second battle",
                "map": str(w.home.map.pk),
                "zone_depth": "6",
                f"side_{w.home.roster.pk}": "P1",
                f"side_{w.home.other_roster.pk}": "P2",
            },
        ),
    ),
    Write(
        "battle deploy",
        GM,
        lambda w: (
            reverse("battle_deploy", args=[_c(w), w.home.battle.pk]),
            {
                f"U{u.pk}_{k}": v
                for u in (w.home.unit,)
                for k, v in (("x", "20"), ("y", "3"), ("facing", "90"))
            }
            | {
                f"U{u.pk}_{k}": v
                for u in w.home.other_roster.units.all()
                for k, v in (("x", "20"), ("y", "33"), ("facing", "270"))
            },
        ),
    ),
    Write(
        "battle start", GM, lambda w: (reverse("battle_start", args=[_c(w), w.home.battle.pk]), {})
    ),
    Write(
        "battle result",
        GM,
        lambda w: (reverse("battle_result", args=[_c(w), w.home.battle.pk]), _battle_fates(w)),
    ),
    Write(
        "result correction",
        GM,
        lambda w: (
            reverse("battle_result_correct", args=[_c(w), w.home.battle.pk]),
            _recorded(w),
        ),
    ),
    Write(
        "catalogue add",
        GM,
        lambda w: (reverse("catalogue", args=[_c(w)]), {**UNIT_FORM, "name": "Jenner"}),
    ),
    Write(
        "catalogue edit",
        GM,
        lambda w: (
            reverse("catalogue_profile", args=[_c(w), _profile(w).pk]),
            {**UNIT_FORM, "name": "Locust II"},
        ),
    ),
    Write(
        "catalogue remove",
        GM,
        lambda w: (reverse("catalogue_profile_delete", args=[_c(w), _profile(w).pk]), {}),
    ),
    Write(
        "catalogue import",
        GM,
        lambda w: (
            reverse("catalogue_import", args=[_c(w)]),
            {"file": SimpleUploadedFile("catalogue.json", CATALOGUE_FILE.encode())},
        ),
    ),
    Write(
        "catalogue pick",
        OWNER,
        lambda w: (
            reverse("catalogue_pick", args=[_c(w), w.home.roster.pk]),
            {"profile": str(_profile(w).pk)},
        ),
    ),
]


def client_as(world: World, role: str) -> Client:
    client = Client()
    if role != "anonymous":
        assert client.login(username=role, password=PASSWORD)
    return client


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("write", WRITES, ids=str)
def test_every_role_against_every_write(world: World, write: Write, role: str) -> None:
    url, data = write.request(world)
    before = snapshot()
    response = client_as(world, role).post(url, data)
    after = snapshot()
    if role in write.allowed:
        assert response.status_code == 302, response.content.decode()[:2000]
        assert after != before, f"{role} was allowed to {write} but nothing changed"
        return
    assert after == before, f"{role} could {write}"
    if role == "anonymous":
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    elif role == "outsider":
        assert response.status_code == 404
    else:
        assert response.status_code == 403


def _foreign_urls(w: World) -> list[str]:
    """Campaign A's objects, reached through campaign B's pages (whose GM is signed in)."""
    b, a = w.away.campaign.pk, w.home
    return [
        reverse("roster", args=[b, a.roster.pk]),
        reverse("unit_new", args=[b, a.roster.pk]),
        reverse("unit", args=[b, a.roster.pk, a.unit.pk]),
        reverse("unit_delete", args=[b, a.roster.pk, a.unit.pk]),
        reverse("unit", args=[b, w.away.roster.pk, a.unit.pk]),
        reverse("unit_delete", args=[b, w.away.roster.pk, a.unit.pk]),
        reverse("map", args=[b, a.map.pk]),
        reverse("map_delete", args=[b, a.spare_map.pk]),
        reverse("battle", args=[b, a.battle.pk]),
        reverse("battle_deploy", args=[b, a.battle.pk]),
        reverse("battle_start", args=[b, a.battle.pk]),
        reverse("battle_result", args=[b, a.battle.pk]),
        reverse("roster_export", args=[b, a.roster.pk]),
        reverse("member_role", args=[b, w.users["owner"].pk]),
        reverse("battle_result_correct", args=[b, a.battle.pk]),
        reverse("catalogue_profile", args=[b, _profile(w).pk]),
        reverse("catalogue_profile_delete", args=[b, _profile(w, "Wasp").pk]),
        reverse("catalogue_pick", args=[b, a.roster.pk]),
    ]


def test_objects_of_another_campaign_reached_by_id_are_not_found_and_unchanged(
    world: World,
) -> None:
    client = client_as(world, "outsider")  # the GM of campaign B
    data = {
        **UNIT_FORM,
        "name": "Hijack",
        "width": "10",
        "height": "10",
        "terrain": "[]",
        "role": "spectator",
        "winner_side": "",
        "outcome": "x",
    }
    for url in _foreign_urls(world):
        before = snapshot()
        assert client.post(url, data).status_code == 404, url
        assert client.get(url).status_code in (404, 405), url  # 405: a POST-only address
        assert snapshot() == before, url


def test_a_battle_form_cannot_take_a_map_or_roster_of_another_campaign(world: World) -> None:
    client = client_as(world, "gm")
    before = snapshot()
    response = client.post(
        reverse("battle_new", args=[world.home.campaign.pk]),
        {
            "name": "Raid",
            "map": str(world.away.map.pk),
            "zone_depth": "6",
            f"side_{world.away.roster.pk}": "P1",
            f"side_{world.home.roster.pk}": "P2",
        },
    )
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert snapshot() == before


def test_a_spectator_and_a_player_read_the_campaign_pages(world: World) -> None:
    home = world.home
    pages = [
        reverse("campaign", args=[home.campaign.pk]),
        reverse("roster", args=[home.campaign.pk, home.roster.pk]),
        reverse("roster_export", args=[home.campaign.pk, home.roster.pk]),
        reverse("battle", args=[home.campaign.pk, home.battle.pk]),
        reverse("map", args=[home.campaign.pk, home.map.pk]),
    ]
    for role in ("spectator", "other"):
        client = client_as(world, role)
        for url in pages:
            assert client.get(url).status_code == 200, (role, url)
    for role, expected in (("outsider", 404), ("anonymous", 302)):
        client = client_as(world, role)
        for url in pages:
            assert client.get(url).status_code == expected, (role, url)


def test_gm_only_pages_are_forbidden_to_players_and_spectators(world: World) -> None:
    c = world.home.campaign.pk
    for role in ("owner", "spectator"):
        client = client_as(world, role)
        for url in (
            reverse("campaign_settings", args=[c]),
            reverse("map_new", args=[c]),
            reverse("battle_new", args=[c]),
        ):
            assert client.get(url).status_code == 403, (role, url)
