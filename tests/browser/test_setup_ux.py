"""Setting up and the looks (issue 13), in Chromium against a real Daphne: what a player
sees when they join from a link, deploy by dragging, draw a map with the mouse, build a
roster from the catalogue, roll dice, toggle the grid, and read the board's chrome.

The test bodies read and write the database between browser steps: Playwright's sync API
runs an event loop in this thread, so Django is told those plain calls are safe here
(module_chromium, tests/browser/conftest.py).
"""

import json
import os
import re
import signal
import subprocess
import threading
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from playwright.sync_api import expect

from tabletop.models import Battle, Campaign, Invitation, Map, Membership, Roster
from tabletop.services.campaigns import campaign_create, invitation_create, membership_set
from tabletop.services.rosters import roster_create
from tabletop.services.table.actor import actor_for
from tabletop.services.table.dice import battle_roll
from tests.browser.conftest import (
    TIMEOUT_MS,
    drag_piece,
    session_cookie,
    shoot,
)
from tests.conftest import ROOT, free_port
from tests.web.test_setup_services import pond_battle

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MECH = {"move": 8, "base": {"shape": "circle", "diameter": 1.75}}
PASSWORD = "pw-setup-2026"


def page_as(browser, base: str, user=None, viewport: dict | None = None):
    """A new browser context (its own cookies), logged in as `user` (None: a visitor)."""
    context = browser.new_context(
        viewport=viewport or {"width": 1280, "height": 1000}, accept_downloads=True
    )
    if user is not None:
        cookie = {"name": settings.SESSION_COOKIE_NAME, "value": session_cookie(user), "url": base}
        context.add_cookies([cookie])
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return page


def users(prefix: str, *roles: str) -> dict:
    User = get_user_model()
    return {r: User.objects.create_user(f"{prefix}{r}", password=PASSWORD) for r in roles}


def deploying_battle(prefix: str) -> tuple[Battle, dict]:
    """An aod battle in deployment: P1 (p1's Atlas and Hunchback) on the south edge, P2
    (p2's Ryoken) on the north; deep water W1 lies in P1's zone (the web tests' pond)."""
    who = users(prefix, "gm", "p1", "p2")
    return pond_battle(who, f"{prefix} campaign"), who


def unit_id(battle: Battle, name: str) -> str:
    return next(uid for uid, label in battle.unit_labels.items() if label["name"] == name)


def table_point(page, svg: str, x: float, y: float, size: float = 36) -> tuple[float, float]:
    """The screen point of (x, y) inches on a 36" table drawn in `svg` (+y north)."""
    box = page.locator(f"{svg} rect.table-surface").bounding_box()
    return box["x"] + x / size * box["width"], box["y"] + (size - y) / size * box["height"]


def downloaded_json(control, to: Path) -> dict:
    """Clicks `control` (a button or link of a page), saves the file it downloads at `to`;
    the file's JSON."""
    with control.page.expect_download() as download:
        control.click()
    download.value.save_as(to)
    return json.loads(to.read_text())


def centre(box: dict) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def overlaps(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


# -- 1. invitations -------------------------------------------------------------------------


def test_an_invitee_who_signs_up_from_the_link_joins_the_campaign(asgi_server, browser):
    who = users("inv", "gm")
    campaign = campaign_create(gm=who["gm"], name="Kearny Ridge", system="aod")
    invitation = invitation_create(campaign=campaign, created_by=who["gm"])
    visitor = page_as(browser, asgi_server)

    visitor.goto(f"{asgi_server}/join/{invitation.token}/")
    expect(visitor.get_by_role("heading", name="Join Kearny Ridge")).to_be_visible()
    visitor.locator("main").get_by_role("link", name="sign up").click()
    expect(visitor.locator("#signup-invitation")).to_contain_text("You will join Kearny Ridge")
    visitor.get_by_label("Username").fill("newcomer")
    visitor.get_by_label("Email").fill("newcomer@example.org")
    visitor.locator("[name=password1]").fill("a-Long-pass-2026")
    visitor.locator("[name=password2]").fill("a-Long-pass-2026")
    visitor.get_by_role("button", name="Create account").click()

    expect(visitor.get_by_role("heading", name="Kearny Ridge")).to_be_visible()
    expect(visitor.locator(".messages")).to_contain_text("You joined Kearny Ridge")
    assert Membership.objects.get(campaign=campaign, user__username="newcomer").role == "player"


def test_a_used_single_use_link_says_so_and_offers_no_join(asgi_server, browser):
    who = users("used", "gm", "first", "second")
    campaign = campaign_create(gm=who["gm"], name="Kearny Ridge", system="aod")
    invitation = invitation_create(campaign=campaign, created_by=who["gm"], single_use=True)
    first = page_as(browser, asgi_server, who["first"])
    first.goto(f"{asgi_server}/join/{invitation.token}/")
    first.get_by_role("button", name="Join the campaign").click()
    expect(first.get_by_role("heading", name="Kearny Ridge")).to_be_visible()

    second = page_as(browser, asgi_server, who["second"])
    second.goto(f"{asgi_server}/join/{invitation.token}/")

    expect(second.locator("#invitation-problem")).to_contain_text("already been used")
    expect(second.get_by_role("button", name="Join the campaign")).to_have_count(0)
    assert Invitation.objects.get(pk=invitation.pk).uses == 1


# -- 2. deployment by drag ----------------------------------------------------------------------


def drag_unit_to(page, unit: str, x: float, y: float) -> None:
    """Drags the unit from where it waits: its row in the tray, or its base on the table."""
    page.evaluate("document.getElementById('battle-svg').scrollIntoView({block: 'center'})")
    in_tray = page.locator(f"#tray-units li[data-unit='{unit}']")
    on_table = page.locator(f"#battle-svg g.unit[data-unit='{unit}'] .base")
    start = centre((in_tray if in_tray.count() else on_table).bounding_box())
    target = table_point(page, "#battle-svg", x, y)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0] + 4, start[1] - 4, steps=2)
    page.mouse.move(*target, steps=10)
    page.mouse.up()


def test_a_player_deploys_their_own_units_by_dragging_and_a_refusal_says_why(asgi_server, browser):
    battle, who = deploying_battle("dep")
    atlas, ryoken = unit_id(battle, "Atlas"), unit_id(battle, "Ryoken")
    url = f"{asgi_server}/campaigns/{battle.campaign_id}/battles/{battle.pk}/"
    p1 = page_as(browser, asgi_server, who["p1"])
    p1.goto(url)
    status = p1.locator("#deploy-status")
    expect(p1.get_by_role("heading", name="Deploy by dragging")).to_be_visible()
    # Only a player's own units can be picked up.
    expect(p1.locator("#battle-svg g.unit.placeable")).to_have_count(2)
    expect(p1.locator(f"#battle-svg g.unit[data-unit='{ryoken}'].placeable")).to_have_count(0)

    drag_unit_to(p1, atlas, 12, 3)
    expect(status).to_have_text("Atlas placed at (12, 3), facing 90°.")
    battle.refresh_from_db()
    assert next(u for u in battle.state["units"] if u["id"] == atlas)["position"] == [12, 3]
    shoot(p1, "deploy-by-drag-placed")

    drag_unit_to(p1, atlas, 12, 20)  # out of P1's zone
    expect(status).to_contain_text("Atlas must be wholly inside side P1's deployment zone")
    expect(p1.locator(f"#battle-svg g.unit[data-unit='{atlas}']")).to_have_attribute(
        "transform", "translate(12 3) rotate(90)"
    )
    drag_unit_to(p1, atlas, 23, 2.5)  # into the deep water: the engine's placement check
    expect(status).to_contain_text("Atlas may not stand in W1 (deep water)")
    shoot(p1, "deploy-by-drag-refused-terrain")
    drag_unit_to(p1, unit_id(battle, "Hunchback"), 4.5, 1.5)  # out of the tray
    expect(status).to_have_text("Hunchback placed at (4.5, 1.5), facing 90°.")
    drag_unit_to(p1, atlas, 4.5, 1.5)  # onto the Hunchback
    expect(status).to_contain_text("Atlas would overlap the base of Hunchback")

    gm = page_as(browser, asgi_server, who["gm"])
    gm.goto(url)
    expect(gm.locator("#battle-svg g.unit.placeable")).to_have_count(3)
    drag_unit_to(gm, ryoken, 18, 33)
    expect(gm.locator("#deploy-status")).to_have_text("Ryoken placed at (18, 33), facing 270°.")
    battle.refresh_from_db()
    assert next(u for u in battle.state["units"] if u["id"] == ryoken)["position"] == [18, 33]


# -- 3. the map editor ------------------------------------------------------------------------


def test_the_gm_draws_rectangles_circles_and_polygons_with_the_mouse_and_edits_them(
    asgi_server, browser, tmp_path: Path
):
    who = users("map", "gm")
    campaign = campaign_create(gm=who["gm"], name="Quarry campaign", system="aod")
    gm = page_as(browser, asgi_server, who["gm"])
    gm.goto(f"{asgi_server}/campaigns/{campaign.pk}/maps/new/")
    gm.locator("#map-form [name=name]").fill("Quarry")

    def at(x: float, y: float) -> tuple[float, float]:
        return table_point(gm, "#map-svg", x, y)

    gm.evaluate("document.getElementById('map-svg').scrollIntoView({block: 'center'})")

    def press_drag(a: tuple[float, float], b: tuple[float, float]) -> None:
        gm.mouse.move(*at(*a))
        gm.mouse.down()
        gm.mouse.move(*at(*b), steps=8)
        gm.mouse.up()

    def terrain() -> list[dict]:
        return json.loads(gm.locator("#map-form [name=terrain]").input_value())

    features = gm.locator("#feature-list")
    # A rectangle, dragged off the grid lines: its corners snap to whole inches.
    gm.get_by_role("button", name="Rectangle").click()
    gm.locator("#tool-type").select_option("blocking")
    press_drag((4.3, 4.2), (10.2, 9.8))
    expect(features).to_contain_text("B1: Blocking terrain (4 corners)")
    assert terrain()[0]["polygon"] == [[4, 4], [10, 4], [10, 10], [4, 10]]
    # A circle: from its centre out to its edge.
    gm.get_by_role("button", name="Circle").click()
    gm.locator("#tool-type").select_option("deep_water")
    press_drag((24, 24), (27, 24))
    expect(features).to_contain_text("D1: Deep water (24 corners)")
    radii = {round(((x - 24) ** 2 + (y - 24) ** 2) ** 0.5, 1) for x, y in terrain()[1]["polygon"]}
    assert radii == {3.0}
    # A polygon, corner by corner.
    gm.get_by_role("button", name="Polygon").click()
    gm.locator("#tool-type").select_option("hindering")
    for corner in ((14, 20), (20, 20), (17, 26)):
        gm.mouse.click(*at(*corner))
    gm.get_by_role("button", name="Finish polygon").click()
    expect(features).to_contain_text("H1: Hindering terrain (3 corners)")
    shoot(gm, "map-drawn-with-the-mouse")

    # Select the rectangle: its type and keys are fields from the system's terrain kinds.
    gm.get_by_role("button", name="Select and edit").click()
    gm.mouse.click(*at(7, 7))
    panel = gm.locator("#feature-panel")
    expect(panel.get_by_role("heading")).to_have_text("Feature B1")
    panel.get_by_label("Type").select_option(label="Elevated terrain")
    panel.get_by_label("height").fill("2")
    panel.get_by_label("height").press("Tab")
    assert terrain()[0]["type"] == "elevated" and terrain()[0]["height"] == 2
    # Drag a corner; then pick another and delete it.
    gm.mouse.move(*at(10, 10))
    gm.mouse.down()
    gm.mouse.move(*at(12.1, 11.9), steps=6)
    gm.mouse.up()
    assert terrain()[0]["polygon"] == [[4, 4], [10, 4], [12, 12], [4, 10]]
    gm.mouse.click(*at(10, 4))
    gm.keyboard.press("Delete")
    expect(features).to_contain_text("B1: Elevated terrain (3 corners)")
    shoot(gm, "map-editor-corner-edited")

    # Exported as a file, saved, and the file imported into a new map.
    exported = tmp_path / "quarry.json"
    map_file = downloaded_json(
        gm.get_by_role("button", name="Export the map file (JSON)"), exported
    )
    assert map_file["format"] == "tabletop-map/1" and map_file["name"] == "Quarry"
    assert [f["id"] for f in map_file["terrain"]] == ["B1", "D1", "H1"]
    gm.get_by_role("button", name="Save map").click()
    expect(gm.get_by_role("heading", name="Map: Quarry")).to_be_visible()
    saved = Map.objects.get(campaign=campaign)
    assert [f["type"] for f in saved.terrain] == ["elevated", "deep_water", "hindering"]

    gm.goto(f"{asgi_server}/campaigns/{campaign.pk}/maps/new/")
    gm.locator("#map-import").set_input_files(str(exported))
    expect(gm.locator("#tool-status")).to_contain_text("Imported quarry.json: 3 features")
    expect(features).to_contain_text("D1: Deep water (24 corners)")
    expect(gm.locator("#map-form [name=name]")).to_have_value("Quarry")


# -- 4. rosters -------------------------------------------------------------------------------


def test_a_player_picks_a_unit_from_the_catalogue_reads_its_stats_and_moves_the_file(
    asgi_server, browser, tmp_path: Path
):
    who = users("ros", "gm", "p1")
    campaign = campaign_create(gm=who["gm"], name="Roster campaign", system="aod")
    membership_set(campaign=campaign, user=who["p1"], role="player")
    roster = roster_create(campaign=campaign, owner=who["p1"], name="Lance")
    p1 = page_as(browser, asgi_server, who["p1"])
    p1.goto(f"{asgi_server}/campaigns/{campaign.pk}/rosters/{roster.pk}/")

    mech = p1.locator("table.catalogue tr[data-type='mech']")
    expect(mech).to_contain_text("Move")
    expect(mech).to_contain_text("round, 1.75″ across")
    mech.get_by_role("link", name="Pick Mech").click()
    form = p1.locator("#unit-form")
    expect(form.locator("[name=name]")).to_have_value("Mech")
    expect(form.locator("[name=unit_type]")).to_have_value("mech")
    expect(form.locator("[name=move]")).to_have_value("8")
    expect(form.locator("[name=base_diameter]")).to_have_value("1.75")
    form.locator("[name=name]").fill("Atlas")
    form.locator("[name=points]").fill("180")
    form.get_by_role("button", name="Add unit").click()

    row = p1.locator("table.units tr[data-unit='Atlas']")
    expect(row.locator("table.stats-table")).to_contain_text("Base")
    expect(row.locator("table.stats-table")).to_contain_text("round, 1.75″ across")
    expect(row).not_to_contain_text("{")
    expect(row).not_to_contain_text("'shape'")
    shoot(p1, "roster-stats-as-a-table")

    saved = tmp_path / "lance.json"
    roster_file = downloaded_json(
        p1.get_by_role("link", name="Download the roster file (JSON)"), saved
    )
    assert [u["name"] for u in roster_file["units"]] == ["Atlas"]
    p1.get_by_role("link", name="Upload a roster file").click()
    p1.get_by_label("Roster file").set_input_files(str(saved))
    p1.get_by_role("button", name="Import roster").click()
    # The file is this very roster's: asked first (issue 23), then a second one is made.
    p1.get_by_role("button", name="Import a second roster").click()
    expect(p1.locator(".messages")).to_contain_text("Imported Lance")
    assert Roster.objects.filter(owner=who["p1"], campaign=campaign).count() == 2


# -- 5. dice ----------------------------------------------------------------------------------


def test_a_dice_formula_rolls_once_on_a_double_click_in_one_line_with_its_total(table, open_board):
    p1 = open_board("p1")
    p1.locator("#roll-formula").fill("2d6+1")
    p1.locator("#roll-what").fill("morale")
    p1.locator("#roll-form").get_by_role("button", name="Roll").dblclick()

    lines = p1.locator("#dice-log li")
    expect(lines).to_have_count(1, timeout=TIMEOUT_MS)
    p1.wait_for_timeout(1500)  # a second roll would have arrived by now
    expect(lines).to_have_count(1)
    expect(p1.locator("#event-log li")).to_have_count(1)
    text = lines.first.inner_text()
    match = re.search(r"2d6\+1 morale → (\d) \+ (\d) \+ 1 = (\d+)", text)
    assert match, text
    first, second, total = map(int, match.groups())
    assert 1 <= first <= 6 and 1 <= second <= 6 and total == first + second + 1


# -- 6. the grid ------------------------------------------------------------------------------


def test_the_player_toggles_an_inch_grid_and_edge_rulers(table, open_board):
    p1 = open_board("p1")
    grid = p1.locator("#tool-grid")
    expect(grid).to_have_attribute("aria-pressed", "false")
    expect(p1.locator(".grid-lines line")).to_have_count(0)

    p1.keyboard.press("g")

    expect(grid).to_have_attribute("aria-pressed", "true")
    expect(p1.locator(".grid-lines line")).to_have_count(35 + 35)  # every inch of 36" x 36"
    rulers = p1.locator(".edge-rulers text")
    assert "0″" in rulers.all_text_contents() and "36″" in rulers.all_text_contents()
    expect(rulers.first).to_be_visible()
    shoot(p1, "board-inch-grid-and-rulers")
    grid.click()
    expect(p1.locator(".grid-lines line")).to_have_count(0)
    expect(grid).to_have_attribute("aria-pressed", "false")


# -- 7. looks ---------------------------------------------------------------------------------

LONG_NAME = "Sir_" + "Reginald_" * 16  # 148 characters, Django's limit is 150
LONG_BATTLE = "The " + "very long and drawn-out " * 4 + "battle of the ridge"


def test_long_user_and_battle_names_never_push_the_header_apart(table, open_board):
    get_user_model().objects.filter(username="bp1").update(username=LONG_NAME)
    Battle.objects.filter(pk=table.battle.pk).update(name=LONG_BATTLE)
    board = open_board("p1")

    width = board.evaluate("document.documentElement.clientWidth")
    assert board.evaluate("document.documentElement.scrollWidth") <= width
    logout = board.get_by_role("button", name="Log out").bounding_box()
    assert logout["x"] + logout["width"] <= width
    status = board.locator("#turn-status").bounding_box()
    assert status["width"] >= 200, status
    crumbs = board.locator(".board-bar .crumbs").bounding_box()
    assert crumbs["x"] + crumbs["width"] <= status["x"] + 1
    board.goto(f"{table.base_url}/campaigns/{table.battle.campaign_id}/battles/{table.battle.pk}/")
    assert board.evaluate("document.documentElement.scrollWidth") <= width
    shoot(board, "long-names-battle-page")


def test_form_checkboxes_sit_on_their_labels_line(table, browser):
    gm = page_as(browser, table.base_url, Campaign.objects.get(pk=table.battle.campaign_id).gm)
    gm.goto(f"{table.base_url}/campaigns/{table.battle.campaign_id}/")
    box = gm.locator("[name=single_use]").bounding_box()
    label = gm.locator("label[for=id_single_use]").bounding_box()
    assert abs(centre(box)[1] - centre(label)[1]) <= 3, (box, label)
    assert box["x"] + box["width"] <= label["x"], (box, label)


def test_the_facing_notch_is_readable_at_the_default_zoom(table, open_board):
    p1 = open_board("p1")
    notch = p1.locator(f".piece[data-unit='{table.u1}'] .notch").bounding_box()
    base = p1.locator(f".piece[data-unit='{table.u1}'] .base").bounding_box()
    # At least 14 px across, and half the base: told at a glance (it was 10 px, a third).
    assert min(notch["width"], notch["height"]) >= max(14, base["width"] / 2), (notch, base)


def test_the_tool_hint_and_toasts_never_cover_the_table(table, open_board):
    p1 = open_board("p1")
    drag_piece(p1, table.u1, 20, 0)  # twice its move: refused with a toast
    toast = p1.locator(".toast-error").last
    expect(toast).to_contain_text("refused", timeout=TIMEOUT_MS)
    p1.keyboard.press("m")
    expect(p1.locator("#tool-hint")).not_to_be_empty()
    board = p1.locator("#board-svg").bounding_box()
    assert not overlaps(toast.bounding_box(), board), (toast.bounding_box(), board)
    assert not overlaps(p1.locator("#tool-hint").bounding_box(), board)
    for piece in p1.locator(".piece .base").all():
        assert not overlaps(toast.bounding_box(), piece.bounding_box())
    shoot(p1, "toast-beside-the-table")


def test_the_replay_banner_does_not_shift_the_layout(table, open_board):
    p1 = open_board("p1")
    drag_piece(p1, table.u1, 0, 5)
    expect(p1.locator("#event-log li")).to_have_count(1, timeout=TIMEOUT_MS)
    p1.locator("#roll-form").get_by_role("button", name="Roll").click()
    expect(p1.locator("#event-log li")).to_have_count(2, timeout=TIMEOUT_MS)
    before = p1.locator("#board-svg").bounding_box()

    p1.locator("#event-log li").first.click()

    expect(p1.locator("#replay-banner")).to_be_visible()
    assert p1.locator("#board-svg").bounding_box() == before
    shoot(p1, "replay-banner-over-the-hint-strip")


def test_the_event_log_shows_at_least_eight_entries_at_1280x720(table, open_board):
    p1_user = get_user_model().objects.get(username="bp1")
    membership = Membership.objects.get(user=p1_user, campaign_id=table.battle.campaign_id)
    actor = actor_for(table.battle, p1_user, membership)

    def roll_twelve() -> None:
        """Twelve events in the log before the page opens; in a thread of their own, as
        the server's are, where the broadcast after each commit may run."""
        for n in range(12):
            battle_roll(
                battle_id=table.battle.pk, actor=actor, client_msg_id=f"r{n}", count=1, sides=6
            )
        connection.close()

    rolling = threading.Thread(target=roll_twelve)
    rolling.start()
    rolling.join()
    p1 = open_board("p1")
    expect(p1.locator("#event-log li")).to_have_count(12, timeout=TIMEOUT_MS)
    shown = p1.evaluate(
        """() => { const list = document.getElementById('event-log').getBoundingClientRect();
                   return [...document.querySelectorAll('#event-log li')].filter((li) => {
                     const r = li.getBoundingClientRect();
                     return r.top >= list.top - 1 && r.bottom <= list.bottom + 1; }).length; }"""
    )
    assert shown >= 8, shown
    shoot(p1, "event-log-eight-entries")


def test_every_page_shows_a_favicon(asgi_server, browser):
    visitor = page_as(browser, asgi_server)
    visitor.goto(f"{asgi_server}/accounts/login/")
    href = visitor.locator("link[rel=icon]").get_attribute("href")
    icon = visitor.request.get(f"{asgi_server}{href}")
    assert icon.ok and "svg" in icon.headers["content-type"]


# -- 8. make run and the README's three steps --------------------------------------------------


def test_make_run_takes_a_port_prints_the_address_and_the_readme_leads_to_a_board(
    browser, tmp_path: Path
):
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'run.sqlite3'}"}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    # -o: the virtualenv is ready; make must not reinstall it here.
    run = subprocess.Popen(
        ["make", "-s", "-o", ".venv/.installed", "run", f"PORT={port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        printed = []
        for line in run.stdout:
            printed.append(line)
            if "listening at" in line or len(printed) > 400:
                break
        out = "".join(printed)
        assert f"Tabletop is listening at http://127.0.0.1:{port}/" in out, out[-2000:]
        password = re.search(r"alice\s+/\s+(\S+)", out).group(1)
        # The README's three steps: log in, a campaign then a battle, "Open the table".
        alice = page_as(browser, f"http://127.0.0.1:{port}")
        alice.goto(f"http://127.0.0.1:{port}/accounts/login/")
        alice.get_by_label("Username").fill("alice")
        alice.get_by_label("Password").fill(password)
        alice.get_by_role("button", name="Log in").click()
        alice.get_by_role("link", name="Campaigns").click()
        alice.locator("main a[href^='/campaigns/']").first.click()
        alice.locator("a[href*='/battles/']").first.click()
        alice.get_by_role("link", name="Open the table").click()
        expect(alice.locator("#conn")).to_have_attribute("data-state", "live")
        expect(alice.locator(".piece").first).to_be_visible()
    finally:
        os.killpg(run.pid, signal.SIGINT)  # Ctrl-C, as the README says
        try:
            run.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        try:  # whatever of the group is left (the server, should Ctrl-C not reach it)
            os.killpg(run.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        run.wait()
