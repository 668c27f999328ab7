"""Play by correspondence in Chromium (issue 23): the settings page keeps a player's
choice and asks the browser's permission only when they opt in; the board shows a
notification when the table hands this player their turn while the page is hidden.

The notification permission is granted in the browser context as a player would grant
it. Window.Notification is wrapped (not replaced) by an init script that records each
notification made, so the test can read what the page showed. Playwright's pages are
always visible (microsoft/playwright#2286), so the same script lets the test say when
the page is in the background: `document.hidden` is the one browser property the test
sets; the server, the socket and the board are all real.
"""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tabletop.services.turn_notices import notice_settings_update
from tests.browser.conftest import ARTIFACTS, TIMEOUT_MS, go_to_board, signed_in_page

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = ARTIFACTS / "notify"

#: Records every Notification the page makes (its title and options) in window.__notes,
#: and lets the test send the page to the background (window.__background = true).
OBSERVE = """
(() => {
  const Real = window.Notification;
  window.__notes = [];
  if (Real) {
    window.Notification = class extends Real {
      constructor(title, options) {
        super(title, options);
        window.__notes.push({ title, body: options?.body ?? "" });
      }
    };
  }
  window.__background = false;
  Object.defineProperty(Document.prototype, "hidden", {
    configurable: true,
    get: () => window.__background === true,
  });
})();
"""


def page_with_notifications(browser, table, role):
    page = signed_in_page(browser, table, role)
    page.context.grant_permissions(["notifications"], origin=table.base_url)
    page.context.add_init_script(OBSERVE)
    return page


def notes(page) -> list[dict]:
    return page.evaluate("window.__notes")


@pytest.fixture
def browser_notices(table):
    """p1, p2 and the spectator asked for browser notifications (made before the browser
    starts: Playwright's loop forbids the database)."""
    for name in ("bp1", "bp2", "bspectator"):
        user = get_user_model().objects.get(username=name)
        notice_settings_update(user=user, mail=False, browser=True)
    return table


@pytest.fixture
def with_address(table):
    user = get_user_model().objects.get(username="bp2")
    user.email = "bp2@example.org"
    user.save(update_fields=["email"])
    return table


def test_the_settings_page_saves_the_players_choice(with_address, browser):
    table = with_address
    page = page_with_notifications(browser, table, "p2")
    try:
        page.goto(f"{table.base_url}/accounts/turn-notices/")
        mail = page.get_by_label("Mail me when it is my turn")
        browser_box = page.get_by_label("Show a browser notification", exact=False)
        expect(mail).not_to_be_checked(timeout=TIMEOUT_MS)
        expect(browser_box).not_to_be_checked()
        mail.check()
        browser_box.check()
        expect(page.locator("#browser-permission")).to_have_text(
            "This browser will notify you.", timeout=TIMEOUT_MS
        )
        page.get_by_role("button", name="Save").click()
        expect(page.locator(".messages")).to_contain_text(
            "Your turn notices are saved.", timeout=TIMEOUT_MS
        )
        expect(page.get_by_text("Mailed to bp2@example.org.")).to_be_visible()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "settings.png"))
        page.reload()
        expect(mail).to_be_checked(timeout=TIMEOUT_MS)
        expect(browser_box).to_be_checked()
        browser_box.uncheck()
        page.get_by_role("button", name="Save").click()
        expect(page.locator(".messages")).to_contain_text(
            "Your turn notices are saved.", timeout=TIMEOUT_MS
        )
        page.reload()
        expect(browser_box).not_to_be_checked(timeout=TIMEOUT_MS)
        expect(mail).to_be_checked()
    finally:
        page.context.close()


def test_the_board_notifies_the_player_whose_turn_begins_while_it_is_hidden(
    browser_notices, browser
):
    table = browser_notices
    pages = {
        role: go_to_board(page_with_notifications(browser, table, role), table)
        for role in ("p1", "p2", "spectator")
    }
    try:
        for page in pages.values():
            page.evaluate("window.__background = true")
        pages["p1"].locator("#end-turn").click()
        for page in pages.values():
            expect(page.locator("#turn-status")).to_contain_text("P2", timeout=TIMEOUT_MS)
        pages["p2"].wait_for_function("window.__notes.length > 0", timeout=TIMEOUT_MS)
        shown = notes(pages["p2"])
        assert len(shown) == 1
        assert shown[0]["title"] == f"Your turn in {table.battle.name}"
        assert "P2" in shown[0]["body"]
        assert notes(pages["p1"]) == [], "never to the player who ended the turn"
        assert notes(pages["spectator"]) == [], "never to a spectator"
    finally:
        for page in pages.values():
            page.context.close()


def test_a_board_in_view_shows_no_notification(browser_notices, browser):
    table = browser_notices
    p1 = go_to_board(page_with_notifications(browser, table, "p1"), table)
    p2 = go_to_board(page_with_notifications(browser, table, "p2"), table)
    try:
        p1.locator("#end-turn").click()
        expect(p2.locator("#turn-status")).to_contain_text("your turn", timeout=TIMEOUT_MS)
        assert notes(p2) == []
    finally:
        p1.context.close()
        p2.context.close()
