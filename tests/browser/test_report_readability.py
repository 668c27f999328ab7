"""The record as the reader sees it in Chromium (issue 23, "Records"): a battle with a
long name and a unit that left the board has its whole title in view and the mark in the
legend; the campaign chart with one battle, and with rosters level, reads."""

import pytest
from playwright.sync_api import expect

from tabletop.models import Battle
from tabletop.services.table.dice import battle_roll
from tests.browser.conftest import SHOTS, Table, signed_in_page
from tests.web.test_report_readability import LONG_NAME, fates, side_by_side
from tests.web.test_reports import actor

pytestmark = pytest.mark.django_db(transaction=True)

#: The drawn boxes of the elements a selector finds, as the page lays them out.
BOXES = """(selector) => [...document.querySelectorAll(selector)].map((e) => {
  const r = e.getBoundingClientRect();
  return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, text: e.textContent};
})"""


def users_of(table: Table) -> dict:
    battle = table.battle
    return {m.user.username.removeprefix("b"): m.user for m in battle.campaign.memberships.all()}


def within(box: dict, frame: dict, slack: float = 0.5) -> bool:
    return (
        box["left"] >= frame["left"] - slack
        and box["right"] <= frame["right"] + slack
        and box["top"] >= frame["top"] - slack
        and box["bottom"] <= frame["bottom"] + slack
    )


def apart(a: dict, b: dict) -> bool:
    return (
        a["right"] <= b["left"]
        or b["right"] <= a["left"]
        or a["bottom"] <= b["top"]
        or b["bottom"] <= a["top"]
    )


@pytest.fixture(params=[LONG_NAME, "W" * 120], ids=["markup", "widest-letters"])
def left_the_board(table: Table, request: pytest.FixtureRequest) -> Table:
    """The battle under a long name (with markup, or 120 of the widest letter), the mechs
    half an inch apart, P2's three dice rolled at once, P1 the winner and P2's mech gone
    off the board."""
    battle, users = table.battle, users_of(table)
    battle.name = request.param
    battle.save(update_fields=["name"])
    side_by_side(battle)
    battle_roll(battle_id=battle.pk, actor=actor(battle, users["p2"]), client_msg_id="r-1",
                count=3, sides=6, what="P2 fires")  # fmt: skip
    fates(Battle.objects.get(pk=battle.pk), users, "P1", P2="off_board")
    return table


def test_a_long_titled_report_shows_its_whole_title_and_the_left_the_board_mark(
    left_the_board: Table, browser
) -> None:
    table, battle = left_the_board, left_the_board.battle
    page = signed_in_page(browser, table, "gm", {"width": 1280, "height": 900})

    page.goto(f"{table.base_url}/battles/{battle.pk}/report/")

    report = page.locator("svg.battle-report")
    expect(report).to_be_visible()
    drawing = report.bounding_box()
    frame = {"left": drawing["x"], "top": drawing["y"]}
    frame |= {"right": drawing["x"] + drawing["width"], "bottom": drawing["y"] + drawing["height"]}
    lines = page.evaluate(BOXES, "svg.battle-report .report-title text")
    assert len(lines) > 1
    for line in lines:
        assert within(line, frame), f"{line} is clipped by the drawing {frame}"
        assert line["right"] <= 1280, "and inside the window"
    shown = "".join(line["text"] for line in lines).replace(" ", "")
    assert shown.startswith(battle.name[:40].replace(" ", "")), "the markup shows as text"
    expect(report.locator(".report-title > title")).to_have_text(f"{battle.name}: battle report")
    heading = page.locator("h1").bounding_box()
    assert heading["x"] + heading["width"] <= 1280, "the page's heading wraps too"
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 1280, "and nothing on the page runs out of the window"

    left = report.locator(".legend-entry[data-fate='off_board']")
    expect(left).to_be_visible()
    expect(left).to_have_text("left the board")
    expect(report.locator("g.loss[data-fate='off_board']")).to_be_visible()
    labels = page.evaluate(BOXES, "svg.battle-report text.unit-label")
    assert len(labels) == 2 and apart(*labels), f"the labels overlap: {labels}"
    expect(page.locator("#tallies tr[data-side='P2'] td").nth(3)).to_have_text("1")  # rolls
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot = "records-report" + ("" if battle.name == LONG_NAME else "-widest")
    page.screenshot(path=str(SHOTS / f"{shot}.png"), full_page=True)
    page.context.close()


@pytest.fixture(params=[("P1", "one-battle"), ("", "ties")], ids=["one-battle", "ties"])
def finished(table: Table, request: pytest.FixtureRequest) -> tuple[Table, str]:
    """The battle finished: P1 won (one battle), or a draw (the rosters level)."""
    winner, shot = request.param
    fates(table.battle, users_of(table), winner)
    return table, shot


def test_the_campaign_chart_reads_with_one_battle_and_with_ties(
    finished: tuple[Table, str], browser
) -> None:
    (table, shot), battle = finished, finished[0].battle
    page = signed_in_page(browser, table, "gm", {"width": 1280, "height": 900})

    page.goto(f"{table.base_url}/campaigns/{battle.campaign_id}/")

    chart = page.locator("svg.campaign-chart")
    expect(chart).to_be_visible()
    expect(chart.locator("polyline")).to_have_count(2)
    lines = page.evaluate(BOXES, "svg.campaign-chart polyline")
    assert lines[0]["top"] != lines[1]["top"], "both lines show"
    names = page.evaluate(BOXES, "svg.campaign-chart text.roster-label")
    assert len(names) == 2 and apart(*names), f"the names overlap: {names}"
    texts = page.evaluate(BOXES, "svg.campaign-chart text")
    drawn = chart.bounding_box()
    frame = {"left": drawn["x"], "top": drawn["y"]}
    frame |= {"right": drawn["x"] + drawn["width"], "bottom": drawn["y"] + drawn["height"]}
    assert all(within(t, frame) for t in texts), "every label inside the chart"
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            assert apart(a, b), f"{a['text']!r} and {b['text']!r} overlap"
    chart.scroll_into_view_if_needed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    chart.screenshot(path=str(SHOTS / f"records-chart-{shot}.png"))
    page.context.close()
