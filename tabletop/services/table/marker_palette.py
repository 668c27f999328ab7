"""The colours a free marker on a piece may take (piece_markers.py): a fixed palette,
so that every marker is legible on the board, its card and the report."""

#: The palette: {name: (fill, text colour)}. Each text colour on its fill passes WCAG AA
#: for small text (a contrast of at least 4.5:1, tests/live/test_piece_markers.py), and no
#: fill is a side's colour nor the rulings' green and red.
COLOURS: dict[str, tuple[str, str]] = {
    "blue": ("#1f5fa8", "#ffffff"),
    "teal": ("#00695c", "#ffffff"),
    "purple": ("#6a3d9a", "#ffffff"),
    "magenta": ("#ad1457", "#ffffff"),
    "brown": ("#8a4b08", "#ffffff"),
    "slate": ("#37474f", "#ffffff"),
    "yellow": ("#ffd54f", "#1a1a1a"),
}


def palette() -> list[dict[str, str]]:
    """The palette as the board offers it, in order."""
    return [{"name": n, "fill": fill, "text": ink} for n, (fill, ink) in COLOURS.items()]
