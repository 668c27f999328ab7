"""Take-backs in the browser: a player moves, asks to take back the move, and the
opponent accepts (both boards show the piece back where it was) or declines (it stays)."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    ARTIFACTS,
    TIMEOUT_MS,
    drag_piece,
    expected_transform,
    piece,
    transform,
)

pytestmark = pytest.mark.django_db(transaction=True)
#: The issue's screenshots (not committed).
SHOTS = ARTIFACTS / "takeback"


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def moved_and_asked(table, p1, p2) -> str:
    """p1 (bp1) moves their mech 5" north and asks to take it back; the position before it."""
    start = transform(p2, table.u1)
    expect(p1.locator("#take-back")).to_be_disabled()  # nothing of p1's to take back yet
    drag_piece(p1, table.u1, 0, 5)
    expect(piece(p2, table.u1)).not_to_have_attribute("transform", start, timeout=TIMEOUT_MS)
    expect(p1.locator("#take-back")).to_be_enabled(timeout=TIMEOUT_MS)
    expect(p2.locator("#take-back")).to_be_disabled()  # not p2's order
    p1.locator("#take-back").click()
    prompt = p2.locator("#takeback-prompt")
    expect(prompt).to_be_visible(timeout=TIMEOUT_MS)
    expect(prompt).to_contain_text("bp1 asks to take back P1 mech's move (#1)")
    expect(p2.locator(".toast", has_text="Take-back asked")).to_be_visible()
    expect(p1.locator("#takeback-prompt")).to_contain_text("You asked to take back")
    expect(p1.locator("#takeback-withdraw")).to_be_visible()
    expect(p1.locator("#take-back")).to_be_disabled()  # one request at a time
    return start


def test_the_opponent_accepts_and_both_boards_show_the_piece_back(table, open_board):
    p1, p2 = open_board("p1"), open_board("p2")
    start = moved_and_asked(table, p1, p2)
    expect(p1.locator(f".piece[data-unit='{table.u1}']")).not_to_have_attribute("transform", start)
    shot(p2, "asked")

    p2.locator("#takeback-accept").click()

    for page in (p1, p2):
        expect(piece(page, table.u1)).to_have_attribute("transform", start, timeout=TIMEOUT_MS)
        expect(page.locator("#takeback-prompt")).to_be_hidden()
        expect(page.locator(".toast", has_text="Take-back accepted")).to_contain_text(
            "bp2 let bp1 take back #1"
        )
        expect(page.locator("#event-log li[data-seq='3']")).to_contain_text(
            "bp2 accepted bp1's take-back: #1 undone"
        )
    # The order was given back: P1 has its orders again, and nothing left to take back.
    expect(p1.locator("#turn-status")).to_contain_text("3 orders left")
    expect(p1.locator("#take-back")).to_be_disabled()
    shot(p1, "accepted")


def test_the_opponent_declines_and_the_move_stands(table, open_board):
    p1, p2, watcher = open_board("p1"), open_board("p2"), open_board("spectator")
    start = moved_and_asked(table, p1, p2)
    # Where the piece ends (its move may still be animating on the boards).
    moved = expected_transform(p1, table.u1)
    # A spectator sees the request, with nothing to press.
    expect(watcher.locator("#takeback-prompt")).to_contain_text("waiting for the answer")
    expect(watcher.locator("#takeback-prompt button")).to_have_count(0)

    p2.locator("#takeback-decline").click()

    expect(p1.locator(".toast", has_text="Take-back declined")).to_contain_text(
        "bp2 declined to let bp1 take back #1; it stands."
    )
    for page in (p1, p2, watcher):
        expect(page.locator("#takeback-prompt")).to_be_hidden(timeout=TIMEOUT_MS)
        expect(piece(page, table.u1)).to_have_attribute("transform", moved)
        assert moved != start
    expect(p1.locator("#event-log li[data-seq='3']")).to_contain_text(
        "bp2 declined bp1's take-back of #1"
    )
    # Declined once: the button does not offer it again.
    expect(p1.locator("#take-back")).to_be_disabled()
