"""A recorded result corrected by the GM: the result and the rosters change, and the
correction is kept (who, when, each value before and after) on the battle page and in
the campaign log. Nobody else may correct; a correction that changes nothing, or text
the database cannot store, is refused and changes nothing."""

import pytest
from django.test import Client
from django.urls import reverse

from tabletop.models import BattleResult, CampaignLogEntry, ResultCorrection
from tabletop.models.roster import UnitStatus
from tabletop.services.errors import PermissionDenied, ServiceError
from tabletop.services.results import battle_result_correct, battle_result_record
from tests.web.test_permissions import snapshot
from tests.web.world import PASSWORD, World


def record(world: World) -> BattleResult:
    return battle_result_record(
        actor=world.users["gm"],
        battle=world.home.battle,
        winner_side="P1",
        outcome="P1 holds the ridge",
        unit_fates={str(world.home.unit.pk): "destroyed"},
    )


def client_as(name: str) -> Client:
    client = Client()
    client.login(username=name, password=PASSWORD)
    return client


def correction_post(world: World, **changes: str) -> dict:
    fates = {
        f"correct-fate_{u.pk}": "ready"
        for r in (world.home.roster, world.home.other_roster)
        for u in r.units.all()
    }
    fates[f"correct-fate_{world.home.unit.pk}"] = "destroyed"
    data = {"correct-winner_side": "P1", "correct-outcome": "P1 holds the ridge", **fates}
    return data | {f"correct-{k}": v for k, v in changes.items()}


def test_the_gm_corrects_the_winner_and_a_fate_and_the_correction_is_kept(world: World) -> None:
    record(world)
    home = world.home
    url = reverse("battle_result_correct", args=[home.campaign.pk, home.battle.pk])
    data = correction_post(world, winner_side="P2", outcome="P2 took the ridge at dusk")
    data[f"correct-fate_{home.unit.pk}"] = "off_board"
    answer = client_as("gm").post(url, data)
    assert answer.status_code == 302
    result = BattleResult.objects.get(battle=home.battle)
    assert (result.winner_side, result.outcome) == ("P2", "P2 took the ridge at dusk")
    home.unit.refresh_from_db()
    assert home.unit.status == UnitStatus.OFF_BOARD  # the roster follows the correction
    correction = ResultCorrection.objects.get(result=result)
    assert correction.corrected_by == world.users["gm"] and correction.corrected_at
    assert correction.changes == [
        {"field": "Winner", "old": "side P1 won", "new": "side P2 won"},
        {"field": "Outcome", "old": "P1 holds the ridge", "new": "P2 took the ridge at dusk"},
        {"field": "Fate of Lance Atlas", "old": "Destroyed", "new": "Left the board"},
    ]
    # On the battle page, for every member, and in the campaign's log.
    page = client_as("owner").get(reverse("battle", args=[home.campaign.pk, home.battle.pk]))
    html = page.content.decode()
    assert "Corrected by gm" in html
    assert "<del>side P1 won</del> → <ins>side P2 won</ins>" in html
    assert "Correct the result" not in html  # the player reads, only the GM corrects
    log = CampaignLogEntry.objects.filter(campaign=home.campaign).latest("pk").text
    assert log.startswith("gm corrected the result of Home battle: Winner: side P1 won → side P2")
    assert (
        "Winner: side P1 won"
        in client_as("owner").get(reverse("campaign", args=[home.campaign.pk])).content.decode()
    )


@pytest.mark.parametrize("who", ["owner", "other", "spectator"])
def test_nobody_but_the_gm_may_correct_a_result(world: World, who: str) -> None:
    record(world)
    with pytest.raises(PermissionDenied):
        battle_result_correct(
            actor=world.users[who],
            battle=world.home.battle,
            winner_side="P2",
            outcome="x",
            unit_fates={},
        )
    before = snapshot()
    url = reverse("battle_result_correct", args=[world.home.campaign.pk, world.home.battle.pk])
    answer = client_as(who).post(url, correction_post(world, winner_side="P2"))
    assert answer.status_code == 403
    assert snapshot() == before


def test_a_correction_that_changes_nothing_is_refused(world: World) -> None:
    record(world)
    before = snapshot()
    url = reverse("battle_result_correct", args=[world.home.campaign.pk, world.home.battle.pk])
    answer = client_as("gm").post(url, correction_post(world))
    assert answer.status_code == 400
    assert "Nothing to correct" in answer.content.decode()
    assert snapshot() == before


def test_a_result_not_yet_recorded_cannot_be_corrected(world: World) -> None:
    with pytest.raises(ServiceError, match="no result to correct"):
        battle_result_correct(
            actor=world.users["gm"],
            battle=world.home.battle,
            winner_side="P2",
            outcome="x",
            unit_fates={},
        )


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"outcome": "P2\x00 wins"}, "cannot be stored"),
        ({"outcome": "x" * 201}, "at most 200"),
        ({"winner_side": "P9"}, "No side 'P9'"),
        ({"unit_fates": {"999999": "destroyed"}}, "did not fight"),
        ({"unit_fates": {"x": float("nan")}}, "did not fight"),
    ],
)
def test_a_bad_correction_is_refused_and_changes_nothing(
    world: World, kwargs: dict, words: str
) -> None:
    record(world)
    before = snapshot()
    args = {"winner_side": "P2", "outcome": "P2 wins", "unit_fates": {}} | kwargs
    with pytest.raises(ServiceError, match=words):
        battle_result_correct(actor=world.users["gm"], battle=world.home.battle, **args)
    assert snapshot() == before


def test_a_nul_in_the_corrected_outcome_is_refused_at_its_field(world: World) -> None:
    record(world)
    before = snapshot()
    url = reverse("battle_result_correct", args=[world.home.campaign.pk, world.home.battle.pk])
    answer = client_as("gm").post(url, correction_post(world, outcome="P2\x00"))
    assert answer.status_code == 400
    assert "outcome" in answer.context["correction_form"].errors
    assert snapshot() == before
