"""The board on a tablet and a phone (issue 23, "Tablets and phones"): Chromium with touch
emulation (`has_touch`), fingers put down through the DevTools protocol
(Input.dispatchTouchEvent, several at once for a pinch), and the piece's menu, opened by a
long press or a right-click."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    ARTIFACTS,
    EVIL,
    TIMEOUT_MS,
    Table,
    drag_piece,
    expected_transform,
    go_to_board,
    inches_per_px,
    piece,
    piece_centre,
    seq_of,
    settle,
    signed_in_page,
    transform,
)

pytestmark = pytest.mark.django_db(transaction=True)

TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 844, "height": 390}  # a phone held sideways
SHOTS = ARTIFACTS / "touch"
HOLD_MS = 800  # longer than the board's long press


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


class Fingers:
    """Fingers on a page's touch screen: each call says where every finger down now is
    (Input.dispatchTouchEvent), as a touch screen reports them."""

    def __init__(self, page):
        self.page = page
        self.cdp = page.context.new_cdp_session(page)
        self.down_now: list[tuple[float, float]] = []

    def _send(self, kind: str, points: list[tuple[float, float]]) -> None:
        touch_points = [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": touch_points})
        self.down_now = list(points)

    def put(self, *points: tuple[float, float]) -> None:
        """Puts fingers down, beside those already down."""
        self._send("touchStart", [*self.down_now, *points])

    def slide(self, *to: tuple[float, float], steps: int = 10) -> None:
        """Moves the fingers down (in order) to `to`, in even steps."""
        pairs = list(zip(self.down_now, to, strict=True))
        for k in range(1, steps + 1):
            t = k / steps
            self._send(
                "touchMove",
                [(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t) for a, b in pairs],
            )
            self.page.wait_for_timeout(16)

    def lift(self) -> None:
        self._send("touchEnd", [])

    def hold(self, point: tuple[float, float], ms: int = HOLD_MS) -> None:
        """A long press: a finger held still at `point`, then lifted."""
        self.put(point)
        self.page.wait_for_timeout(ms)
        self.lift()

    def drag(self, point: tuple[float, float], dx_in: float, dy_in: float) -> None:
        """A finger from `point` to (dx, dy) inches away on the table (y north), held there
        until the last preview is judged (conftest.settle); not lifted."""
        px = 1 / inches_per_px(self.page)
        self.put(point)
        self.slide((point[0] + 4, point[1] - 4), steps=2)
        self.slide((point[0] + dx_in * px, point[1] - dy_in * px), steps=12)
        self.page.wait_for_timeout(250)
        settle(self.page)


@pytest.fixture
def open_touch(browser, table: Table):
    """open_touch(role, viewport) -> a page with a touch screen (a tablet unless told)
    showing the board as that member, ready."""
    contexts = []

    def open_as(role: str, viewport: dict = TABLET):
        page = signed_in_page(browser, table, role, viewport, has_touch=True)
        contexts.append(page.context)
        return go_to_board(page, table)

    yield open_as
    for context in contexts:
        context.close()


def view_box(page) -> list[float]:
    return [float(v) for v in page.locator("#board-svg").get_attribute("viewBox").split()]


def table_point(page, x: float, y: float) -> list[float]:
    return page.evaluate("([x, y]) => window.tabletop.view.tablePoint(x, y)", [x, y])


def offered_labels(page, unit: str) -> list[str]:
    """The server's offers for a piece, in the catalogue's words."""
    return page.evaluate(
        "(id) => window.tabletop.store.offered(id).map((t) => window.tabletop.actions.label(t))",
        unit,
    )


def menu_entries(page):
    """The menu's action entries, the bar's (beside them, "Add a marker…": test_markers)."""
    return page.locator("#piece-menu [role=menuitem][data-action]")


def reason_codes(page) -> list[str]:
    return page.evaluate("window.tabletop.mover.verdict.reasons.map((r) => r.code)")


def test_a_finger_drags_a_piece_and_the_referee_judges_it_as_it_does_the_mouse(
    table, open_board, open_touch
):
    desk, tablet = open_board("p2"), open_touch("p1")
    mouse = open_board("p1")
    fingers = Fingers(tablet)
    start = transform(desk, table.u1)

    # Too far: while the finger holds it, the referee's refusal is drawn where it goes wrong...
    fingers.drag(piece_centre(tablet, table.u1), 0, 16)
    expect(tablet.locator(".path-illegal")).to_have_count(1, timeout=TIMEOUT_MS)
    expect(tablet.locator(".violation-text").first).to_contain_text("P1 mech needs")
    # ...and it is the very verdict the mouse gets for the same drag.
    drag_piece(mouse, table.u1, 0, 16, release=False)
    expect(mouse.locator(".path-illegal")).to_have_count(1, timeout=TIMEOUT_MS)
    assert reason_codes(tablet) == reason_codes(mouse) != []
    mouse.keyboard.press("Escape")
    mouse.mouse.up()

    fingers.lift()
    toast = tablet.locator(".toast-error")
    expect(toast).to_contain_text("move refused", timeout=TIMEOUT_MS)
    expect(toast).to_contain_text(re.compile(r"P1 mech needs .* but has 10"))
    expect(tablet.locator(".ghost")).to_have_count(0, timeout=TIMEOUT_MS)
    assert seq_of(desk) == 0 and transform(desk, table.u1) == start

    # A legal drag: the finger's release commits it, for everyone.
    fingers.drag(piece_centre(tablet, table.u1), 0, 5)
    expect(tablet.locator(".path-legal")).to_have_count(1)
    shoot(tablet, "tablet")
    fingers.lift()
    expect(desk.locator("#event-log li")).to_have_count(1, timeout=TIMEOUT_MS)
    expect(desk.locator("#event-log li").first).to_contain_text("P1 mech move")
    # The desk may apply the broadcast before the tablet does: read the tablet's
    # position once it has applied the move too.
    tablet.wait_for_function("() => window.tabletop.store.seq >= 1", timeout=TIMEOUT_MS)
    moved = expected_transform(tablet, table.u1)
    assert moved != start
    expect(piece(desk, table.u1)).to_have_attribute("transform", moved, timeout=TIMEOUT_MS)


def test_a_tap_selects_a_piece_and_a_wandering_finger_moves_nothing(table, open_touch):
    tablet = open_touch("p1")
    fingers = Fingers(tablet)
    x, y = piece_centre(tablet, table.u1)
    start = transform(tablet, table.u1)

    # A finger never lies quite still: a tap that wanders some pixels only selects.
    fingers.put((x, y))
    fingers.slide((x + 6, y - 5), steps=3)
    fingers.lift()

    expect(tablet.locator("#unit-name")).to_have_text("P1 mech")
    tablet.wait_for_timeout(500)
    expect(tablet.locator(".ghost")).to_have_count(0)
    assert seq_of(tablet) == 0 and transform(tablet, table.u1) == start


def test_two_fingers_pinch_zoom_and_pan_the_view_and_move_no_piece(table, open_touch):
    tablet = open_touch("p1")
    fingers = Fingers(tablet)
    box = tablet.locator("#board-svg").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    width, under = view_box(tablet)[2], table_point(tablet, cx, cy)

    # Spread from 100 px apart to 300: three times the zoom, about the fingers' midpoint.
    fingers.put((cx - 50, cy), (cx + 50, cy))
    fingers.slide((cx - 150, cy), (cx + 150, cy))
    fingers.lift()
    assert view_box(tablet)[2] == pytest.approx(width / 3, rel=0.05)
    assert table_point(tablet, cx, cy) == pytest.approx(under, abs=0.2)

    # Both fingers slide 120 px right: the table follows the hand.
    x_before, px = view_box(tablet)[0], inches_per_px(tablet)
    fingers.put((cx - 60, cy), (cx + 60, cy))
    fingers.slide((cx + 60, cy), (cx + 180, cy))
    fingers.lift()
    assert view_box(tablet)[0] == pytest.approx(x_before - 120 * px, abs=0.1)

    # A pinch begun on a piece zooms out; the piece is not dragged, nothing is sent.
    tablet.locator("#zoom-fit").click()
    start, width = transform(tablet, table.u1), view_box(tablet)[2]
    x, y = piece_centre(tablet, table.u1)
    fingers.put((x, y))
    fingers.slide((x + 20, y - 20), steps=3)  # the piece's drag begins...
    fingers.put((x + 300, y - 300))  # ...and a second finger makes it the view's
    fingers.slide((x + 100, y - 100), (x + 200, y - 200))
    expect(tablet.locator(".ghost")).to_have_count(0)
    fingers.lift()
    assert view_box(tablet)[2] > width * 1.3
    tablet.wait_for_timeout(800)
    assert seq_of(tablet) == 0 and transform(tablet, table.u1) == start


def test_a_long_press_opens_the_pieces_menu_and_an_entry_acts(table, open_touch):
    tablet, other = open_touch("p1"), open_touch("p2")
    fingers = Fingers(tablet)
    start = transform(tablet, table.u1)

    fingers.hold(piece_centre(tablet, table.u1))

    menu = tablet.locator("#piece-menu")
    expect(menu).to_be_visible()
    expect(menu).to_contain_text("P1 mech")
    # What it may do now: the server's offers for it, in the catalogue's words.
    offers = offered_labels(tablet, table.u1)
    assert len(offers) > 1
    expect(menu_entries(tablet)).to_have_text(offers)
    assert seq_of(tablet) == 0 and transform(tablet, table.u1) == start  # the hold moved nothing
    shoot(tablet, "menu")

    # Run, as the bar's Run does: chosen for the next drag, which the referee rules a run.
    tablet.touchscreen.tap(*center(menu_entries(tablet).filter(has_text=re.compile("^Run$"))))
    expect(menu).to_be_hidden()
    expect(tablet.locator("#actions button[data-action='run']")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(tablet.locator("#tool-hint")).to_have_text("Run: drag P1 mech to where it goes.")
    fingers.drag(piece_centre(tablet, table.u1), 0, 8)
    fingers.lift()
    expect(other.locator("#event-log li")).to_have_count(1, timeout=TIMEOUT_MS)
    expect(other.locator("#event-log li").first).to_contain_text("P1 mech run")

    # Ordered, the piece has nothing more open this turn: its menu says so.
    tablet.wait_for_timeout(1000)  # the piece's glide
    fingers.hold(piece_centre(tablet, table.u1))
    expect(menu).to_be_visible()
    expect(menu_entries(tablet)).to_have_count(0)
    expect(menu).to_contain_text("Nothing more is open to it this turn.")

    # The opponent's piece (named with markup, shown as text): it offers this player nothing.
    tablet.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    fingers.hold(piece_centre(tablet, table.u2))
    expect(menu.locator(".piece-menu-title")).to_have_text(EVIL)
    expect(menu_entries(tablet)).to_have_count(0)
    expect(menu).to_contain_text("not yours to order")


def center(locator) -> tuple[float, float]:
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_the_right_click_menu_lists_the_offers_and_an_entry_acts(table, open_board):
    p1, p2 = open_board("p1"), open_board("p2")

    piece(p1, table.u1).click(button="right")

    menu = p1.locator("#piece-menu")
    expect(menu).to_be_visible()
    offers = offered_labels(p1, table.u1)
    expect(menu_entries(p1)).to_have_text(offers)
    # The menu's entries are the bar's: the same buttons shown, in the same order.
    shown = p1.locator("#actions button:visible, #point-actions button:visible")
    assert [b.get_attribute("data-action") for b in shown.all()] == [
        e.get_attribute("data-action") for e in menu_entries(p1).all()
    ]
    # Keys move through it; Escape closes it and nothing else.
    p1.keyboard.press("ArrowDown")
    expect(menu_entries(p1).nth(1)).to_be_focused()
    p1.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    expect(p1.locator("#unit-name")).to_have_text("P1 mech")

    # An entry that acts where the piece stands (no drag): sent at once, as the bar's is.
    piece(p1, table.u1).click(button="right")
    at_once = p1.evaluate(
        """(id) => window.tabletop.store.offered(id).find((t) =>
             window.tabletop.actions.catalogue.find((a) => a.type === t)?.at_once) ?? null""",
        table.u1,
    )
    assert at_once is not None
    menu.locator(f"[data-action='{at_once}']").click()
    expect(menu).to_be_hidden()
    expect(p2.locator("#event-log li")).to_have_count(1, timeout=TIMEOUT_MS)
    label = p1.evaluate("(t) => window.tabletop.actions.label(t)", at_once)
    expect(p2.locator("#event-log li").first).to_contain_text(label.lower())

    # A right-click on the empty table opens no menu.
    box = p1.locator("#board-svg").bounding_box()
    p1.mouse.click(box["x"] + box["width"] / 2, box["y"] + 40, button="right")
    expect(menu).to_be_hidden()


def within(inner: dict, outer: dict, slack: float = 0.5) -> bool:
    return (
        inner["x"] >= outer["x"] - slack
        and inner["y"] >= outer["y"] - slack
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + slack
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + slack
    )


NO_OVERFLOW = dict.fromkeys(("page_x", "page_y", "header", "bar", "left", "right"), 0)


def overflow(page) -> dict:
    """How far the page, its bars and its open drawer overflow their boxes, in px."""
    return page.evaluate(
        """() => {
          const over = (n) => n ? Math.max(0, n.scrollWidth - n.clientWidth) : 0;
          const d = document.documentElement;
          const $ = (id) => document.getElementById(id);
          return {
            page_x: Math.max(0, d.scrollWidth - innerWidth),
            page_y: Math.max(0, d.scrollHeight - innerHeight),
            header: over(document.querySelector('.board-bar')), bar: over($('action-bar')),
            left: over($('panel-left')), right: over($('panel-right')),
          };
        }"""
    )


def test_the_panels_fit_a_tablet_as_drawers(table, open_touch):
    gm = open_touch("gm")
    viewport = {"x": 0, "y": 0, **TABLET}
    assert overflow(gm) == NO_OVERFLOW
    expect(gm.locator("#panel-left")).to_be_hidden()
    expect(gm.locator("#panel-right")).to_be_hidden()
    table_box = gm.locator("#board-svg").bounding_box()
    assert within(table_box, viewport) and table_box["width"] == TABLET["width"]

    for side, controls in (
        ("left", ["#undo-form button", "#delay-form button", "#legend-h"]),
        ("right", ["#scrubber", "#roll-form button", "#chat-form button", "#presence-h"]),
    ):
        toggle = gm.locator(f"[data-drawer='{side}']")
        toggle.tap()
        drawer = gm.locator(f"#panel-{side}")
        expect(drawer).to_be_in_viewport(ratio=1)
        gm.wait_for_timeout(300)  # the drawer's slide
        box = drawer.bounding_box()
        assert within(box, viewport)
        for control in controls:
            node = gm.locator(control)
            node.scroll_into_view_if_needed()
            assert within(node.bounding_box(), drawer.bounding_box()), control
        assert overflow(gm) == NO_OVERFLOW
        if side == "left":
            shoot(gm, "tablet-drawer")
        toggle.tap()
        expect(drawer).to_be_hidden()


def test_a_spectator_on_a_phone_held_sideways_sees_the_table(table, open_touch):
    watcher = open_touch("spectator", PHONE)
    viewport = {"x": 0, "y": 0, **PHONE}
    fingers = Fingers(watcher)

    assert overflow(watcher) == NO_OVERFLOW
    surface = watcher.locator("#board-svg .table-surface").bounding_box()
    assert within(surface, viewport)
    assert surface["height"] >= PHONE["height"] * 0.6  # the table, not the chrome, has the screen
    for unit in (table.u1, table.u2):
        expect(piece(watcher, unit)).to_be_in_viewport(ratio=1)
    expect(watcher.locator("#turn-status")).to_contain_text("P1 to act")
    expect(watcher.locator("#watching")).to_be_visible()
    expect(watcher.locator("#turn-status")).to_be_in_viewport(ratio=1)
    watcher.locator("[data-drawer='right']").tap()
    expect(watcher.locator("#panel-right")).to_be_in_viewport(ratio=1)
    watcher.locator("[data-drawer='right']").tap()
    expect(watcher.locator("#panel-right")).to_be_hidden()

    # The spectator's finger only looks: a drag moves nothing, a long press offers nothing.
    start = transform(watcher, table.u1)
    fingers.drag(piece_centre(watcher, table.u1), 0, 4)
    expect(watcher.locator(".ghost")).to_have_count(0)
    fingers.lift()
    fingers.hold(piece_centre(watcher, table.u1))
    expect(watcher.locator("#piece-menu")).to_contain_text("Watching: read-only.")
    expect(menu_entries(watcher)).to_have_count(0)
    assert transform(watcher, table.u1) == start
    watcher.keyboard.press("Escape")
    expect(watcher.locator("#piece-menu")).to_be_hidden()
    shoot(watcher, "phone")
