"""Checks of raw input shared by the services: JSON text, numbers, points, sizes.

Every check raises ServiceError at the field it is about, before anything is written.
"""

import json
import math
import re
from typing import Any

from tabletop.services.errors import ServiceError

# A pasted map or roster is a few kilobytes; anything far bigger is a mistake or abuse.
MAX_JSON_BYTES = 100_000
MAX_TABLE_INCHES = 240.0
# No map, roster, placement, action or frame of ours nests a tenth as deep; Python's json
# recurses once a level and fails (RecursionError) some thousand levels down.
MAX_JSON_DEPTH = 64
# A string (to its closing quote, or to the end if it has none) or a bracket.
_JSON_TOKEN = re.compile(r'"(?:[^"\\]++|\\.)*+"?|[\[\]{}]')


class JSONTooDeep(ValueError):
    """JSON nested deeper than `MAX_JSON_DEPTH`: refused before it is parsed."""

    def __init__(self, limit: int):
        super().__init__(f"The JSON is nested more than {limit} levels deep")


def json_depth_over(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether any bracket in `text` (outside its strings) opens more than `limit` deep."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for token in _JSON_TOKEN.finditer(text):
        bracket = token.group()
        if bracket in ("[", "{"):
            depth += 1
            if depth > limit:
                return True
        elif bracket in ("]", "}"):
            depth -= 1
    return False


def load_json(text: str, *, max_depth: int = MAX_JSON_DEPTH, **options: Any) -> Any:
    """`json.loads`, but JSON nested deeper than `max_depth` raises JSONTooDeep (a ValueError)
    instead of recursing: every parse of a request body, query or websocket frame goes here."""
    if json_depth_over(text, max_depth):
        raise JSONTooDeep(max_depth)
    try:
        return json.loads(text, **options)
    except RecursionError:  # a guard of last resort: the scan above refuses this first
        raise JSONTooDeep(max_depth) from None


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number JSON allows")


def parse_json(text: str, *, field: str, max_bytes: int = MAX_JSON_BYTES) -> Any:
    """JSON text to data. NaN and Infinity (which Python's json accepts) are refused."""
    size = len(text.encode())
    if size > max_bytes:
        raise ServiceError(
            f"That is too big ({size // 1000} kB); the limit is {max_bytes // 1000} kB.",
            field=field,
        )
    try:
        return load_json(text, parse_constant=_refuse_constant)
    except JSONTooDeep as error:
        raise ServiceError(f"{error}.", field=field) from None
    except ValueError as error:
        raise ServiceError(f"Not valid JSON: {error}.", field=field) from None


def is_number(value: Any) -> bool:
    """A finite int or float; booleans are not numbers here (JSON true is not 1)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def finite_number(
    value: Any, *, field: str, minimum: float | None = None, maximum: float | None = None
) -> float:
    if not is_number(value):
        raise ServiceError(f"Expected a finite number, got {value!r}.", field=field)
    if minimum is not None and value < minimum:
        raise ServiceError(f"Must be at least {minimum:g}.", field=field)
    if maximum is not None and value > maximum:
        raise ServiceError(f"Must be at most {maximum:g}.", field=field)
    return float(value)


def first_non_finite(value: Any, path: str = "") -> str | None:
    """The path of the first NaN or infinite float anywhere inside `value`, or None."""
    if isinstance(value, float) and not math.isfinite(value):
        return path or "value"
    if isinstance(value, dict):
        items = ((f"{path}.{k}" if path else str(k), v) for k, v in value.items())
    elif isinstance(value, list | tuple):
        items = ((f"{path}[{i}]", v) for i, v in enumerate(value))
    else:
        return None
    for sub_path, sub in items:
        found = first_non_finite(sub, sub_path)
        if found:
            return found
    return None


def point_in_table(value: Any, *, field: str, width: float, height: float) -> list[float]:
    """An [x, y] point on a table of `width` x `height` inches."""
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ServiceError(f"Expected a point [x, y], got {value!r}.", field=field)
    x = finite_number(value[0], field=field, minimum=0, maximum=width)
    y = finite_number(value[1], field=field, minimum=0, maximum=height)
    return [x, y]


def polygon_in_table(
    value: Any, *, field: str, width: float, height: float, max_points: int = 200
) -> list[list[float]]:
    """A simple polygon (at least 3 points, not crossing itself) on the table."""
    from shapely.geometry import Polygon

    if not isinstance(value, list) or not 3 <= len(value) <= max_points:
        raise ServiceError(f"A polygon is a list of 3 to {max_points} points [x, y].", field=field)
    points = [point_in_table(p, field=field, width=width, height=height) for p in value]
    polygon = Polygon(points)
    if not polygon.is_valid:
        raise ServiceError("The polygon crosses itself.", field=field)
    if polygon.area <= 0:
        raise ServiceError("The polygon has no area.", field=field)
    return points
