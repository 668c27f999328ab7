"""Where a base that keeps a fixed offset from a mover's centre may not be.

Some moves carry other bases along, each moved by the mover's own translation (aod's
formation move, 000 [29]; the passengers a VTOL at cruising sets down at its rear,
001 [19]). Such a companion's obstacles, moved back by its offset from the mover, are
obstacles for the mover's centre: `companion_obstacles` finds them where the companion
stands.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from typing import Any

import shapely

from rules.engine.open_reach import MARGIN
from rules.engine.position import Position
from rules.model.state import Terrain, Unit


def companion_obstacles(
    position: Position,
    radius: float,
    box: tuple[float, float, float, float],
    forbidden: Callable[[Terrain], bool],
    gap: Callable[[Unit], float],
    skip: Collection[str],
) -> list[Any]:
    """Where the centre of a base of `radius` may not be, near `box` (x0, y0, x1, y1):
    the features `forbidden` grown by the base and MARGIN, and the bases of the units on
    the table but `skip`, each grown by its radius, the base's and `gap(unit)` (a
    circumscribed 16-gon holds the grown circle)."""
    out = [
        position.grown(t, radius + MARGIN)
        for i in position.terrain.query_box(*box)
        if forbidden(t := position.state.terrain[i])
    ]
    others = [position.on_table[k] for k in position.units.query_box(*box)]
    bodies = [(o, position.bodies[o.id]) for o in others if o.id not in skip]
    grows = [(b.radius + radius + gap(o)) / math.cos(math.pi / 32) for o, b in bodies]
    return out + list(shapely.buffer([b.core for _, b in bodies], grows, quad_segs=8))
