"""Playing the board from the keyboard in a test: no mouse call (issue 23). The live
regions a screen reader hears (announce.js), focus, Tab, and a piece reached from the list."""

from playwright.sync_api import expect

from tests.browser.conftest import TIMEOUT_MS

POLITE = "#announce-polite"
URGENT = "#announce-urgent"


def heard(page, text, region: str = POLITE) -> None:
    """The live region has said `text` (a string or a pattern); the referee's answer may
    take a while on a loaded machine."""
    expect(page.locator(region)).to_contain_text(text, timeout=TIMEOUT_MS)


def focused(page) -> dict:
    return page.evaluate(
        "({id: document.activeElement.id, unit: document.activeElement.dataset?.unit ?? null,"
        " cls: document.activeElement.getAttribute('class') ?? '',"
        " action: document.activeElement.dataset?.action ?? null})"
    )


def tab_to(page, wanted, limit: int = 40) -> None:
    """Presses Tab until `wanted(focused)` holds."""
    for _ in range(limit):
        if wanted(focused(page)):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached it; focus is on {focused(page)}")


def retype(page, text: str) -> None:
    """Replaces the focused field's text, as a player does: select all, type."""
    page.keyboard.press("Control+A")
    page.keyboard.type(text)


def piece_line(page, unit: str):
    return page.locator(f"#piece-list button[data-unit='{unit}']")


def go_to_piece(page, unit: str) -> None:
    """U (the piece list), Tab to the piece's line, Enter: selected, focus on the table."""
    page.keyboard.press("u")
    tab_to(page, lambda f: f["unit"] == unit)
    page.keyboard.press("Enter")
    expect(page.locator(f".piece[data-unit='{unit}']")).to_be_focused()
