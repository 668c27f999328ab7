"""What the board writes on the table stays readable (issue 13, "Confusing"): refusal text
inside the view, on a light backing and off the pieces; pieces' names that never overprint
one another; the turn status whole beside a long battle name (ui.md, "What the player reads")."""

import time

import pytest
from playwright.sync_api import expect

from tabletop.models import Battle
from tests.browser.conftest import TIMEOUT_MS, drag_piece, shoot

pytestmark = pytest.mark.django_db(transaction=True)

#: Blocking terrain (aod "Blocking terrain", dark hatching) beside the P1 mech's way north,
#: where its refusal is written; the P2 mech stands in it, under the text's first place.
ROCKS = {"id": "R1", "type": "blocking", "polygon": [[2.6, 8], [14, 8], [14, 16], [2.6, 16]]}


@pytest.fixture
def table(table, request):
    """The conftest's table, arranged for the test (its `arrange`) before any browser starts:
    Playwright's event loop refuses synchronous database access."""
    getattr(request.function, "arrange", lambda table: None)(table)
    return table


def arranged_by(arrange):
    """Marks a test whose table `arrange(table)` sets up first."""

    def mark(test):
        test.arrange = arrange
        return test

    return mark


def boxes(page, selector: str) -> list[dict]:
    """The screen boxes of the visible elements matching `selector`."""
    return page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)]
             .filter((n) => getComputedStyle(n).visibility !== 'hidden')
             .map((n) => { const r = n.getBoundingClientRect();
                           return {x: r.left, y: r.top, w: r.width, h: r.height,
                                   text: n.textContent}; })""",
        selector,
    )


def meet(a: dict, b: dict) -> bool:
    across = a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"]
    return across and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]


def inside(inner: dict, outer: dict) -> bool:
    return (
        inner["x"] >= outer["x"] - 0.5
        and inner["y"] >= outer["y"] - 0.5
        and inner["x"] + inner["w"] <= outer["x"] + outer["w"] + 0.5
        and inner["y"] + inner["h"] <= outer["y"] + outer["h"] + 0.5
    )


def svg_box(page) -> dict:
    return boxes(page, "#board-svg")[0]


def rocks_and_the_p2_mech_by_the_way_north(table) -> None:
    units = [
        {**u, "position": [4.5, 12.4]} if u["side"] == "P2" else u
        for u in table.battle.state["units"]
    ]
    table.battle.state = {**table.battle.state, "units": units, "terrain": [ROCKS]}
    table.battle.save(update_fields=["state"])


@arranged_by(rocks_and_the_p2_mech_by_the_way_north)
def test_refusal_text_stays_inside_the_view_on_a_backing_and_off_the_pieces(table, open_board):
    """001 [16]: a move longer than the allowance is refused where it runs out; the reason is
    written there, and stays whole in view when the player zooms and pans onto that point."""
    p1 = open_board("p1")

    drag_piece(p1, table.u1, 0, 16, release=False)
    reason = p1.locator(".violation-text").first
    expect(reason).to_contain_text("P1 mech needs", timeout=TIMEOUT_MS)
    p1.wait_for_timeout(300)
    # Zoomed in, the point where the move goes wrong in the view's top-left corner.
    p1.evaluate(
        """() => { const view = window.tabletop.view; view.zoomAt(2.5);
                   const r = document.querySelector('circle.violation').getBoundingClientRect();
                   const svg = document.getElementById('board-svg').getBoundingClientRect();
                   view.panBy(svg.left + 12 - (r.left + r.width / 2),
                              svg.top + 12 - (r.top + r.height / 2)); }"""
    )
    p1.wait_for_timeout(300)

    view = svg_box(p1)
    labels = boxes(p1, ".violation-text, .cost-text")
    assert len(labels) >= 2
    for label in labels:
        assert inside(label, view), (label, view)
    # A light rounded backing under each, so red reads on the dark blocking pattern.
    backings = boxes(p1, ".plan-labels .label-backdrop")
    for label in labels:
        assert any(inside(label, backing) for backing in backings), (label, backings)
    fill = p1.evaluate("getComputedStyle(document.querySelector('.label-backdrop')).fill")
    assert fill.startswith("rgba(255, 255, 255"), fill
    shoot(p1, "refusal-text-readable-zoomed")

    # Back at the default zoom: the reason still covers neither the P2 mech nor any base.
    p1.evaluate("window.tabletop.view.fit()")
    p1.wait_for_timeout(300)
    bases = boxes(p1, ".pieces .piece .base")
    reasons = boxes(p1, ".violation-text")
    assert reasons
    for reason_box in reasons:
        assert inside(reason_box, svg_box(p1))
        assert not any(meet(reason_box, base) for base in bases), (reason_box, bases)
    shoot(p1, "refusal-text-readable")
    p1.mouse.up()


def six_close_mechs(table) -> None:
    """Six P1 mechs (1.75" bases) in a row, 0.5" between bases, named at length."""
    mech = next(u for u in table.battle.state["units"] if u["side"] == "P1")
    units = [u for u in table.battle.state["units"] if u["side"] != "P1"]
    for i in range(6):
        unit_id = table.u1 if i == 0 else f"M{i}"
        units.append({**mech, "id": unit_id, "position": [8 + 2.25 * i, 10], "facing": 90})
        table.battle.unit_labels[unit_id] = {"name": f"Heavy assault mech {i + 1}"}
    table.battle.state = {**table.battle.state, "units": units}
    table.battle.save(update_fields=["state", "unit_labels"])


def overprinted_names(page) -> list[tuple[str, str]]:
    """Pairs of shown names that overprint or touch: names that merely touch (less than
    half a pixel apart) overprint by a rounding, as two did in CI zoomed out."""
    names = boxes(page, ".piece-label")
    grown = [
        {**n, "x": n["x"] - 0.5, "y": n["y"] - 0.5, "w": n["w"] + 1, "h": n["h"] + 1} for n in names
    ]
    pairs = [(a, b) for i, a in enumerate(grown) for b in names[i + 1 :]]
    return [(a["text"], b["text"]) for a, b in pairs if meet(a, b)]


def overprinted_names_once_settled(page, seconds: float = 5.0) -> list[tuple[str, str]]:
    """What overprints once zooming and the names' layout have settled (a zoom glides,
    and on a loaded machine the layout after it may come later than a fixed wait)."""
    deadline = time.monotonic() + seconds
    while (overprinted := overprinted_names(page)) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    return overprinted


@arranged_by(six_close_mechs)
def test_close_pieces_names_never_overprint_at_any_zoom_nor_after_a_move(table, open_board):
    p1 = open_board("p1")
    expect(p1.locator(".piece")).to_have_count(7)
    assert overprinted_names_once_settled(p1) == []
    assert len(boxes(p1, ".piece-label")) >= 4  # most names still shown at the default zoom
    shoot(p1, "labels-decluttered")

    for _ in range(3):
        p1.locator("#zoom-out").click()
    # Names stacked in rows used to touch exactly and, zoomed out, overprint by a rounding.
    assert overprinted_names_once_settled(p1) == []
    assert len(boxes(p1, ".piece-label")) >= 1
    # A hidden name is still the piece's title, on hover.
    expect(p1.locator(".piece[data-unit='M3'] title")).to_contain_text("Heavy assault mech 4")
    shoot(p1, "labels-decluttered-zoomed-out")

    # After a move the names are laid out again.
    p1.locator("#zoom-fit").click()
    drag_piece(p1, "M2", 0, 1.2)
    expect(p1.locator("#event-log li")).to_have_count(1, timeout=TIMEOUT_MS)
    assert overprinted_names_once_settled(p1) == []  # after the glide


def a_120_character_battle_name(table) -> None:
    name = "Battle of the " + "long ridge " * 9 + "x" * 7
    Battle.objects.filter(pk=table.battle.pk).update(name=name)
    assert len(Battle.objects.get(pk=table.battle.pk).name) == 120


@arranged_by(a_120_character_battle_name)
def test_a_long_battle_name_leaves_the_turn_status_whole(table, open_board):
    p1 = open_board("p1")
    status = p1.locator("#turn-status")
    expect(status).to_contain_text("orders left", timeout=TIMEOUT_MS)

    assert status.evaluate("(n) => n.scrollWidth <= n.clientWidth"), status.text_content()
    box = status.bounding_box()
    assert box["x"] + box["width"] <= p1.evaluate("document.documentElement.clientWidth")
    # The battle name gives way instead.
    assert p1.locator(".board-bar .crumbs").evaluate("(n) => n.scrollWidth > n.clientWidth")


def a_long_named_mech_at_the_left_edge(table) -> None:
    """The P1 mech with a long name, its base touching the table's left edge."""
    units = [
        {**u, "position": [0.9, 10], "facing": 90} if u["id"] == table.u1 else u
        for u in table.battle.state["units"]
    ]
    table.battle.unit_labels[table.u1] = {"name": "Heavy assault mech of the left"}
    table.battle.state = {**table.battle.state, "units": units}
    table.battle.save(update_fields=["state", "unit_labels"])


@arranged_by(a_long_named_mech_at_the_left_edge)
def test_a_pieces_name_by_the_tables_edge_is_written_whole_inside_the_view(table, open_board):
    """A name centred under a piece at the edge ran past the view and was cut ("g src=x
    onerror=al…" in a tablet screenshot): it takes a place inside the view instead."""
    p1 = open_board("p1")
    name = p1.locator(f".piece-label[data-unit='{table.u1}']")
    expect(name).to_have_text("Heavy assault mech of…", timeout=TIMEOUT_MS)
    # Zoomed in, the piece at the view's left edge, as on a tablet looking at that corner.
    p1.evaluate(
        """(id) => { const view = window.tabletop.view; view.zoomAt(2.5);
                     const r = document.querySelector(`.piece[data-unit='${id}'] .base`)
                       .getBoundingClientRect();
                     const svg = document.getElementById('board-svg').getBoundingClientRect();
                     view.panBy(svg.left + r.width / 2 + 4 - (r.left + r.width / 2),
                                svg.top + svg.height / 2 - (r.top + r.height / 2)); }""",
        table.u1,
    )
    p1.wait_for_timeout(300)

    deadline = time.monotonic() + 5
    while True:
        shown = [b for b in boxes(p1, ".piece-label") if b["text"].startswith("Heavy")]
        if (shown and inside(shown[0], svg_box(p1))) or time.monotonic() > deadline:
            break
        p1.wait_for_timeout(100)
    assert shown, "the name is hidden though there is room for it beside the piece"
    assert inside(shown[0], svg_box(p1)), (shown[0], svg_box(p1))
