"""The sides' colours as every page draws them: read from their one definition, the custom
properties --side-1, --side-2, … of static/css/sides.css, so that a report file (which
carries its colours with it) matches the board and the battle page."""

import re
from functools import cache

from django.conf import settings

SIDES_CSS = settings.BASE_DIR / "static" / "css" / "sides.css"
_PROPERTY = re.compile(r"--side-(\d+)\s*:\s*(#[0-9a-fA-F]{6})\s*;")


@cache
def palette() -> tuple[str, ...]:
    """The colours in the stylesheet's order (--side-1 first)."""
    found = sorted((int(n), colour) for n, colour in _PROPERTY.findall(SIDES_CSS.read_text()))
    return tuple(colour for _, colour in found)


def colour_at(index: int) -> str:
    colours = palette()
    return colours[index % len(colours)]


def side_colour(sides: list[str], side: str) -> str:
    """The colour of `side` among `sides`: its place among the side names in code-point
    order, as static/js/sides.js counts (a side not among them is counted in)."""
    return colour_at(sorted({*sides, side}).index(side))
