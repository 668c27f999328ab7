"""Table edges: a swept base may not reach more than 0.01" past them (AOD-D20)."""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely
from shapely.geometry import box

from rules.engine.model import Table
from rules.geometry.bases import bodies_at
from rules.geometry.contact import Hit, hit_at
from rules.geometry.tolerance import CONTACT
from rules.geometry.track import Track


def table_box(table: Table) -> object:
    return box(0, 0, table.width, table.height)


def _off(bounds: tuple[float, float, float, float], radius: float, table: Table) -> bool:
    minx, miny, maxx, maxy = bounds
    return (minx - radius < -CONTACT or miny - radius < -CONTACT
            or maxx + radius > table.width + CONTACT or maxy + radius > table.height + CONTACT)


def leaves_table(track: Track, table: Table) -> Hit | None:
    """First pose at which the base reaches beyond the table (None if it never does)."""
    swept = track.swept()
    if not _off(swept.core.bounds, swept.radius, table):
        return None

    def overshoot(ts: Any) -> Any:
        """How far the base reaches past the nearest edge (1-Lipschitz)."""
        xs, ys, fs = track.poses(ts)
        cores, r = bodies_at(track.base, xs, ys, fs)
        b = shapely.bounds(cores)
        return np.max([-(b[:, 0] - r), -(b[:, 1] - r), b[:, 2] + r - table.width,
                       b[:, 3] + r - table.height], axis=0)

    return hit_at(track, track.crossing(overshoot, CONTACT, above=True))


def body_off_table(core_bounds: tuple[float, float, float, float], radius: float,
                   table: Table) -> bool:
    return _off(core_bounds, radius, table)
