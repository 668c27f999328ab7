"""Markers on pieces (issue 23): the system's states drawn from its catalogue, and free
markers a player puts on their own pieces (from the piece's menu, by keyboard) that
everyone at the table sees on the piece and its card, after a reload, and in the report.
The table's people are the factory's, prefixed: bp1, bp2, bgm, bspectator.
"""

import pytest
from playwright.sync_api import expect

from tabletop.services.table.marker_palette import COLOURS
from tests.browser.conftest import TIMEOUT_MS, log_lines, shoot

pytestmark = pytest.mark.django_db(transaction=True)


def tags(page, unit: str, kind: str):
    """A piece's tags drawn over it on the table: "state" (the system's) or "free"."""
    return page.locator(f".piece-marks[data-unit='{unit}'] .mark-{kind}")


def words(page, unit: str, kind: str):
    """What those tags read."""
    return tags(page, unit, kind).locator("text")


def mark_from_menu(page, unit: str, text: str, colour: str) -> None:
    """As a keyboard player does: the piece's menu, its last entry, the card's form."""
    page.locator(f".piece[data-unit='{unit}']").click(button="right")
    menu = page.locator("#piece-menu")
    expect(menu.locator(".piece-menu-mark")).to_have_text("Add a marker…")
    page.keyboard.press("End")
    expect(menu.locator(".piece-menu-mark")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#mark-text")).to_be_focused()
    page.keyboard.type(text)
    page.locator("#mark-colour").select_option(colour)
    page.locator("#mark-text").press("Enter")


@pytest.fixture
def shut_down(table):
    """The table with P2's mech shut down: aod's catalogue shows `shutdown` as "shut down"."""
    state = table.battle.state
    units = [{**u, "shutdown": True} if u["id"] == table.u2 else u for u in state["units"]]
    table.battle.state = {**state, "units": units}
    table.battle.save(update_fields=["state"])
    return table


def test_states_and_markers_show_on_the_piece_its_card_and_everyones_board(shut_down, open_board):
    table = shut_down
    p1, p2 = open_board("p1"), open_board("p2")

    for page in (p1, p2):
        expect(words(page, table.u2, "state")).to_have_text(["shut down"], timeout=TIMEOUT_MS)
        expect(tags(page, table.u1, "state")).to_have_count(0)

    mark_from_menu(p1, table.u1, "pinned", "magenta")

    fill, ink = COLOURS["magenta"]
    for page in (p1, p2):
        free = tags(page, table.u1, "free")
        expect(free.locator("text")).to_have_text(["pinned"], timeout=TIMEOUT_MS)
        expect(free.locator("rect")).to_have_attribute("fill", fill)
        expect(free.locator("text")).to_have_attribute("fill", ink)
    # The card lists it; its player may remove it, the other player may not.
    card = p1.locator("#unit-badges li.marker")
    expect(card).to_contain_text("pinned")
    expect(card.locator("button.unmark")).to_have_count(1)
    p2.locator(f".piece[data-unit='{table.u1}']").click()
    expect(p2.locator("#unit-badges li.marker")).to_contain_text("pinned")
    expect(p2.locator("#unit-badges button.unmark")).to_have_count(0)
    expect(p2.locator("#mark-form")).to_be_hidden()
    expect(log_lines(p2).last).to_contain_text("bp1 marked")
    # The piece says its states and markers to a screen reader too.
    label = p2.locator(f".piece[data-unit='{table.u1}']").get_attribute("aria-label")
    assert label.endswith(", pinned")

    # The GM marks P2's mech too; the card's own form, the Enter key.
    gm = open_board("gm")
    gm.locator(f".piece[data-unit='{table.u2}']").click()
    gm.locator("#mark-text").fill("objective")
    gm.locator("#mark-colour").select_option("yellow")
    gm.locator("#mark-text").press("Enter")
    expect(words(p1, table.u2, "free")).to_have_text(["objective"], timeout=TIMEOUT_MS)
    expect(words(p1, table.u2, "state")).to_have_text(["shut down"])
    p1.locator(f".piece[data-unit='{table.u1}']").focus()
    shoot(p1, "markers")

    # Kept across a reload: the snapshot brings them.
    p2.reload()
    p2.wait_for_selector("#conn[data-state='live']")
    expect(words(p2, table.u1, "free")).to_have_text(["pinned"], timeout=TIMEOUT_MS)
    expect(words(p2, table.u2, "free")).to_have_text(["objective"])

    # In the battle's record: the report draws them under the pieces and names them.
    report = p2.context.new_page()
    report.goto(f"{table.base_url}/battles/{table.battle.pk}/report/")
    expect(report.locator("svg g.marks rect.marker")).to_have_count(2)
    expect(report.locator("svg g.marks rect.state")).to_have_count(1)
    expect(report.get_by_text("Markers on pieces:", exact=False).first).to_be_visible()
    report.close()

    # Its player removes it from the card; it goes from every board.
    p1.locator(f".piece[data-unit='{table.u1}']").click()
    p1.locator("#unit-badges li.marker button.unmark").click()
    for page in (p1, p2, gm):
        expect(tags(page, table.u1, "free")).to_have_count(0, timeout=TIMEOUT_MS)
    expect(tags(p2, table.u2, "free")).to_have_count(1)


def test_a_replay_shows_the_markers_and_states_of_its_moment(shut_down, open_board):
    """A marker put (event #1) and taken off (#2): the replay of #1 shows it on the piece,
    in its words and on its card (read-only), beside the states of that position; back
    to live, it is gone again."""
    table = shut_down
    p1 = open_board("p1")
    piece = p1.locator(f".piece[data-unit='{table.u1}']")
    mark_from_menu(p1, table.u1, "pinned", "magenta")
    expect(words(p1, table.u1, "free")).to_have_text(["pinned"], timeout=TIMEOUT_MS)
    piece.click()
    p1.locator("#unit-badges li.marker button.unmark").click()
    expect(tags(p1, table.u1, "free")).to_have_count(0, timeout=TIMEOUT_MS)
    expect(p1.locator("#event-log li")).to_have_count(2, timeout=TIMEOUT_MS)

    p1.locator("#event-log li[data-seq='1']").click()
    expect(p1.locator("#replay-text")).to_contain_text("after event #1")
    expect(words(p1, table.u1, "free")).to_have_text(["pinned"], timeout=TIMEOUT_MS)
    expect(words(p1, table.u2, "state")).to_have_text(["shut down"])
    assert piece.get_attribute("aria-label").endswith(", pinned")
    piece.click()
    expect(p1.locator("#unit-badges li.marker")).to_have_text("pinned")
    expect(p1.locator("#unit-badges button.unmark")).to_have_count(0)
    shoot(p1, "replay-markers")

    p1.locator("#replay-live").click()
    expect(tags(p1, table.u1, "free")).to_have_count(0, timeout=TIMEOUT_MS)
    expect(words(p1, table.u2, "state")).to_have_text(["shut down"])


def test_a_marker_too_long_is_stopped_on_the_board_in_words(table, open_board):
    p1 = open_board("p1")
    p1.locator(f".piece[data-unit='{table.u1}']").click()
    # The field takes no more than the limit; the form says what a marker needs.
    p1.locator("#mark-text").fill("x" * 40)
    assert len(p1.locator("#mark-text").input_value()) == 24
    p1.locator("#mark-text").fill("   ")
    p1.locator("#mark-text").press("Enter")
    expect(p1.locator("#tool-hint")).to_have_text(
        "Add a marker: type a word or two first (“pinned”, “objective”)."
    )
    expect(tags(p1, table.u1, "free")).to_have_count(0)
    # A spectator is offered no form and no menu entry.
    watcher = open_board("spectator")
    watcher.locator(f".piece[data-unit='{table.u1}']").click(button="right")
    expect(watcher.locator("#piece-menu")).to_be_visible()
    expect(watcher.locator(".piece-menu-mark")).to_have_count(0)
    watcher.keyboard.press("Escape")
    expect(watcher.locator("#mark-form")).to_be_hidden()
