"""The battle's record in the browser (issue 16): a player saves the ruling on a refused
move and the rules engine alone reproduces it; the GM reads the report of a finished
battle and the campaign's chart of the standings."""

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tabletop.models import Battle
from tabletop.services.results import battle_result_record
from tabletop.services.table.act import battle_act
from tabletop.services.table.dice import battle_roll
from tests.browser.conftest import (
    TIMEOUT_MS,
    Table,
    drag_piece,
    shoot,
    signed_in_page,
    transform,
)
from tests.web.test_reports import actor, end_turn, move, unit_of
from tests.web.test_saved_rulings import run_check

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_player_saves_the_ruling_on_a_refused_move_and_the_engine_reproduces_it(
    table: Table, open_board, tmp_path: Path
) -> None:
    p1 = open_board("p1")
    before = transform(p1, table.u1)

    drag_piece(p1, table.u1, 0, 16)  # 16" for a mech that moves 10" (001 [16])

    toast = p1.locator(".toast-error")
    expect(toast).to_contain_text("move refused", timeout=TIMEOUT_MS)
    expect(p1.locator("#save-ruling")).to_be_visible()
    shoot(p1, "record-refusal-with-save-ruling")
    with p1.expect_download() as downloaded:
        toast.get_by_role("button", name="Save this ruling").click()
    saved = tmp_path / downloaded.value.suggested_filename
    downloaded.value.save_as(saved)
    ruling = json.loads(saved.read_text())
    assert ruling["action"]["unit"] == table.u1
    assert ruling["expect"]["legal"] is False
    assert ruling["expect"]["reason"] == "speed_exceeded"
    assert ruling["expect"]["cost"] > 10
    assert ruling["dice"] == []
    start = next(u for u in ruling["units"] if u["id"] == table.u1)["position"]
    assert start == p1.evaluate("(id) => window.tabletop.store.unit(id).position", table.u1)
    assert transform(p1, table.u1) == before, "the piece never moved"
    checked = run_check(saved)
    assert checked.returncode == 0, checked.stderr
    assert json.loads(checked.stdout)["reasons"][0]["code"] == "speed_exceeded"

    with p1.expect_download() as position:
        p1.locator("#save-position").click()
    assert position.value.suggested_filename == f"battle-{table.battle.pk}-seq-0-position.json"


@pytest.fixture
def finished(table: Table) -> Table:
    """The table after three moves in two turns, a refused run, a roll of 2d6, P2's mech
    destroyed, P1 the winner."""
    battle = table.battle
    users = {m.user.username.removeprefix("b"): m.user for m in battle.campaign.memberships.all()}
    move(battle, users["p1"], "P1", "m-1", (0, 4), (4, 8))
    end_turn(battle, users["p1"], "e-1")
    move(battle, users["p2"], "P2", "m-2", (3, -6))
    end_turn(battle, users["p2"], "e-2")
    move(battle, users["p1"], "P1", "m-3", (2, 5))
    refused = battle_act(
        battle_id=battle.pk,
        actor=actor(battle, users["p1"]),
        client_msg_id="m-4",
        seen=5,
        action={"unit": table.u1, "type": "run", "path": [[30, 30]]},
    )
    assert refused["type"] == "reject" and refused["verdict"]
    battle_roll(battle_id=battle.pk, actor=actor(battle, users["p2"]), client_msg_id="r-1",
                count=2, sides=6, what="P2 fires back")  # fmt: skip
    profile = battle.unit_labels[unit_of(battle, "P2")["id"]]["profile"]
    battle_result_record(
        actor=users["gm"],
        battle=Battle.objects.get(pk=battle.pk),
        winner_side="P1",
        outcome="P1 took the ridge.",
        unit_fates={str(profile): "destroyed"},
    )
    return table


def test_the_gm_reads_the_report_of_a_finished_battle_and_the_campaign_chart(
    finished: Table, browser
) -> None:
    page = signed_in_page(browser, finished, "gm", {"width": 1280, "height": 1000})
    battle = finished.battle

    page.goto(f"{finished.base_url}/campaigns/{battle.campaign_id}/")
    chart = page.locator("svg.campaign-chart")
    expect(chart).to_be_visible()
    expect(chart.locator("polyline")).to_have_count(2)
    expect(page.locator("#battle-costs")).to_contain_text("lost")
    page.locator("#campaign-glance").scroll_into_view_if_needed()
    shoot(page, "record-campaign-chart")

    chart.locator("a.battle-link").click()
    expect(page).to_have_url(f"{finished.base_url}/battles/{battle.pk}/report/")
    report = page.locator("svg.battle-report")
    expect(report).to_be_visible()
    expect(report.locator("polyline.path")).to_have_count(3)
    expect(report.locator("g.loss")).to_have_count(1)
    expect(report).to_contain_text("Result: P1 won. P1 took the ridge.")
    expect(page.locator("#tallies tr[data-side='P1'] td").nth(1)).to_have_text("1")  # refused
    # One roll of 2d6: one roll, two dice.
    expect(page.locator("#tallies tr[data-side='P2'] td").nth(3)).to_have_text("1")
    expect(report).to_contain_text("Dice: 2 x d6")
    report.scroll_into_view_if_needed()
    shoot(page, "record-battle-report")

    with page.expect_download() as downloaded:
        page.locator("#report-svg").click()
    assert downloaded.value.suggested_filename == f"battle-{battle.pk}-report.svg"
    page.context.close()
