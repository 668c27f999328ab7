"""The whole journey of issue 13 in Chromium, against a real Daphne: the GM creates a
campaign and invites; a newcomer signs up from the link and builds a roster from the
catalogue; the GM draws a map with the mouse and sets up a battle; both players deploy by
dragging; one turn is played: P1's move too far is refused (001 [16]: no further than the
move value), the nearest legal alternative is accepted, P1 ends the turn, P2 moves and
ends it, and the table is in turn 2.
"""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tabletop.models import Map, Membership
from tabletop.services.campaigns import membership_set
from tabletop.services.rosters import roster_create, unit_profile_add
from tests.browser.campaign_steps import create_battle, create_campaign_with_invitation
from tests.browser.conftest import TIMEOUT_MS, drag_piece, shoot
from tests.browser.test_setup_ux import MECH, PASSWORD, drag_unit_to, page_as, table_point

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def board_ready(page) -> None:
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#conn[data-state='live']")


def test_from_an_invitation_to_a_played_turn(asgi_server, browser):
    User = get_user_model()
    gm_user = User.objects.create_user("journey-gm", password=PASSWORD)
    bob = User.objects.create_user("bob", password=PASSWORD)
    base = asgi_server
    gm = page_as(browser, base, gm_user)

    # The GM creates a campaign and makes an invitation link.
    campaign, link = create_campaign_with_invitation(gm, base)

    # A newcomer opens the link, signs up from it, and is in the campaign.
    newcomer = page_as(browser, base)
    newcomer.goto(link)
    newcomer.locator("main").get_by_role("link", name="sign up").click()
    newcomer.get_by_label("Username").fill("newcomer")
    newcomer.get_by_label("Email").fill("newcomer@example.org")
    newcomer.locator("[name=password1]").fill("a-Long-pass-2026")
    newcomer.locator("[name=password2]").fill("a-Long-pass-2026")
    newcomer.get_by_role("button", name="Create account").click()
    expect(newcomer.locator(".messages")).to_contain_text("You joined Kearny Ridge")
    assert Membership.objects.get(campaign=campaign, user__username="newcomer").role == "player"

    # ... and builds a roster from the catalogue.
    newcomer.locator("form[action$='/rosters/new/'] [name=name]").fill("Republic lance")
    newcomer.get_by_role("button", name="Create roster").click()
    expect(newcomer.get_by_role("heading", name="Republic lance")).to_be_visible()
    newcomer.get_by_role("link", name="Pick Mech").click()
    form = newcomer.locator("#unit-form")
    expect(form.locator("[name=move]")).to_have_value("8")
    form.locator("[name=name]").fill("Atlas")
    form.locator("[name=points]").fill("150")  # 150 points: one order a turn (aod)
    form.get_by_role("button", name="Add unit").click()
    expect(newcomer.locator("table.units tr[data-unit='Atlas'] table.stats-table")).to_contain_text(
        "round, 1.75″ across"
    )
    shoot(newcomer, "journey-1-roster-from-the-catalogue")

    # Bob, a player already, brings his own lance (set up directly: his part is the table).
    membership_set(campaign=campaign, user=bob, role="player")
    wolves = roster_create(campaign=campaign, owner=bob, name="Steel Wolves")
    unit_profile_add(roster=wolves, name="Ryoken", unit_type="mech", stats=MECH, points=150)

    # The GM draws a map with the mouse: a hindering wood, dragged as a rectangle.
    gm.goto(f"{base}/campaigns/{campaign.pk}/maps/new/")
    gm.locator("#map-form [name=name]").fill("Ridge")
    gm.evaluate("document.getElementById('map-svg').scrollIntoView({block: 'center'})")
    gm.get_by_role("button", name="Rectangle").click()
    gm.locator("#tool-type").select_option("hindering")
    gm.mouse.move(*table_point(gm, "#map-svg", 10, 14))
    gm.mouse.down()
    gm.mouse.move(*table_point(gm, "#map-svg", 26, 20), steps=8)
    gm.mouse.up()
    expect(gm.locator("#feature-list")).to_contain_text("H1: Hindering terrain (4 corners)")
    shoot(gm, "journey-2-map-drawn")
    gm.get_by_role("button", name="Save map").click()
    expect(gm.get_by_role("heading", name="Map: Ridge")).to_be_visible()
    ridge = Map.objects.get(campaign=campaign)
    assert ridge.terrain[0]["polygon"] == [[10, 14], [26, 14], [26, 20], [10, 20]]

    # A battle: the newcomer's lance as P1 (south edge), Bob's as P2 (north edge).
    battle = create_battle(
        gm, base, campaign, ridge, "Republic lance (newcomer)", "Steel Wolves (bob)"
    )
    ids = {label["name"]: uid for uid, label in battle.unit_labels.items()}
    battle_url = f"{base}/campaigns/{campaign.pk}/battles/{battle.pk}/"

    # Both players deploy by dragging, each their own unit.
    newcomer.goto(battle_url)
    drag_unit_to(newcomer, ids["Atlas"], 18, 3)
    expect(newcomer.locator("#deploy-status")).to_have_text("Atlas placed at (18, 3), facing 90°.")
    bob_page = page_as(browser, base, bob)
    bob_page.goto(battle_url)
    expect(bob_page.locator("#battle-svg g.unit.placeable")).to_have_count(1)
    drag_unit_to(bob_page, ids["Ryoken"], 18, 33)
    expect(bob_page.locator("#deploy-status")).to_have_text(
        "Ryoken placed at (18, 33), facing 270°."
    )
    shoot(bob_page, "journey-3-deployed-by-drag")
    gm.goto(battle_url)
    gm.get_by_role("button", name="Start the battle").click()
    expect(gm.locator("#battle-status")).to_have_text("Active")

    # The turn: P1's move too far is refused; the nearest legal end is offered and taken.
    board = page_as(
        browser, base, User.objects.get(username="newcomer"), {"width": 1280, "height": 720}
    )
    board.goto(battle_url)
    board.get_by_role("link", name="Open the table").click()
    board_ready(board)
    drag_piece(board, ids["Atlas"], 0, 20)
    expect(board.locator(".toast-error").last).to_contain_text("move refused", timeout=TIMEOUT_MS)
    expect(board.locator(".alternative")).to_have_count(1, timeout=TIMEOUT_MS)
    shoot(board, "journey-4-refusal-with-alternative")
    board.keyboard.press("Enter")
    expect(board.locator("#event-log li")).to_have_count(1, timeout=TIMEOUT_MS)
    expect(board.locator("#event-log li").first).to_contain_text("Atlas")
    x, y = board.evaluate(f"window.tabletop.store.unit('{ids['Atlas']}').position")
    assert abs(x - 18) < 0.3 and 10.5 < y <= 11.05, (x, y)  # 8" north: its whole move
    board.locator("#end-turn").click()
    expect(board.locator("#turn-status")).to_contain_text("P2", timeout=TIMEOUT_MS)

    # P2 answers with a legal move and ends the turn: turn 2 begins.
    bob_board = page_as(browser, base, bob, {"width": 1280, "height": 720})
    bob_board.goto(f"{base}/battles/{battle.pk}/board/")
    board_ready(bob_board)
    expect(bob_board.locator("#turn-status")).to_contain_text("your turn")
    drag_piece(bob_board, ids["Ryoken"], 0, -4)
    expect(bob_board.locator("#event-log li")).to_have_count(3, timeout=TIMEOUT_MS)
    bob_board.locator("#end-turn").click()
    expect(bob_board.locator("#turn-status")).to_contain_text("Turn 2", timeout=TIMEOUT_MS)
    expect(board.locator("#turn-status")).to_contain_text("Turn 2", timeout=TIMEOUT_MS)
    shoot(board, "journey-5-turn-two")
    battle.refresh_from_db()
    assert battle.turn_state["turn"] == 2 and battle.turn_state["active_side"] == "P1"
