"""The record reads well whatever the battle (issue 23, "Records"): the report's title is
never clipped, its unit labels never overlap, a unit that left the board has its own mark
and legend entry, "Rolls" counts rolls, not dice; the campaign chart reads with one
battle and with rosters level with each other."""

import xml.etree.ElementTree as ET
from typing import Any

import pytest
from django.urls import reverse

from tabletop.models import Battle
from tabletop.records.report_svg import text_width, title_lines
from tabletop.services.results import battle_result_record
from tabletop.services.table.dice import battle_roll
from tests.web.test_reports import SVG, actor, move, no_broadcasts, report, table, unit_of

__all__ = ["no_broadcasts"]


LONG_NAME = (
    'The <b>"Siege"</b> & relief of Hightower Ridge, fought over three long evenings by the '
    "whole club in the autumn league"
)

Box = tuple[float, float, float, float]


def view_box(svg: ET.Element) -> Box:
    """(left, top, right, bottom) of the drawing."""
    x, y, w, h = map(float, svg.get("viewBox").split())
    return x, y, x + w, y + h


def words(text: ET.Element) -> str:
    """What a text element shows (not its tooltip)."""
    return (text.text or "") + "".join(child.tail or "" for child in text)


def text_box(text: ET.Element, size: float | None = None) -> Box:
    """Where a text is drawn (left, top, right, bottom), from its place, size and length."""
    x, y = float(text.get("x")), float(text.get("y"))
    size = size or float(text.get("font-size"))
    # The report's own generous estimate, by kinds of character (the browser test
    # measures the drawn text itself).
    wide = text_width(words(text), size)
    anchor = text.get("text-anchor", "start")
    left = x - wide / 2 if anchor == "middle" else x - wide if anchor == "end" else x
    return left, y - size * 0.8, left + wide, y + size * 0.25


def inside(box: Box, frame: Box) -> bool:
    return frame[0] <= box[0] and box[2] <= frame[2] and frame[1] <= box[1] and box[3] <= frame[3]


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def title_texts(svg: ET.Element) -> list[ET.Element]:
    """The texts above the table: the title's lines."""
    return [t for t in svg.iter(f"{SVG}text") if float(t.get("y")) < 0]


def side_by_side(battle: Battle) -> None:
    """P2's mech deployed half an inch east of P1's, before anything is played."""
    state = battle.state
    p1 = next(u for u in state["units"] if u["side"] == "P1")
    p2 = next(u for u in state["units"] if u["side"] == "P2")
    p2["position"] = [p1["position"][0] + 0.5, p1["position"][1], *p2["position"][2:]]
    battle.save(update_fields=["state"])


def fates(battle: Battle, users: dict[str, Any], winner: str, **by_side: str) -> None:
    """The GM records the result: `by_side` each side's mech's fate."""
    battle.refresh_from_db()
    unit_fates = {
        str(battle.unit_labels[unit_of(battle, side)["id"]]["profile"]): fate
        for side, fate in by_side.items()
    }
    battle_result_record(
        actor=users["gm"], battle=battle, winner_side=winner, outcome="Over.", unit_fates=unit_fates
    )


@pytest.mark.django_db
def test_a_long_title_with_markup_wraps_inside_the_report_and_is_whole_in_its_tooltip(
    client,
) -> None:
    battle, users = table()
    battle.name = LONG_NAME
    battle.save(update_fields=["name"])

    svg = report(client, battle, users["p1"])

    lines = title_texts(svg)
    assert len(lines) > 1, "the long title wraps"
    frame = view_box(svg)
    for line in lines:
        assert inside(text_box(line), frame), f"{line.text!r} runs out of the drawing"
    for a, b in zip(lines, lines[1:], strict=False):
        assert not overlap(text_box(a), text_box(b)), "the title's lines do not overlap"
    whole = f"{LONG_NAME}: battle report"
    heading = next(g for g in svg.iter(f"{SVG}g") if g.get("class") == "report-title")
    assert heading.find(f"{SVG}title").text == whole
    shown = " ".join(line.text for line in lines)
    assert shown.startswith('The <b>"Siege"</b> & relief'), "the markup shows as text"
    assert not list(heading.iter(f"{SVG}b")), "no markup of the name's reaches the drawing"


@pytest.mark.django_db
def test_a_title_of_the_widest_letters_stays_inside_the_report_shortened(client) -> None:
    battle, users = table()
    battle.name = "W" * 120  # as long as a name may be, of the widest letter
    battle.save(update_fields=["name"])

    svg = report(client, battle, users["p1"])

    lines = title_texts(svg)
    assert len(lines) == 3
    assert all(inside(text_box(line), view_box(svg)) for line in lines)
    assert lines[-1].text.endswith("…"), "too wide for three lines: shortened"
    heading = next(g for g in svg.iter(f"{SVG}g") if g.get("class") == "report-title")
    assert heading.find(f"{SVG}title").text == "W" * 120 + ": battle report", "told whole"


def test_a_title_too_long_for_three_lines_is_shortened_with_an_ellipsis() -> None:
    lines = title_lines("Hightower " * 30, lambda text: len(text) <= 40)

    assert len(lines) == 3 and lines[-1].endswith("…")
    assert all(len(line) <= 40 for line in lines)


@pytest.mark.django_db
def test_the_labels_of_pieces_side_by_side_do_not_overlap(client) -> None:
    battle, users = table()
    side_by_side(battle)

    svg = report(client, battle, users["p1"])

    names = {battle.unit_labels[unit_of(battle, s)["id"]]["name"] for s in ("P1", "P2")}
    labels = [t for t in svg.iter(f"{SVG}text") if t.text in names]
    assert len(labels) == 2
    boxes = [text_box(t) for t in labels]
    assert not overlap(boxes[0], boxes[1]), boxes
    assert all(inside(box, view_box(svg)) for box in boxes)


@pytest.mark.django_db
def test_a_unit_that_left_the_board_has_its_own_mark_and_legend_entry(client) -> None:
    battle, users = table()
    fates(battle, users, "", P1="destroyed", P2="off_board")

    svg = report(client, battle, users["p1"])

    losses = {g.get("data-fate"): g for g in svg.iter(f"{SVG}g") if g.get("class") == "loss"}
    assert set(losses) == {"destroyed", "off_board"}
    assert losses["off_board"].find(f"{SVG}title").text.endswith(": left the board")

    def shape(mark: ET.Element) -> list[tuple[str, str | None]]:
        return [(e.tag, e.get("stroke") or e.get("fill")) for e in mark if e.tag != f"{SVG}title"]

    assert shape(losses["off_board"]) != shape(losses["destroyed"]), "a mark of its own"
    legend = {
        g.get("data-fate"): g for g in svg.iter(f"{SVG}g") if g.get("class") == "legend-entry"
    }
    assert legend["off_board"].find(f"{SVG}text").text == "left the board"
    assert legend["destroyed"].find(f"{SVG}text").text == "destroyed"
    assert shape(legend["off_board"])[:-1] == shape(losses["off_board"]), "the legend's mark"
    assert shape(legend["destroyed"])[:-1] == shape(losses["destroyed"])


@pytest.mark.django_db
def test_rolls_counts_each_roll_once_however_many_dice_it_threw(client) -> None:
    battle, users = table()
    for msg, count in (("r-1", 3), ("r-2", 1)):
        battle_roll(battle_id=battle.pk, actor=actor(battle, users["p2"]), client_msg_id=msg,
                    count=count, sides=6, what="P2 fires")  # fmt: skip
    client.force_login(users["p1"])

    page = client.get(reverse("battle_report", args=[battle.pk])).content.decode()

    row = page[page.index('<tr data-side="P2">') :]
    cells = row[: row.index("</tr>")].split("<td>")[1:]
    assert cells[3].startswith("2</td>"), "two rolls, though four dice"
    assert "P2: 0 moves; 0 refused by the rules; 2 rolls," in page
    assert "Dice: 4 x d6" in page, "the dice line still counts each die"


#: The chart's font size (px).
CHART_FONT = 11.0


def chart_of(client, battle: Battle, user: Any) -> ET.Element:
    client.force_login(user)
    page = client.get(reverse("campaign", args=[battle.campaign_id])).content.decode()
    start = page.index('<svg xmlns="http://www.w3.org/2000/svg" class="campaign-chart"')
    return ET.fromstring(page[start : page.index("</svg>", start) + 6])


def chart_texts(chart: ET.Element) -> list[ET.Element]:
    return list(chart.iter(f"{SVG}text"))


def points_of(chart: ET.Element) -> dict[str, list[tuple[float, float]]]:
    return {
        line.get("data-roster"): [
            (float(p.split(",")[0]), float(p.split(",")[1])) for p in line.get("points").split()
        ]
        for line in chart.iter(f"{SVG}polyline")
    }


@pytest.mark.django_db
def test_the_chart_of_one_battle_has_its_axes_labelled_and_nothing_overlapping(client) -> None:
    battle, users = table()
    move(battle, users["p1"], "P1", "m-1", (0, 3))
    fates(battle, users, "P1", P2="destroyed")

    chart = chart_of(client, battle, users["spectator"])

    for points in points_of(chart).values():
        assert len(points) == 2 and points[1][0] - points[0][0] > 100, "start, then the battle"
    assert {"0", "3", "start", "points"} <= {words(t) for t in chart_texts(chart)}
    frame = (0.0, 0.0, float(chart.get("width")), float(chart.get("height")))
    boxes = []
    for text in chart_texts(chart):
        if text.get("transform"):
            continue  # the axis title, turned along the axis at its left
        box = text_box(text, CHART_FONT)
        assert inside(box, frame), f"{words(text)!r} runs out of the chart"
        boxes.append((words(text), box))
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[i + 1 :]:
            assert not overlap(box_a, box_b), f"{a!r} and {b!r} overlap"


@pytest.mark.django_db
def test_rosters_level_with_each_other_are_both_drawn_and_named_apart(client) -> None:
    battle, users = table()
    fates(battle, users, "")  # a draw: a point each

    chart = chart_of(client, battle, users["spectator"])

    lines = points_of(chart)
    rosters = {str(battle.sides.get(side=s).roster.pk): s for s in ("P1", "P2")}
    assert set(lines) == set(rosters)
    first, second = (lines[r] for r in rosters)
    assert all(a[1] != b[1] for a, b in zip(first, second, strict=True)), "both lines show"
    assert first[1][1] < first[0][1] and second[1][1] < second[0][1], "both climb"
    names = [t for t in chart.iter(f"{SVG}text") if t.get("class") == "roster-label"]
    assert sorted(words(n) for n in names) == sorted(
        f"{battle.sides.get(side=s).roster.name}: 1" for s in ("P1", "P2")
    )
    (a, b) = (text_box(n, CHART_FONT) for n in names)
    assert not overlap(a, b)
