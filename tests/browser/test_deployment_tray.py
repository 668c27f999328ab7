"""Deployment clarity (issue 23, "tray") in Chromium: in deployment the units not yet set
down wait in a tray beside the battle page's table, not on it; one dragged from the tray
onto its zone is deployed through the same referee path (a drop outside the zone refused in
the player's words, the unit back in the tray); and P1 and P2 are drawn in the same
colours on the board, the battle page and the battle report."""

from playwright.sync_api import expect

from tabletop.models import Battle
from tabletop.services.battles import is_deployed
from tests.browser.conftest import ARTIFACTS, signed_in_page
from tests.browser.test_setup_ux import centre, deploying_battle, page_as, table_point, unit_id

SHOTS = ARTIFACTS / "tray"


def drag_from_tray(page, unit: str, to: tuple[float, float]) -> None:
    """Presses on the unit's row in the tray and lets go at the screen point `to`."""
    page.evaluate("document.getElementById('battle-svg').scrollIntoView({block: 'center'})")
    start = centre(page.locator(f"#tray-units li[data-unit='{unit}']").bounding_box())
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0] - 6, start[1] + 4, steps=2)
    page.mouse.move(*to, steps=12)
    page.mouse.up()


def test_undeployed_units_wait_in_the_tray_and_one_dragged_onto_its_zone_is_deployed(
    asgi_server, browser
):
    battle, who = deploying_battle("tray")
    atlas, hunchback, ryoken = (unit_id(battle, n) for n in ("Atlas", "Hunchback", "Ryoken"))
    url = f"{asgi_server}/campaigns/{battle.campaign_id}/battles/{battle.pk}/"
    p1 = page_as(browser, asgi_server, who["p1"])
    p1.goto(url)
    tray, status = p1.locator("#tray-units"), p1.locator("#deploy-status")

    # Every unit in the tray, none on the table; only the player's own can be picked up.
    expect(tray.locator("li.tray-unit")).to_have_text(
        ["Atlas (P1)", "Hunchback (P1)", "Ryoken (P2)"]
    )
    expect(tray.locator("li.tray-unit.placeable")).to_have_count(2)
    for unit in (atlas, hunchback, ryoken):
        expect(p1.locator(f"#battle-svg g.unit[data-unit='{unit}']")).to_be_hidden()
    expect(p1.locator("#battle-svg .unit-name:visible")).to_have_count(0)

    # Let go beside the table: nothing is sent, the Atlas stays in the tray.
    drag_from_tray(p1, atlas, centre(p1.locator("#tray-h").bounding_box()))
    expect(tray.locator(f"li[data-unit='{atlas}']")).to_have_count(1)
    expect(p1.locator(f"#battle-svg g.unit[data-unit='{atlas}']")).to_be_hidden()
    expect(status).to_have_text("")

    # Outside the zone: the referee refuses, in the player's words; back in the tray.
    drag_from_tray(p1, atlas, table_point(p1, "#battle-svg", 12, 20))
    expect(status).to_have_text("Refused: Atlas must be wholly inside side P1's deployment zone.")
    expect(tray.locator(f"li[data-unit='{atlas}']")).to_have_count(1)
    expect(p1.locator(f"#battle-svg g.unit[data-unit='{atlas}']")).to_be_hidden()
    assert not is_deployed(Battle.objects.get(pk=battle.pk), atlas)

    # Inside the zone: deployed, out of the tray and on the table where the server put it.
    drag_from_tray(p1, atlas, table_point(p1, "#battle-svg", 12, 3))
    expect(status).to_have_text("Atlas placed at (12, 3), facing 90°.")
    expect(tray.locator("li.tray-unit")).to_have_text(["Hunchback (P1)", "Ryoken (P2)"])
    piece = p1.locator(f"#battle-svg g.unit[data-unit='{atlas}']")
    expect(piece).to_be_visible()
    expect(piece).to_have_attribute("transform", "translate(12 3) rotate(90)")
    saved = Battle.objects.get(pk=battle.pk)
    assert is_deployed(saved, atlas) and not is_deployed(saved, hunchback)
    assert next(u for u in saved.state["units"] if u["id"] == atlas)["position"] == [12, 3]
    SHOTS.mkdir(parents=True, exist_ok=True)
    p1.locator(".deploy-layout").screenshot(path=str(SHOTS / "tray.png"))

    # Another member's page, opened now, shows the same: the Atlas on the table.
    p2 = page_as(browser, asgi_server, who["p2"])
    p2.goto(url)
    expect(p2.locator("#tray-units li.tray-unit")).to_have_text(["Hunchback (P1)", "Ryoken (P2)"])
    expect(p2.locator(f"#battle-svg g.unit[data-unit='{atlas}']")).to_be_visible()
    expect(p2.locator("#tray-units li.tray-unit.placeable")).to_have_text(["Ryoken (P2)"])


def _fill(page, selector: str) -> str:
    locator = page.locator(selector).first
    expect(locator).to_be_attached()
    return locator.evaluate("(node) => getComputedStyle(node).fill")


def test_each_side_has_one_colour_on_the_board_the_battle_page_and_the_report(table, browser):
    page = signed_in_page(browser, table, "p1")
    page.goto(table.board_url())
    board = {s: _fill(page, f"#board-svg g.piece[data-side='{s}'] .base") for s in ("P1", "P2")}

    battle = f"{table.base_url}/campaigns/{table.battle.campaign_id}/battles/{table.battle.pk}/"
    page.goto(battle)
    units = {"P1": table.u1, "P2": table.u2}
    shown = {s: _fill(page, f"#battle-svg g.unit[data-unit='{u}'] .base") for s, u in units.items()}

    page.goto(f"{table.base_url}/battles/{table.battle.pk}/report/")
    report = {
        s: _fill(page, f".battle-report-figure .unit[data-unit='{u}']") for s, u in units.items()
    }

    assert board == shown == report, (board, shown, report)
    # The stylesheet's first two colours, P1 and P2 in the order of their names.
    assert board == {"P1": "rgb(10, 95, 180)", "P2": "rgb(176, 74, 0)"}
