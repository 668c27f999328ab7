"""Ends on and off elevated terrain (aod.md 6.4, 6.5): the bands where a unit that
enters or leaves a feature is put down.

A unit must stop upon occupying elevated terrain (its centre reaching the polygon) or
upon leaving it, and the engine then moves it along the last segment's direction by the
least distance that puts the base entirely on (or off) the feature, within 0.01"
(000 [33], AOD-D9): that repositioned point is where the unit ends. For a circle base
crossing an edge square on, the point lies on the edge's normal at a depth T that does
not depend on where the edge is crossed: the first of the engine's 0.005" steps at which
the base is within 0.01" of being entirely on (off), T = r - 0.01 rounded up to a step
(`target_depth`). So the ends of a crossing of an edge, square on, are a band along it,
at depth T, within 0.01" of the engine's own placement: the kernel's crossing ends
(rules/engine/edge_crossings.py), reached by a last straight leg square to the edge, an
abrupt feature's only on an access segment unless the unit has jump jets (000 [34],
AOD-D34). Only circle bases: a rect's first pose entirely on depends on the angle it
crosses at.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely

from rules.engine.edge_crossings import Barriers, crossing_ends
from rules.engine.reach import Reach
from rules.geometry.tolerance import CONTACT, LENGTH
from rules.geometry.visibility import VisibilityGraph
from rules.model.state import Terrain, Unit
from rules.systems.aod.terrain import ACCESS_WITHIN, reposition_steps

#: How far from the edge point a leg aims at the referee may place its crossing: where the
#: centre comes within 0.001" of the polygon (AOD-D18), or leaves that, along a leg
#: square to the edge; twice that for the root's rounding. Reach's access test keeps
#: this much inside the referee's `ACCESS_WITHIN`, its one figure (AOD-D34).
_CROSSED_NEAR = 2 * LENGTH


def target_depth(radius: float) -> float:
    """How far past the edge, along a square crossing, the engine puts a circle base of
    `radius` entirely on (or off) the feature: rules/systems/aod/terrain.py
    `_reposition`'s first candidate at which the base is within 0.01" of it."""
    ds = reposition_steps(radius)
    return float(ds[np.nonzero(ds >= radius - CONTACT)[0][0]])


def elevated_ends(
    unit: Unit,
    action_type: str,
    graph: VisibilityGraph,
    budget: float,
    features: list[Terrain],
    on: Terrain | None,
    barriers: Barriers,
    jump_jets: bool,
) -> Reach | None:
    """The bands where the unit ends after entering one of `features` (or leaving `on`,
    the feature it stands on), put down at `target_depth` past the edge (AOD-D9), as a
    reach; None where there are none. Without jump jets an abrupt feature is crossed
    only on an access segment (000 [34], AOD-D34)."""

    def crossable(feat: Terrain, x: Any, y: Any) -> Any:
        if feat.type == "abrupt_elevated" and not jump_jets:
            return _on_access(feat, x, y)
        return np.ones(len(x), dtype=bool)

    depth = target_depth(unit.base.radius)
    return crossing_ends(unit, action_type, graph, budget, features, on, barriers, depth, crossable)


def _on_access(feat: Terrain, x: Any, y: Any) -> Any:
    """Crossing an abrupt feature's edge on an access segment (000 [34], AOD-D34)."""
    if not feat.access:
        return np.zeros(len(x), dtype=bool)
    segs = shapely.multilinestrings([[list(a), list(b)] for a, b in feat.access])
    return shapely.distance(segs, shapely.points(x, y)) <= ACCESS_WITHIN - _CROSSED_NEAR
