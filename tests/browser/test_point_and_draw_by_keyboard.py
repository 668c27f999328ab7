"""Point, draw and measure with the keyboard alone (issue 23, "every action on the board can
be reached from the keyboard"): with a tool on, the arrows move its cross on the table,
Enter sets the point there and T types it; what it did is read in the live regions. No
mouse call in this file. And the record's replay shows the drawings of the moment shown.
The table's people are the factory's, prefixed: bp1, bp2, bgm, bspectator."""

import math

import pytest
from playwright.sync_api import expect

from tests.browser.axe import axe_violations, severe, summary
from tests.browser.conftest import TIMEOUT_MS, Table, log_lines, seq_of, shoot
from tests.browser.keyboard import URGENT, go_to_piece, heard, retype, tab_to
from tests.web.test_reports import moved_drew_and_ended

pytestmark = pytest.mark.django_db(transaction=True)


def drawn(page, kind: str, by: str = "bp1"):
    return page.locator(f".annotations .annotation[data-kind='{kind}'][data-by='{by}']")


def type_point(page, x: float, y: float, label: str) -> None:
    """T, the two numbers, Enter: the tool's point set there."""
    page.keyboard.press("t")
    expect(page.locator("#goto-x")).to_be_focused()
    expect(page.locator("#goto-label")).to_have_text(label)
    retype(page, f"{x:g}")
    page.keyboard.press("Tab")
    retype(page, f"{y:g}")
    page.keyboard.press("Enter")


def press(page, key: str, times: int) -> None:
    for _ in range(times):
        page.keyboard.press(key)


def draw_options(page, kind_steps: int) -> None:
    """D: the Draw tool on and its options focused; the kind picked with the arrows
    (arrow, line, circle, label)."""
    page.keyboard.press("d")
    expect(page.locator("#tool-draw")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#draw-kind")).to_be_focused()
    press(page, "ArrowDown", kind_steps)


def test_a_player_measures_pings_and_draws_with_the_keyboard_alone(table: Table, open_board):
    p1, p2 = open_board("p1"), open_board("p2")
    errors: list[str] = []
    p1.on("pageerror", lambda error: errors.append(str(error)))

    # Measure: the first point typed, the cross stepped 8" east and 6" north, Enter. The
    # typed point's fields are there while they serve: no piece is selected, a tool is on.
    expect(p1.locator("#goto-form")).to_be_hidden()
    p1.keyboard.press("m")
    expect(p1.locator(".table-cursor")).to_be_visible()
    type_point(p1, 10, 10, "Point to measure")
    heard(p1, "First point: 10.0, 10.0. Move the cross to the other end, then Enter.")
    p1.keyboard.press("Escape")  # out of the field, back to the table: the tool stays on
    press(p1, "ArrowRight", 8)
    press(p1, "ArrowUp", 6)
    heard(p1, "Cross at 18.0, 16.0: 10.0″ from the first point.")
    p1.keyboard.press("Enter")
    heard(p1, "Measure: 10.0″")
    expect(p1.locator(".tool-labels .measure-text")).to_have_text("10.0″")
    shoot(p1, "keyboard-measure")

    # P pings at the cross: the other player sees the pulse there and hears who pinged.
    p1.keyboard.press("p")
    ring = p2.locator(".pings .ping[data-user='bp1'] .ping-ring")
    expect(ring).to_have_count(1, timeout=TIMEOUT_MS)
    assert [float(ring.get_attribute("cx")), float(ring.get_attribute("cy"))] == [18, 16]
    heard(p2, "bp1 pinged the table at 18, 16.")
    p1.keyboard.press("Escape")  # the measure off
    expect(p1.locator("#tool-measure")).to_have_attribute("aria-pressed", "false")
    expect(p1.locator(".table-cursor")).to_have_count(0)
    expect(p1.locator("#goto-form")).to_be_hidden()

    # An arrow: D (an arrow is the first kind), back to the table, Enter at the cross (where
    # the measure left it), 4" west and 6" south, Enter.
    draw_options(p1, 0)
    p1.keyboard.press("Escape")
    p1.keyboard.press("Enter")
    heard(p1, "First point: 18.0, 16.0.")
    press(p1, "ArrowLeft", 4)
    press(p1, "ArrowDown", 6)
    p1.keyboard.press("Enter")
    for page in (p1, p2):
        line = drawn(page, "arrow").locator("line")
        expect(line).to_have_count(1, timeout=TIMEOUT_MS)
        assert [float(line.get_attribute(k)) for k in ("x1", "y1", "x2", "y2")] == [18, 16, 14, 10]
        heard(page, "bp1 drew an arrow")

    # A circle of 4" at the cross: the kind and the radius from the keyboard too.
    p1.keyboard.press("Escape")  # drawing off
    draw_options(p1, 2)
    expect(p1.locator("#draw-kind")).to_have_value("circle")
    p1.keyboard.press("Tab")
    expect(p1.locator("#draw-radius")).to_be_focused()
    retype(p1, "4")
    p1.keyboard.press("Escape")
    p1.keyboard.press("Enter")
    for page in (p1, p2):
        circle = drawn(page, "circle").locator("circle")
        expect(circle).to_have_attribute("r", "4", timeout=TIMEOUT_MS)
        assert [float(circle.get_attribute(k)) for k in ("cx", "cy")] == [14, 10]
        heard(page, "bp1 drew a circle of 4″")

    # A label: without its text it is not sent, and the refusal is read at once.
    p1.keyboard.press("Escape")
    draw_options(p1, 3)
    expect(p1.locator("#draw-kind")).to_have_value("label")
    p1.keyboard.press("Escape")
    seq = seq_of(p1)
    p1.keyboard.press("Enter")
    heard(p1, "Draw a label: type its text first.", URGENT)
    expect(p1.locator("#draw-text")).to_be_focused()
    p1.wait_for_timeout(300)
    assert seq_of(p1) == seq
    p1.keyboard.type("objective")
    p1.keyboard.press("Escape")
    type_point(p1, 24, 23.5, "Point for the label")
    for page in (p1, p2):
        text = page.locator(".annotation-labels .annotation-text")
        expect(text).to_have_text("objective", timeout=TIMEOUT_MS)
        pin = drawn(page, "label").locator("circle.label-pin")
        assert [float(pin.get_attribute(k)) for k in ("cx", "cy")] == [24, 23.5]
        heard(page, "bp1 drew a label “objective”")
        expect(page.locator("#annotation-list li")).to_have_count(3)
    expect(log_lines(p2)).to_have_count(3)
    shoot(p2, "keyboard-drawn-seen-by-the-other-player")
    assert errors == []


def test_the_cross_keeps_in_a_zoomed_view(table: Table, open_board):
    """Zoomed in about six times, the arrows walk the measure's cross to the table's east
    and north edges: the view pans with it, so the cross never leaves the screen."""
    p1 = open_board("p1")
    svg = p1.locator("#board-svg")
    before = svg.get_attribute("viewBox")
    press(p1, "=", 8)
    expect(svg).not_to_have_attribute("viewBox", before)
    p1.keyboard.press("m")
    cross = p1.locator(".table-cursor")
    expect(cross).to_be_visible()
    screen = svg.bounding_box()
    for key in ("ArrowRight", "ArrowUp"):
        for _ in range(5):
            press(p1, key, 10)
            at = cross.bounding_box()
            assert screen["x"] <= at["x"] and at["x"] + at["width"] <= screen["x"] + screen["width"]
            assert (
                screen["y"] <= at["y"] and at["y"] + at["height"] <= screen["y"] + screen["height"]
            )
    shoot(p1, "keyboard-cross-zoomed")


def test_measure_and_line_of_sight_between_pieces_reached_by_tab(table: Table, open_board):
    p1 = open_board("p1")
    go_to_piece(p1, table.u1)
    p1.keyboard.press("m")  # the cross on the selected piece: Enter picks the piece
    p1.keyboard.press("Enter")
    heard(p1, "First point: P1 mech.")
    go_to_piece(p1, table.u2)  # the cross follows the focus onto the other piece
    p1.keyboard.press("Enter")
    a, b = (
        p1.evaluate(f"window.tabletop.store.unit('{u}').position") for u in (table.u1, table.u2)
    )
    centre = math.hypot(b[0] - a[0], b[1] - a[1])
    heard(p1, f"Measure: centre {centre:.1f}″ · edge")

    # Line of sight, the same way: the referee's ruling is read out.
    p1.keyboard.press("l")
    expect(p1.locator("#tool-los")).to_have_attribute("aria-pressed", "true")
    go_to_piece(p1, table.u1)
    p1.keyboard.press("Enter")
    go_to_piece(p1, table.u2)
    p1.keyboard.press("Enter")
    heard(p1, "Line of sight (the referee's ruling): Clear.")


def test_the_board_with_the_drawing_tool_open_has_no_serious_accessibility_violation(
    table: Table, open_board
):
    page = open_board("p1")
    draw_options(page, 0)
    page.keyboard.press("Escape")
    expect(page.locator(".table-cursor")).to_be_visible()
    page.keyboard.press("ArrowUp")
    heard(page, "Cross at")
    page.keyboard.press("t")  # the typed point's fields shown, for the arrow
    expect(page.locator("#goto-label")).to_have_text("Point for the arrow")
    found = axe_violations(page)
    print(f"\naxe, the board drawing ({len(found)} violations):\n{summary(found) or 'none'}")
    assert severe(found) == [], summary(severe(found))


@pytest.fixture
def drawn_at_2(table: Table) -> Table:
    """P1 moved (seq 1), drew an arrow (seq 2) and ended the turn (seq 3)."""
    battle = table.battle
    users = {m.user.username.removeprefix("b"): m.user for m in battle.campaign.memberships.all()}
    moved_drew_and_ended(battle, users, {"kind": "arrow", "from": [14, 10], "to": [24, 22]})
    return table


def test_the_replay_shows_a_drawing_from_the_moment_it_was_drawn(drawn_at_2: Table, open_board):
    p2 = open_board("p2")
    expect(drawn(p2, "arrow")).to_have_count(1)
    p2.keyboard.press("j")
    p2.keyboard.press("Shift+Tab")
    expect(p2.locator("#scrubber")).to_be_focused()

    p2.keyboard.press("ArrowLeft")  # the table after event 2: the arrow drawn then
    expect(p2.locator("#replay-text")).to_contain_text("after event #2")
    expect(drawn(p2, "arrow")).to_have_count(1, timeout=TIMEOUT_MS)
    shoot(p2, "replay-with-annotation")
    p2.keyboard.press("ArrowLeft")  # after event 1: not drawn yet
    expect(p2.locator("#replay-text")).to_contain_text("after event #1")
    expect(drawn(p2, "arrow")).to_have_count(0, timeout=TIMEOUT_MS)
    expect(p2.locator(".piece")).to_have_count(2)  # the past table is shown, without it
    p2.keyboard.press("ArrowRight")
    expect(p2.locator("#replay-text")).to_contain_text("after event #2")
    expect(drawn(p2, "arrow")).to_have_count(1, timeout=TIMEOUT_MS)
    tab_to(p2, lambda f: f["id"] == "replay-live")
    p2.keyboard.press("Enter")
    expect(drawn(p2, "arrow")).to_have_count(1)
