"""The battle report as one SVG file: the map, each unit's path turn by turn, where units
fell, the refusals and rolls that mattered, the result. Rendered on the server from the
story (tabletop/records/story.py), so it is the same for every reader and needs no board.

Coordinates: one SVG unit is one inch; the table's y grows north (scenario format), the
SVG's south, so a point (x, y) is drawn at (x, height - y). Every text goes through
`escape`; nothing a user typed reaches the file unescaped.
"""

import base64
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from html import escape

from tabletop.records.side_colours import side_colour as colour_of
from tabletop.records.story import Point, Refusal, SideTally, Story
from tabletop.services.table.marker_palette import COLOURS

MARGIN = 1.0


def side_colour(story: Story, side: str) -> str:
    return colour_of(story.sides, side)


def _n(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


def _value(value: object) -> str:
    return _n(value) if isinstance(value, float) else str(value)


def tag(name: str, attrs: Mapping[str, object], inner: str = "") -> str:
    """One SVG element; attribute values escaped (`stroke_width` is written stroke-width)."""
    written = "".join(
        f' {key.rstrip("_").replace("_", "-")}="{escape(_value(v))}"' for key, v in attrs.items()
    )
    return f"<{name}{written}>{inner}</{name}>" if inner else f"<{name}{written}/>"


class Numbers(dict[float, str]):
    """`_n` of each number, written once per drawing: a long battle's paths come back to
    the same coordinates many times. A zero is not kept, since 0.0 and -0.0 are one key
    but are written "0" and "-0"."""

    def __missing__(self, value: float) -> str:
        written = _n(value)
        if value:
            self[value] = written
        return written


class Escaped(dict[str, str]):
    """`escape` of each text, done once per drawing: a long battle's paths name the same
    few units, sides and ways of moving thousands of times."""

    def __missing__(self, text: str) -> str:
        self[text] = escaped = escape(text)
        return escaped


class Canvas:
    def __init__(self, story: Story) -> None:
        self.story = story
        self.parts: list[str] = []
        self.numbers = Numbers()
        self.escaped = Escaped()

    def xy(self, point: Point) -> str:
        return f"{self.numbers[point[0]]},{self.numbers[self.story.height - point[1]]}"

    def points(self, points: Iterable[Point]) -> str:
        """Points for a `points` attribute: numbers only, so nothing to escape."""
        number, height = self.numbers, self.story.height
        return " ".join([f"{number[x]},{number[height - y]}" for x, y, *_ in points])

    def add(self, text: str) -> None:
        self.parts.append(text)

    def text(self, x: float, y: float, content: str, size: float, **attrs: str) -> None:
        extra = "".join(
            f' {k.rstrip("_").replace("_", "-")}="{escape(v)}"' for k, v in attrs.items()
        )
        self.add(
            f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}"{extra}>{escape(content)}</text>'
        )


def _backdrop(canvas: Canvas) -> None:
    """The map's picture, under the terrain, by its address (the report page loads it as
    the board does; the report file carries it inside: `embed_backdrop`)."""
    picture = canvas.story.backdrop
    if picture is None:
        return
    top = canvas.story.height - picture["y"] - picture["height"]
    attrs = {"class_": "backdrop", "href": picture["url"], "x": float(picture["x"])}
    attrs |= {"y": float(top), "width": float(picture["width"])}
    attrs |= {"height": float(picture["height"]), "preserveAspectRatio": "none"}
    canvas.add(tag("image", attrs))


def embed_backdrop(svg: str, url: str, data: bytes, content_type: str) -> str:
    """The report with its picture inside (a data: address), so the file shows it anywhere."""
    inline = f"data:{content_type};base64,{base64.b64encode(data).decode('ascii')}"
    return svg.replace(f'href="{escape(url)}"', f'href="{inline}"', 1)


def _terrain(canvas: Canvas) -> None:
    # Over a picture the terrain is thinner, so the picture shows through (as on the board).
    opacity = "0.5" if canvas.story.backdrop else "0.75"
    canvas.add('<g class="terrain">')
    for feature in canvas.story.terrain:
        points = " ".join(canvas.xy((p[0], p[1])) for p in feature.get("polygon", []))
        kind = str(feature.get("type", ""))
        name = str(feature.get("id", ""))
        title = f"<title>{escape(name)} ({escape(kind.replace('_', ' '))})</title>"
        # Its system's style, the one the board draws (story.terrain_styles).
        style = canvas.story.terrain_style(kind)
        attrs = {"points": points, "fill": style["fill"], "fill_opacity": opacity}
        attrs |= {"stroke": style["stroke"], "stroke_width": "0.05", "data_terrain": name}
        canvas.add(tag("polygon", attrs, title))
        xs = [p[0] for p in feature.get("polygon", [])] or [0]
        ys = [p[1] for p in feature.get("polygon", [])] or [0]
        canvas.text(
            sum(xs) / len(xs), canvas.story.height - sum(ys) / len(ys),
            f"{feature.get('id', '')} · {kind.replace('_', ' ')}",
            0.6, text_anchor="middle", fill="#1d2125", fill_opacity="0.8",
        )  # fmt: skip
    canvas.add("</g>")


def _paths(canvas: Canvas) -> None:
    """One polyline per leg, written whole (a long battle has thousands): the numbers and
    the points need no escaping, each text is escaped once per drawing."""
    story, escaped = canvas.story, canvas.escaped
    canvas.add('<g class="paths" fill="none" stroke-linecap="round" stroke-linejoin="round">')
    colours: dict[str, str] = {}
    for leg in story.legs:
        colour = colours.get(leg.side)
        if colour is None:
            colour = colours[leg.side] = escape(side_colour(story, leg.side))
        name = escaped[story.names.get(leg.unit, leg.unit)]
        fiat = ", by fiat" if leg.how == "fiat" else ""
        dashes = ' stroke-dasharray="0.3 0.25"' if leg.how != "act" else ""
        canvas.add(
            f'<polyline class="path" data-unit="{escaped[leg.unit]}"'
            f' data-side="{escaped[leg.side]}" data-turn="{leg.turn}" data-seq="{leg.seq}"'
            f' data-how="{escaped[leg.how]}"'
            f' points="{canvas.points(leg.points)}" stroke="{colour}" stroke-width="0.18"'
            f' stroke-opacity="0.85"{dashes}><title>{name},'
            f" turn {leg.turn} (event {leg.seq}{fiat})</title></polyline>"
        )
    canvas.add("</g>")


def _turn_markers(canvas: Canvas) -> None:
    story = canvas.story
    canvas.add('<g class="turn-markers">')
    for unit, side, turn, point in story.turn_ends():
        x, y = point[0], story.height - point[1]
        canvas.add(
            f'<g class="turn-marker" data-unit="{escape(unit)}" data-turn="{turn}">'
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="0.42" fill="#fff" '
            f'stroke="{side_colour(story, side)}" stroke-width="0.12"/>'
        )
        canvas.text(x, y + 0.2, str(turn), 0.55, text_anchor="middle", font_weight="bold")
        canvas.add("</g>")
    canvas.add("</g>")


def _base_shape(unit_id: str, unit: dict, x: float, y: float, colour: str) -> str:
    """The base at its true size and shape where the unit ended: a circle, or a rect turned
    to its facing (width across the facing, length along it; scenario format)."""
    base = unit.get("base") or {}
    paint = {"fill": colour, "fill_opacity": "0.45", "stroke": colour, "stroke_width": "0.06"}
    if base.get("shape") == "rect":
        width, length = float(base.get("width", 1)), float(base.get("length", 1))
        # The SVG's y runs south, so a counter-clockwise facing turns clockwise here.
        turn = f"translate({_n(x)} {_n(y)}) rotate({_n(-float(unit.get('facing', 0)))})"
        box = {"x": -length / 2, "y": -width / 2, "width": length, "height": width}
        return tag(
            "rect", {"class_": "unit", "data_unit": unit_id, **box, **paint, "transform": turn}
        )
    radius = float(base.get("diameter", 1)) / 2
    return tag(
        "circle", {"class_": "unit", "data_unit": unit_id, "cx": x, "cy": y, "r": radius, **paint}
    )


def _units(canvas: Canvas) -> None:
    """Each unit where it started (hollow) and where it stands at the end (solid, named)."""
    story = canvas.story
    canvas.add('<g class="units">')
    for unit_id, unit in story.start.items():
        if unit.get("aboard") or not isinstance(unit.get("position"), list):
            continue
        x, y = unit["position"][0], story.height - unit["position"][1]
        attrs = {"class_": "start", "data_unit": unit_id, "x": x - 0.35, "y": y - 0.35}
        attrs |= {"width": "0.7", "height": "0.7", "fill": "none", "stroke_width": "0.1"}
        canvas.add(tag("rect", attrs | {"stroke": side_colour(story, str(unit.get("side")))}))
    labels = LabelPlaces(-MARGIN, story.width + MARGIN)
    for unit_id, unit in story.end.items():
        if unit.get("aboard") or not isinstance(unit.get("position"), list):
            continue
        x, y = unit["position"][0], story.height - unit["position"][1]
        colour = side_colour(story, str(unit.get("side")))
        canvas.add(_base_shape(unit_id, unit, x, y, colour))
        base = unit.get("base") or {}
        across = float(base.get("diameter") or max(base.get("width", 1), base.get("length", 1)))
        name = story.names.get(unit_id, unit_id)
        at_x, at_y = labels.place(name, x, y - across / 2 - 0.3, y + across / 2 + 0.3 + 0.6, 0.6)
        canvas.text(
            at_x, at_y, name, 0.6, text_anchor="middle", class_="unit-label", data_unit=unit_id,
            fill="#1d2125", stroke="#fff", stroke_width="0.12", paint_order="stroke",
        )  # fmt: skip
        _marks(canvas, unit_id, x, y + across / 2 + 0.2)
    canvas.add("</g>")


def _marks(canvas: Canvas, unit_id: str, x: float, top: float) -> None:
    """A piece's states and free markers under it, a row of small tags as the board
    draws them: a state in the report's ink on white, a free marker in its colour."""
    marks = canvas.story.marks_of(unit_id)
    if not marks:
        return
    size, pad = 0.45, 0.12
    widths = [len(text) * size * 0.56 + 2 * pad for text, _ in marks]
    left = x - (sum(widths) + 0.1 * (len(widths) - 1)) / 2
    canvas.add(f'<g class="marks" data-unit="{escape(unit_id)}">')
    for (text, colour), w in zip(marks, widths, strict=True):
        fill, ink = COLOURS.get(colour or "", ("#ffffff", "#1d2125"))
        kind = "marker" if colour else "state"
        canvas.add(
            tag("rect", {"class_": kind, "x": left, "y": top, "width": w, "height": size + 0.14,
                         "rx": "0.15", "fill": fill, "stroke": "#1d2125",
                         "stroke_width": "0.03"})
        )  # fmt: skip
        canvas.text(left + w / 2, top + size, text, size, text_anchor="middle", fill=ink)
        left += w + 0.1
    canvas.add("</g>")


#: Characters' widths, as a share of the font size, in a bold sans-serif face (DejaVu Sans
#: Bold, what system-ui is on a Debian desktop; a regular face is narrower): so a width
#: estimated with them holds the drawn text, a name of capitals or of W's included.
NARROW, WIDE = frozenset(" .,:;'|!()[]{}iljtfrI"), frozenset("MWmw@%&")


def text_width(text: str, size: float) -> float:
    """A generous estimate of how wide `text` is drawn at `size`."""
    ems = sum(
        0.4 if c in NARROW else 1.05 if c in WIDE else 0.8 if c.isupper() else 0.7 for c in text
    )
    return ems * size


class LabelPlaces:
    """Where unit labels go so that no two overlap: above the unit if that place is free,
    else below it, else further away, in turn (greedy, in the order the units come)."""

    def __init__(self, left: float, right: float) -> None:
        self.left, self.right = left, right
        self.taken: list[tuple[float, float, float, float]] = []

    def box(self, text: str, x: float, y: float, size: float) -> tuple[float, float, float, float]:
        """The label's box (left, top, right, bottom) for a text centred on x, baseline y."""
        half = text_width(text, size) / 2
        return x - half, y - size * 0.85, x + half, y + size * 0.3

    def place(self, text: str, x: float, above: float, below: float, size: float) -> Point:
        half = text_width(text, size) / 2
        # Kept inside the drawing: a label at the table's edge shifts inwards.
        x = min(max(x, self.left + half), max(self.right - half, self.left + half))
        step = size * 1.2
        tries = [y for k in range(60) for y in (above - k * step, below + k * step)]
        for y in tries:
            box = self.box(text, x, y, size)
            if not any(_overlap(box, other) for other in self.taken):
                self.taken.append(box)
                return x, y
        self.taken.append(self.box(text, x, above, size))
        return x, above


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


#: Each fate in a reader's words and its mark's colour: a cross where a unit was destroyed,
#: an arrow out where it left the board, a barred ring where the table took it away.
FATES = {
    "destroyed": ("destroyed", "#b00020"),
    "off_board": ("left the board", "#b35900"),
    "removed": ("removed", "#5b5f66"),
}


def fate_mark(
    fate: str, x: float, y: float, out: tuple[float, float] = (1.0, 0.0), scale: float = 1.0
) -> str:
    """The mark of a fate centred on (x, y) (SVG coordinates), 1.4" across at `scale` 1;
    `out` points the way off the table for a unit that left it."""
    colour = FATES.get(fate, FATES["destroyed"])[1]
    line = f'stroke="{colour}" stroke-width="{_n(0.25 * scale)}" stroke-linecap="round" fill="none"'
    r, d = 0.6 * scale, 0.7 * scale
    if fate == "off_board":
        tip = (x + out[0] * d * 1.3, y + out[1] * d * 1.3)
        head = _arrow_head(tip, (x, y), 0.6 * scale)
        dashes = f"{_n(0.3 * scale)} {_n(0.2 * scale)}"
        return (
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" {line} stroke-dasharray="{dashes}"/>'
            f'<path d="M{_n(x - out[0] * r / 2)},{_n(y - out[1] * r / 2)} '
            f'L{_n(tip[0])},{_n(tip[1])}" {line}/><polygon points="{head}" fill="{colour}"/>'
        )
    if fate == "removed":
        bar = r * 0.7
        return (
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" {line}/>'
            f'<path d="M{_n(x - bar)},{_n(y + bar)} L{_n(x + bar)},{_n(y - bar)}" {line}/>'
        )
    return (
        f'<path d="M{_n(x - d)},{_n(y - d)} L{_n(x + d)},{_n(y + d)} '
        f'M{_n(x - d)},{_n(y + d)} L{_n(x + d)},{_n(y - d)}" {line}/>'
    )


def _way_out(story: Story, at: Point) -> tuple[float, float]:
    """The direction (SVG coordinates) to the table's edge nearest `at`."""
    x, y = at
    edges = [(x, (-1.0, 0.0)), (story.width - x, (1.0, 0.0))]
    edges += [(y, (0.0, 1.0)), (story.height - y, (0.0, -1.0))]
    return min(edges)[1]


def _losses(canvas: Canvas) -> None:
    story = canvas.story
    canvas.add('<g class="losses">')
    for loss in story.losses:
        x, y = loss.at[0], story.height - loss.at[1]
        words = FATES.get(loss.fate, (loss.fate, ""))[0]
        when = f" in turn {loss.turn}" if loss.turn else ""
        canvas.add(
            f'<g class="loss" data-unit="{escape(loss.unit)}" data-fate="{escape(loss.fate)}">'
            f"<title>{escape(story.names.get(loss.unit, loss.unit))}: {escape(words)}{when}"
            f"</title>{fate_mark(loss.fate, x, y, _way_out(story, loss.at))}</g>"
        )
    canvas.add("</g>")


#: Annotations are the players' drawing, not the battle's moves: one colour of their own.
ANNOTATION_COLOUR = "#6a3d9a"


def _arrow_head(tip: tuple[float, float], tail: tuple[float, float], size: float = 0.6) -> str:
    """The points of an arrow's head at `tip` (SVG coordinates), pointing away from `tail`."""
    dx, dy = tip[0] - tail[0], tip[1] - tail[1]
    length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
    ux, uy = dx / length, dy / length
    left = (tip[0] - ux * size - uy * size * 0.5, tip[1] - uy * size + ux * size * 0.5)
    right = (tip[0] - ux * size + uy * size * 0.5, tip[1] - uy * size - ux * size * 0.5)
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in (tip, left, right))


def annotation_words(note: dict) -> str:
    """An annotation in a reader's words: "anna's arrow", 'gm's label "objective"'."""
    kind, whose = str(note.get("kind", "")), f"{note.get('by', '?')}'s"
    if kind == "label":
        return f'{whose} label "{note.get("text", "")}"'
    if kind == "circle":
        return f"{whose} circle of {_n(float(note.get('radius', 0)))}″"
    return f"{whose} {kind}"


def _annotations(canvas: Canvas) -> None:
    """What players drew on the table, as it stood at the horizon, above the units."""
    story = canvas.story
    canvas.add(f'<g class="annotations" stroke="{ANNOTATION_COLOUR}" fill="none">')
    for note in story.annotations:
        kind = str(note.get("kind", ""))
        attrs = {"class_": "annotation", "data_kind": kind, "data_by": note.get("by", "")}
        attrs |= {"data_seq": note.get("seq", "")}
        inner = f"<title>{escape(annotation_words(note))} (event {note.get('seq', '?')})</title>"
        if kind in ("line", "arrow"):
            start, end = canvas.xy(note["from"]), canvas.xy(note["to"])
            x1, y1 = start.split(",")
            x2, y2 = end.split(",")
            line = {"x1": x1, "y1": y1, "x2": x2, "y2": y2, "stroke_width": "0.12"}
            inner += tag("line", line)
            if kind == "arrow":
                tip = (float(x2), float(y2))
                head = _arrow_head(tip, (float(x1), float(y1)))
                inner += tag("polygon", {"points": head, "fill": ANNOTATION_COLOUR})
        elif kind == "circle":
            cx, cy = canvas.xy(note["at"]).split(",")
            circle = {"cx": cx, "cy": cy, "r": _n(float(note["radius"])), "stroke_width": "0.12"}
            inner += tag("circle", circle | {"stroke_dasharray": "0.4 0.25"})
        elif kind == "label":
            x, y = note["at"][0], story.height - note["at"][1]
            inner += (
                f'<text x="{_n(x)}" y="{_n(y)}" font-size="0.7" text-anchor="middle" '
                f'fill="{ANNOTATION_COLOUR}" stroke="#fff" stroke-width="0.12" '
                f'paint-order="stroke">{escape(str(note.get("text", "")))}</text>'
            )
        canvas.add(tag("g", attrs, inner))
    canvas.add("</g>")


def summary_lines(story: Story) -> list[str]:
    """The report's words: the result, each side's tally, the dice, the refusals that mattered."""
    lines = []
    if story.outcome:
        winner = f"{story.winner_side} won" if story.winner_side else "a draw"
        lines.append(f"Result: {winner}. {story.outcome}")
    else:
        lines.append(f"Not finished: the story up to event {story.seq}, turn {story.turns or 1}.")
    for side in sorted(story.tallies):
        t = story.tallies[side]
        reasons = ", ".join(
            f"{code.replace('_', ' ')}: {n}" for code, n in t.reasons.most_common(3)
        )
        refused = f"{t.refused} refused by the rules" + (f" ({reasons})" if reasons else "")
        if t.refused_with_consequence:
            refused += f", {t.refused_with_consequence} of them with a consequence"
        rolls = f"{t.rolls} roll" + ("" if t.rolls == 1 else "s")
        rolls += f", {t.tests_passed} tests passed, {t.tests_failed} failed"
        moves = f"{t.moves} move" + ("" if t.moves == 1 else "s")
        lines.append(f"{side}: {moves}; {refused}; {rolls}.")
    dice = story.dice_summary()
    if dice:
        lines.append(
            "Dice: " + "; ".join(f"{n} x {die}, average {avg:.1f}" for die, n, avg in dice) + "."
        )
    for roll in [r for r in story.rolls if r.by_engine][-5:]:
        verdict = "" if roll.success is None else (" passed" if roll.success else " failed")
        lines.append(
            f"Turn {roll.turn}, event {roll.seq}: {roll.what} {roll.die} rolled {roll.result}"
            + (f", needed {roll.needed}" if roll.needed else "") + f"{verdict}."
        )  # fmt: skip
    for refusal in story.refusals[-5:]:
        lines.append(f"Turn {refusal.turn}, event {refusal.seq}: {refusal.message}")
    if story.annotations:
        drawn = "; ".join(annotation_words(note) for note in story.annotations[:10])
        more = len(story.annotations) - 10
        lines.append(f"Drawn on the table: {drawn}" + (f" and {more} more." if more > 0 else "."))
    marked = [
        f"{story.names.get(uid, uid)}: {', '.join(text for text, _ in story.marks_of(uid))}"
        for uid in story.end
        if story.marks_of(uid)
    ]
    if marked:
        lines.append("Markers on pieces: " + "; ".join(marked) + ".")
    lines.extend(story.takeback_lines())
    return lines


def _legend(canvas: Canvas, top: float, width: float, size: float) -> float:
    """The key under the table: each side's colour, the marks, each fate's mark; an entry
    that would run past the drawing's width starts a new line. Returns the next line's top."""
    story = canvas.story
    x, gap = 0.0, size * 1.2
    entries: list[tuple[str, float, str]] = []
    for side in story.sides:
        colour = side_colour(story, side)
        swatch = (
            f'<line x1="{{x}}" y1="{{y}}" x2="{{x2}}" y2="{{y}}" stroke="{colour}" '
            'stroke-width="0.18"/>'
        )
        entries.append((swatch, 1.7, side))
    entries.append(("", 0.0, "□ start · ① where turn 1's moves ended"))
    for fate, (words, _) in FATES.items():
        entries.append((fate, size * 2, words))
    entries.append(("", 0.0, "dashed: fiat or pushed"))
    for mark, room, words in entries:
        wide = room + text_width(words, size)
        if x > 0 and x + wide > width:
            x, top = 0.0, top + size * 1.5
        middle = top - size * 0.35
        if mark in FATES:
            # The mark as tall as the text, so the legend's lines keep apart.
            drawn = fate_mark(mark, x + size * 0.75, middle, scale=size / 1.4 * 1.1)
            canvas.add(f'<g class="legend-entry" data-fate="{mark}">{drawn}')
        else:
            filled = mark.format(x=_n(x), x2=_n(x + 1.4), y=_n(middle))
            canvas.add(f'<g class="legend-entry">{filled}')
        canvas.text(x + room, top, words, size)
        canvas.add("</g>")
        x += wide + gap
    return top + size * 1.5


def _wrap(text: str, fits: Callable[[str], bool]) -> Iterable[str]:
    """Lines that each `fits`, broken between words (a word too long alone, in pieces)."""
    words: list[str] = []
    for word in text.split():
        piece = ""
        for c in word:
            if piece and not fits(piece + c):
                words.append(piece)
                piece = ""
            piece += c
        words.append(piece)
    line = ""
    for word in words:
        if line and not fits(f"{line} {word}"):
            yield line
            line = word
        else:
            line = f"{line} {word}".strip()
    if line:
        yield line


def title_lines(title: str, fits: Callable[[str], bool], most: int = 3) -> list[str]:
    """The title wrapped to the drawing's width, in at most `most` lines, the last
    shortened with "…" if the whole does not fit (the full title is the drawing's <title>)."""
    lines = list(_wrap(title, fits))
    if len(lines) > most:
        lines = lines[:most]
        while lines[-1] and not fits(lines[-1] + "…"):
            lines[-1] = lines[-1][:-1]
        lines[-1] = lines[-1].rstrip() + "…"
    return lines


def report_svg(story: Story, title: str) -> str:
    """The whole report as an SVG document."""
    canvas = Canvas(story)
    width = max(story.width, 30.0)
    size = width / 48
    chars = int(width / (size * 0.55))
    body = [
        wrapped
        for line in summary_lines(story)
        for wrapped in _wrap(line, lambda text: len(text) <= chars)
    ]
    title_size = size * 1.2
    heading = title_lines(title, lambda text: text_width(text, title_size) <= width)
    head = title_size * 1.2 * len(heading) + size * 0.6
    canvas.add("")  # the <svg> element, once the height is known
    canvas.add(f"<title>{escape(title)}</title>")
    canvas.add(f'<g class="report-title"><title>{escape(title)}</title>')
    for i, line in enumerate(heading):
        canvas.text(0, -head + title_size * (1 + 1.2 * i), line, title_size, font_weight="bold")
    canvas.add("</g>")
    canvas.add(
        f'<rect class="table" x="0" y="0" width="{_n(story.width)}" height="{_n(story.height)}" '
        'fill="#f4f1e8" stroke="#3d4348" stroke-width="0.08"/>'
    )
    _backdrop(canvas)
    _terrain(canvas)
    _paths(canvas)
    _units(canvas)
    _turn_markers(canvas)
    _losses(canvas)
    _annotations(canvas)
    canvas.add('<g class="legend">')
    top = _legend(canvas, story.height + size * 1.8, width, size)
    canvas.add('</g><g class="summary">')
    for line in body:
        canvas.text(0, top, line, size)
        top += size * 1.35
    canvas.add("</g></svg>")
    bottom = top - size * 0.35
    canvas.parts[0] = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="battle-report" '
        f'viewBox="{_n(-MARGIN)} {_n(-MARGIN - head)} {_n(width + 2 * MARGIN)} '
        f'{_n(bottom + head + 2 * MARGIN)}" data-width="{_n(story.width)}" '
        f'data-height="{_n(story.height)}" data-seq="{story.seq}" '
        'font-family="system-ui, sans-serif" role="img">'
    )
    return "\n".join(canvas.parts) + "\n"


@dataclass(frozen=True)
class Report:
    """What the report page and the report file show of a story: built once, and kept
    in the cache for every reader at the same horizon (tabletop/records/cached.py)."""

    seq: int
    svg: str
    lines: list[str]
    #: Each side's tally and colour, in side order.
    tallies: list[tuple[SideTally, str]]
    refusals: list[Refusal]


def battle_report(story: Story) -> Report:
    return Report(
        seq=story.seq,
        svg=report_svg(story, f"{story.battle.name}: battle report"),
        lines=summary_lines(story),
        tallies=[(t, side_colour(story, t.side)) for _, t in sorted(story.tallies.items())],
        refusals=list(story.refusals),
    )
