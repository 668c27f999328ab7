"""Keyboard and screen readers (issue 23): a player plays a turn with the keyboard alone
(no mouse call in this file), the live regions read the referee's verdict and a refusal,
and axe-core finds no serious or critical violation on the board or the battle page."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.axe import axe_violations, severe, summary
from tests.browser.conftest import shoot, signed_in_page
from tests.browser.keyboard import URGENT, go_to_piece, heard, piece_line, retype, tab_to

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_player_moves_acts_and_ends_the_turn_with_the_keyboard_alone(table, open_board):
    page = open_board("p1")
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    # The pieces as a list: names (markup stays text), sides, where each stands.
    expect(piece_line(page, table.u1)).to_contain_text("P1 mech, side P1")
    expect(piece_line(page, table.u2)).to_contain_text("<img src=x onerror=alert(1)>, side P2")
    start = page.evaluate(f"window.tabletop.store.unit('{table.u1}').position")
    x, y = start[0], start[1]

    go_to_piece(page, table.u1)
    expect(piece_line(page, table.u1)).to_have_attribute("aria-pressed", "true")
    shoot(page, "access-focus")  # the focused piece's ring

    # A typed destination out of its reach: the verdict is read, then the refusal, at once.
    page.keyboard.press("t")
    expect(page.locator("#goto-x")).to_be_focused()
    retype(page, f"{x:.1f}")
    page.keyboard.press("Tab")
    retype(page, f"{y + 20:.1f}")
    heard(page, f"P1 mech to {x:.1f}, {y + 20:.1f}: not legal")
    page.keyboard.press("Enter")
    refusal = page.locator(".toast-error").filter(has_text="move refused")
    expect(refusal).to_be_visible()
    reason = refusal.locator("li .reason").first.evaluate("n => n.firstChild.textContent")
    assert reason.strip()
    heard(page, "P1 mech: move refused", URGENT)
    heard(page, reason.strip(), URGENT)
    # The page with a refusal on it passes axe too (the toast, its rule, the offer).
    assert severe(axe_violations(page)) == []
    page.keyboard.press("Escape")  # the offered alternative is not taken

    # An action chosen from the action bar: Run, then the piece carried and stepped north.
    go_to_piece(page, table.u1)
    page.keyboard.press("a")
    tab_to(page, lambda f: f["action"] == "run")
    page.keyboard.press("Enter")
    run = page.locator("#actions button[data-action='run']")
    expect(run).to_have_attribute("aria-pressed", "true")
    go_to_piece(page, table.u1)
    page.keyboard.press("Enter")  # picked up
    for _ in range(3):
        page.keyboard.press("ArrowUp")
    page.keyboard.press("Shift+ArrowRight")
    heard(
        page,
        re.compile(
            rf"P1 mech to {x + 0.1:.1f}, {y + 3:.1f}: legal\. "
            r"3\.0[″\"] / \d+\.\d[″\"] · \d+\.\d[″\"] left"
        ),
    )
    page.wait_for_timeout(300)
    page.keyboard.press("Enter")  # sent
    expect(piece_line(page, table.u1)).to_contain_text(f"at {x + 0.1:.1f}, {y + 3:.1f}")
    heard(page, re.compile(r"p1: P1 mech run \(3\.0[″\"]\)"))
    expect(page.locator("#event-log")).to_contain_text("P1 mech run")

    # A roll (I: dIce) and a chat line (C), each from its letter; both read out.
    page.keyboard.press("i")
    expect(page.locator("#roll-formula")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#dice-log li.roll")).to_have_count(1)
    heard(page, "p1 rolled 2d6")
    page.keyboard.press("Escape")  # out of the field: the letters work again
    page.keyboard.press("c")
    page.keyboard.type("ready when you are")
    page.keyboard.press("Enter")
    heard(page, "p1 says: ready when you are")

    # The log: J, then the scrubber before it; a step back shows the past table.
    page.keyboard.press("Escape")
    expect(page.locator(f".piece[data-unit='{table.u1}']")).to_be_focused()
    page.keyboard.press("j")
    expect(page.locator("#event-log")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(page.locator("#scrubber")).to_be_focused()
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-banner")).to_be_visible()
    tab_to(page, lambda f: f["id"] == "replay-live")
    page.keyboard.press("Enter")
    expect(page.locator("#replay-banner")).to_be_hidden()

    # End of turn from the action bar.
    page.keyboard.press("a")
    tab_to(page, lambda f: f["id"] == "end-turn")
    page.keyboard.press("Enter")
    expect(page.locator("#turn-status")).not_to_contain_text("your turn")
    heard(page, "p1 ended")
    assert errors == []


def test_the_board_and_the_battle_page_have_no_serious_accessibility_violation(table, open_board):
    page = open_board("p1")
    go_to_piece(page, table.u1)
    page.keyboard.press("?")  # the help shown, the unit card filled
    expect(page.locator("#help")).to_be_visible()
    board = axe_violations(page)
    print(f"\naxe, the board ({len(board)} violations):\n{summary(board) or 'none'}")
    page.goto(f"{table.base_url}/campaigns/{table.battle.campaign_id}/battles/{table.battle.pk}/")
    battle = axe_violations(page)
    print(f"axe, the battle page ({len(battle)} violations):\n{summary(battle) or 'none'}")
    # None serious or critical (the bar), and none of lesser impact either.
    assert severe(board) == [] and severe(battle) == [], summary(severe(board) + severe(battle))
    assert board == [] and battle == [], summary(board + battle)


def test_the_other_pages_have_no_accessibility_violation(table, browser):
    """The GM's pages, as the GM sees them (every form shown): the campaigns, a campaign,
    its settings, a roster, the map editor, a new battle, the battle report. Colours are
    checked by axe's contrast rule wherever it can compute them. None of axe's
    violations, of any impact (a grid of table options once had an empty corner header:
    a screen reader announced its column as nothing)."""
    page = signed_in_page(browser, table, "gm")
    campaign = f"{table.base_url}/campaigns/{table.battle.campaign_id}/"
    page.goto(campaign)
    # A roster and a map of the campaign's, by its page's links.
    links = page.evaluate(
        """[...document.querySelectorAll("a[href*='/rosters/'], a[href*='/maps/']")]
             .map((a) => a.getAttribute("href")).filter((h) => /\\/\\d+\\/$/.test(h))"""
    )
    urls = [
        f"{table.base_url}/",
        f"{table.base_url}/campaigns/",
        campaign,
        f"{campaign}settings/",
        *(f"{table.base_url}{link}" for link in dict.fromkeys(links)),
        f"{campaign}maps/new/",
        f"{campaign}battles/new/",
        f"{table.base_url}/battles/{table.battle.pk}/report/",
    ]
    found = {}
    for url in urls:
        page.goto(url)
        found[url] = axe_violations(page)
        print(f"axe, {url.removeprefix(table.base_url)}: {summary(found[url]) or 'none'}")
    page.context.close()
    violated = {url: summary(v) for url, v in found.items() if v}
    assert violated == {}
