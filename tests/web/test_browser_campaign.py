"""In Chromium, against a real Daphne: the GM starts a campaign and invites a player by
link; the player joins and builds a roster; the GM draws a map and sets up a battle.

Screenshots of each step go to artifacts/ (gitignored).
"""

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from tabletop.models import Map, Membership, UnitProfile
from tests.browser.campaign_steps import create_battle, create_campaign_with_invitation
from tests.browser.csp import CSPWatchedBrowser
from tests.conftest import ROOT

ARTIFACTS = ROOT / "artifacts"
PASSWORD = "pw-browser-2026"


def log_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{base}/")


def shot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"campaign-{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def add_unit(page, name: str, move: str, points: str) -> None:
    form = page.locator("#unit-form")
    form.locator("[name=name]").fill(name)
    form.get_by_label("Unit type").select_option("mech")
    form.locator("[name=points]").fill(points)
    form.locator("[name=move]").fill(move)
    form.get_by_label("Base shape").select_option("circle")
    form.get_by_label("Base diameter (inches, circle)").fill("1.75")
    form.get_by_role("button", name="Add unit").click()


@pytest.mark.browser
def test_gm_and_player_set_up_a_campaign_and_a_battle_in_the_browser(
    asgi_server: str, chromium_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from playwright.sync_api import expect, sync_playwright

    # Playwright's sync API runs an event loop in this thread; the test's own ORM
    # reads are plain blocking calls between browser steps, which is safe here.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    User = get_user_model()
    User.objects.create_user("gm", password=PASSWORD)
    User.objects.create_user("alice", password=PASSWORD)
    base = asgi_server
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=chromium_path, args=["--no-sandbox"])
        browser = CSPWatchedBrowser(chromium)
        gm = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        gm.set_default_timeout(15_000)

        # The GM starts a campaign and makes an invitation link for a player.
        log_in(gm, base, "gm")
        campaign, link = create_campaign_with_invitation(gm, base)
        assert "/join/" in link
        shot(gm, "1-gm-campaign-with-invitation")

        # The player opens the link, joins, and builds a roster.
        alice = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        alice.set_default_timeout(15_000)
        log_in(alice, base, "alice")
        alice.goto(link)
        alice.get_by_role("button", name="Join the campaign").click()
        expect(alice.get_by_role("heading", name="Kearny Ridge")).to_be_visible()
        assert Membership.objects.get(campaign=campaign, user__username="alice").role == "player"
        alice.locator("form[action$='/rosters/new/'] [name=name]").fill("Republic strike lance")
        alice.get_by_label("Faction").fill("Republic")
        alice.get_by_role("button", name="Create roster").click()
        expect(alice.get_by_role("heading", name="Republic strike lance")).to_be_visible()
        add_unit(alice, "Atlas", "8", "180")
        add_unit(alice, "Shadow Hawk", "10", "200")  # 380 points: refused at the Points field
        expect(alice.locator("#unit-form .errorlist").first).to_contain_text("limit is 300")
        shot(alice, "2-player-roster-error-at-field")
        alice.locator("#unit-form [name=points]").fill("120")
        alice.locator("#unit-form").get_by_role("button", name="Add unit").click()
        expect(alice.locator("#points-total")).to_contain_text("300 of 300 points")
        shot(alice, "3-player-roster-built")
        assert UnitProfile.objects.filter(roster__owner__username="alice").count() == 2

        # The GM fields a force of their own, so that there are two sides.
        gm.goto(f"{base}/campaigns/{campaign.pk}/")
        gm.locator("form[action$='/rosters/new/']").get_by_label("Name").fill("Steel Wolves")
        gm.get_by_role("button", name="Create roster").click()
        add_unit(gm, "Ryoken", "12", "150")
        expect(gm.locator("#points-total")).to_contain_text("150 of 300")

        # The GM draws a map: a hindering wood clicked corner by corner on the SVG table.
        gm.goto(f"{base}/campaigns/{campaign.pk}/maps/new/")
        gm.locator("#map-form [name=name]").fill("Ridge")
        gm.locator("#map-form [name=width]").fill("36")
        gm.locator("#map-form [name=height]").fill("36")
        gm.locator("#tool-type").select_option("hindering")
        table = gm.locator("#map-svg rect.table-surface").bounding_box()

        def click_at(x: float, y: float) -> None:
            """Clicks the table at (x, y) inches; +y is north, up the screen."""
            gm.mouse.click(
                table["x"] + x / 36 * table["width"], table["y"] + (36 - y) / 36 * table["height"]
            )

        for x, y in ((10, 14), (18, 14), (18, 20), (10, 20)):
            click_at(x, y)
        gm.get_by_role("button", name="Finish polygon").click()
        # The editor speaks the system's words: the kind's label, not its key.
        expect(gm.locator("#feature-list")).to_contain_text("H1: Hindering terrain")
        gm.locator("#tool-type").select_option("deep_water")
        for x, y in ((24, 24), (30, 24), (27, 29)):
            click_at(x, y)
        gm.get_by_role("button", name="Finish polygon").click()
        expect(gm.locator("#map-legend")).to_contain_text("Deep water")
        shot(gm, "4-gm-map-editor-two-features")
        gm.get_by_role("button", name="Save map").click()
        expect(gm.get_by_role("heading", name="Map: Ridge")).to_be_visible()
        battle_map = Map.objects.get(campaign=campaign)
        assert [f["type"] for f in battle_map.terrain] == ["hindering", "deep_water"]
        assert battle_map.terrain[0]["polygon"] == [[10, 14], [18, 14], [18, 20], [10, 20]]

        # The GM sets up a battle: the map, the rosters as sides, then deployment.
        battle = create_battle(
            gm, base, campaign, battle_map, "Republic strike lance (alice)", "Steel Wolves (gm)"
        )
        atlas = battle.state["units"][0]
        gm.get_by_label("Atlas x").fill("20")
        gm.get_by_label("Atlas y").fill("25")  # outside P1's zone: refused at the unit
        gm.get_by_role("button", name="Save deployment").click()
        expect(gm.locator("table .errorlist").first).to_contain_text("wholly inside")
        gm.get_by_label("Atlas y").fill("3")
        gm.get_by_role("button", name="Save deployment").click()
        expect(gm.locator("#battle-svg .units g.unit")).to_have_count(3)
        shot(gm, "5-gm-battle-deployed")
        battle.refresh_from_db()
        assert next(u for u in battle.state["units"] if u["id"] == atlas["id"])["position"] == [
            20,
            3,
        ]
        gm.get_by_role("button", name="Start the battle").click()
        expect(gm.locator("#battle-status")).to_have_text("Active")
        shot(gm, "6-gm-battle-active")
        browser.close()
    assert browser.violations == [], "Content-Security-Policy violations"
