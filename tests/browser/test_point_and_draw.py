"""Point and draw (issue 23): a ping everyone at the table sees with the pinger's name, and
annotations drawn by one player that the others see, after a reload too, until removed.
The table's people are the factory's, prefixed: bp1, bp2, bgm, bspectator.
"""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import TIMEOUT_MS, log_lines, seq_of, shoot

pytestmark = pytest.mark.django_db(transaction=True)


def on_screen(page, x: float, y: float) -> tuple[float, float]:
    """The client position of the table point (x, y) in inches (y north)."""
    return tuple(
        page.evaluate(
            """([x, y]) => {
                const svg = document.getElementById("board-svg");
                const pt = svg.createSVGPoint();
                pt.x = x; pt.y = Number(svg.dataset.height) - y;
                const p = pt.matrixTransform(svg.getScreenCTM());
                return [p.x, p.y];
            }""",
            [x, y],
        )
    )


def alt_click(page, x: float, y: float) -> None:
    page.keyboard.down("Alt")
    page.mouse.click(*on_screen(page, x, y))
    page.keyboard.up("Alt")


def draw(page, kind: str, *points: tuple[float, float], text: str = "", radius: str = "") -> None:
    """Draws as a player does: the kind (and its text or radius), the Draw tool, clicks."""
    page.locator("#draw-kind").select_option(kind)
    if text:
        page.locator("#draw-text").fill(text)
    if radius:
        page.locator("#draw-radius").fill(radius)
    if page.locator("#tool-draw").get_attribute("aria-pressed") != "true":
        page.locator("#tool-draw").click()
    for x, y in points:
        page.mouse.click(*on_screen(page, x, y))


def drawn(page, kind: str, by: str):
    return page.locator(f".annotations .annotation[data-kind='{kind}'][data-by='{by}']")


def test_a_ping_pulses_on_the_other_boards_with_the_pingers_name(table, open_board):
    p1, p2, watcher = open_board("p1"), open_board("p2"), open_board("spectator")

    alt_click(p1, 20, 14)

    for page in (p2, watcher, p1):
        expect(page.locator(".pings .ping[data-user='bp1']")).to_have_count(1, timeout=TIMEOUT_MS)
        expect(page.locator(".ping-labels .ping-label")).to_have_text("bp1")
    expect(p2.locator("#tool-hint")).to_have_text("bp1 pinged the table at (20, 14).")
    shoot(p2, "ping")
    # Transient: nothing in the log, and the pulse fades.
    assert seq_of(p2) == 0
    expect(log_lines(p2)).to_have_count(0)
    expect(p2.locator(".pings .ping")).to_have_count(0, timeout=TIMEOUT_MS)

    # P pings at the selected piece: the GM's pulse lands on P2's mech for the others.
    gm = open_board("gm")
    gm.locator(f".piece[data-unit='{table.u2}']").click()
    gm.keyboard.press("p")
    expect(p1.locator(".pings .ping[data-user='bgm']")).to_have_count(1, timeout=TIMEOUT_MS)
    at = p1.evaluate("(id) => window.tabletop.store.unit(id).position", table.u2)
    ring = p1.locator(".pings .ping[data-user='bgm'] .ping-ring")
    assert [float(ring.get_attribute("cx")), float(ring.get_attribute("cy"))] == at[:2]

    # A spectator watches: their Alt-click sends nothing, and the hint says why.
    alt_click(watcher, 10, 10)
    expect(watcher.locator("#tool-hint")).to_have_text(
        "Ping: spectators watch; the players and the GM ping."
    )
    p2.wait_for_timeout(500)
    expect(p2.locator(".pings .ping[data-user='bspectator']")).to_have_count(0)


def test_an_annotation_shows_for_everyone_after_a_reload_and_goes_when_removed(table, open_board):
    p1, p2, watcher = open_board("p1"), open_board("p2"), open_board("spectator")
    expect(watcher.locator("#tool-draw")).to_be_hidden()  # spectators do not draw

    draw(p1, "arrow", (14, 10), (24, 22))
    draw(p1, "label", (24, 23.5), text="objective")
    draw(p1, "circle", (14, 10), radius="4")

    for page in (p2, watcher):
        arrow = drawn(page, "arrow", "bp1")
        expect(arrow).to_have_count(1, timeout=TIMEOUT_MS)
        line = arrow.locator("line")
        ends = [float(line.get_attribute(k)) for k in ("x1", "y1", "x2", "y2")]
        assert ends == [14, 10, 24, 22]
        expect(page.locator(".annotation-labels .annotation-text")).to_have_text("objective")
        circle = drawn(page, "circle", "bp1").locator("circle")
        expect(circle).to_have_attribute("r", "4", timeout=TIMEOUT_MS)
        expect(page.locator("#annotation-list li")).to_have_count(3)
    expect(p2.locator("#annotation-list li").first).to_contain_text("bp1arrow")
    # Only the author (or the GM) is offered to remove it.
    expect(p2.locator("#annotation-list button.erase")).to_have_count(0)
    expect(watcher.locator("#annotation-list button.erase")).to_have_count(0)
    expect(p1.locator("#annotation-list button.erase")).to_have_count(3)
    expect(log_lines(p2).first).to_contain_text("bp1 drew an arrow")
    expect(log_lines(p2).nth(2)).to_contain_text("bp1 drew a circle of 4″")
    p1.keyboard.press("Escape")  # the Draw tool off
    shoot(p2, "annotation")

    # Kept across a reload: the snapshot brings them.
    p2.reload()
    p2.wait_for_selector("#conn[data-state='live']")
    expect(drawn(p2, "arrow", "bp1")).to_have_count(1, timeout=TIMEOUT_MS)
    expect(p2.locator(".annotation-labels .annotation-text")).to_have_text("objective")

    # In the battle's record: the report draws them and names them.
    report = p2.context.new_page()
    report.goto(f"{table.base_url}/battles/{table.battle.pk}/report/")
    expect(report.locator("svg g.annotation")).to_have_count(3)
    expect(report.locator("svg g.annotation[data-kind='arrow'][data-by='bp1']")).to_have_count(1)
    expect(report.get_by_text("Drawn on the table: bp1's arrow", exact=False).first).to_be_visible()
    report.close()

    # The author removes the arrow; the GM removes the label.
    p1.locator("#annotation-list li", has_text="arrow").locator("button.erase").click()
    for page in (p2, watcher):
        expect(drawn(page, "arrow", "bp1")).to_have_count(0, timeout=TIMEOUT_MS)
        expect(page.locator("#annotation-list li")).to_have_count(2)
    gm = open_board("gm")
    gm.locator("#annotation-list li", has_text="objective").locator("button.erase").click()
    for page in (p1, p2, watcher):
        expect(page.locator(".annotation-labels .annotation-text")).to_have_count(
            0, timeout=TIMEOUT_MS
        )
    expect(log_lines(p2).last).to_contain_text("bgm removed drawing #2")
    # The position never changed: the pieces' hash is checked after every table event,
    # and none of these is one; the log has 5 lines, no table change among them.
    assert p2.evaluate("window.tabletop.store.lastChange") is None


def test_a_label_without_text_is_not_sent_and_the_hint_says_so(table, open_board):
    p1 = open_board("p1")
    draw(p1, "label", (10, 10))
    expect(p1.locator("#tool-hint")).to_have_text("Draw a label: type its text first.")
    p1.wait_for_timeout(300)
    assert seq_of(p1) == 0
