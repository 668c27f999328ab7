"""Table options a GM edits (lasergrenadiers.md: LG-D1, LG-D18, LG-D20, LG-D24, 003
Off-board movement)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.model.errors import InvalidActionError
from rules.systems.lasergrenadiers.tables import TURN_BANDS

#: What a GM may set, for the set-up form (rules/engine/system.py `table_option_schema`);
#: `parse_options` judges the values.
OPTION_SCHEMA: dict[str, dict[str, Any]] = {
    "turn_bands": {
        "type": "pairs",
        "items": [
            {"label": "Up to (degrees)", "exclusiveMinimum": 0, "maximum": 180},
            {"label": "Fraction of the rate", "minimum": 0},
        ],
        "max_items": 8,
        "default": [list(band) for band in TURN_BANDS],
        "label": "Turn bands",
        "description": "each rotation costs this fraction of the rate; ascending, the last "
        "ending at 180 (LG-D1)",
    },
    "rubble_multiplier": {
        "type": "number",
        "exclusiveMinimum": 0,
        "default": 1.0,
        "label": "Rubble multiplier",
        "description": "the multiplier of a building with rubble, for every piece (LG-D20)",
    },
    "dense_vegetation": {
        "type": "string",
        "enum": ["impassable", "vegetation"],
        "default": "impassable",
        "label": "Dense vegetation",
        "description": "impassable, or as vegetation (LG-D18)",
    },
    "pass_friendly_bases": {
        "type": "boolean",
        "default": False,
        "label": "Pass through friendly bases",
        "description": "LG-D24",
    },
    "delayed_entry": {
        "type": "boolean",
        "default": False,
        "label": "Delayed entry",
        "description": "the optional rule: enter anywhere on an edge (003 Off-board movement)",
    },
}
OPTION_KEYS = tuple(OPTION_SCHEMA)


@dataclass(frozen=True)
class Options:
    #: (upper bound in degrees, inclusive; fraction of the rate), ascending to 180 (LG-D1).
    turn_bands: tuple[tuple[float, float], ...] = TURN_BANDS
    #: Multiplier of a building with `rubble: true`, for every piece (LG-D20).
    rubble_multiplier: float = 1.0
    #: "impassable" or "vegetation" (LG-D18).
    dense_vegetation: str = "impassable"
    #: Friendly bases may be crossed (LG-D24; default false).
    pass_friendly_bases: bool = False
    #: The optional delayed-entry rule (003 Off-board movement 4).
    delayed_entry: bool = False


def parse_options(raw: Mapping[str, Any], key: str = "table.options") -> Options:
    unknown = sorted(set(raw) - set(OPTION_KEYS))
    if unknown:
        raise InvalidActionError(
            f"{key}.{unknown[0]}",
            f"unknown lasergrenadiers table option; known: {', '.join(OPTION_KEYS)}",
        )
    bands = TURN_BANDS
    if "turn_bands" in raw:
        bands = _bands(raw["turn_bands"], f"{key}.turn_bands")
    rubble = raw.get("rubble_multiplier", 1.0)
    if isinstance(rubble, bool) or not isinstance(rubble, int | float) or rubble <= 0:
        raise InvalidActionError(f"{key}.rubble_multiplier", "expected a positive number")
    dense = raw.get("dense_vegetation", "impassable")
    if dense not in ("impassable", "vegetation"):
        raise InvalidActionError(f"{key}.dense_vegetation", 'expected "impassable" or "vegetation"')
    flags = {}
    for name in ("pass_friendly_bases", "delayed_entry"):
        value = raw.get(name, False)
        if not isinstance(value, bool):
            raise InvalidActionError(f"{key}.{name}", "expected true or false")
        flags[name] = value
    return Options(bands, float(rubble), dense, **flags)


def _bands(raw: Any, key: str) -> tuple[tuple[float, float], ...]:
    """[[upper degrees, fraction], ...] ascending, the last at 180."""
    if not isinstance(raw, list) or not raw:
        raise InvalidActionError(key, "expected [[upper degrees, fraction of the rate], ...]")
    out: list[tuple[float, float]] = []
    for i, item in enumerate(raw):
        if (
            not isinstance(item, list)
            or len(item) != 2
            or any(isinstance(v, bool) or not isinstance(v, int | float) for v in item)
        ):
            raise InvalidActionError(f"{key}[{i}]", "expected [upper degrees, fraction]")
        upper, fraction = float(item[0]), float(item[1])
        if fraction < 0 or (out and upper <= out[-1][0]) or upper <= 0:
            raise InvalidActionError(f"{key}[{i}]", "bands must ascend, fractions >= 0")
        out.append((upper, fraction))
    if abs(out[-1][0] - 180.0) > 1e-9:
        raise InvalidActionError(key, "the last band must end at 180 degrees")
    return tuple(out)
