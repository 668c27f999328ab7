"""Line of sight / line of fire: which blocking features a sight line crosses.

Touching a feature's edge does not block; crossing its interior does. Used by
systems for LOF (aod keeps it out of scope for movement but it is part of the kernel).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import shapely
from shapely.geometry import LineString

from rules.geometry.index import FeatureIndex


def blockers(
    index: FeatureIndex[Any],
    a: tuple[float, float],
    b: tuple[float, float],
    kinds: Sequence[str] | None = None,
) -> list[Any]:
    """The features (index payloads) whose interior the segment a-b crosses."""
    line = LineString([a, b])
    out = []
    for i in index.query(line):
        item = index.items[i]
        if kinds is not None and index.kinds[i] not in kinds:
            continue
        geom = index.geoms[i]
        if shapely.relate_pattern(geom, line, "T********"):
            out.append(item)
    return out


def clear_line(
    index: FeatureIndex[Any],
    a: tuple[float, float],
    b: tuple[float, float],
    kinds: Sequence[str] | None = None,
) -> bool:
    return not blockers(index, a, b, kinds)
