"""What keeps a base from meeting again, once left, the features it touches at its start.

A stop rule that triggers on meeting a feature from clear (aod's hindering terrain:
entering it from clear stops the unit, 000 [32], AOD-D4) lets a unit that starts
touching such features move while it still touches them, but not meet them again once
it has left them. `left_behind` is that rule as an obstacle for the open reach
(rules/engine/open_reach.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import shapely
from shapely.geometry import Point, Polygon

from rules.engine.open_reach import grown_by_base
from rules.geometry.bases import rect_corners
from rules.geometry.tolerance import CONTACT, LENGTH
from rules.geometry.visibility import VisibilityGraph, inflate
from rules.model.state import BaseShape


def left_behind(
    base: BaseShape,
    facing: float,
    start: tuple[float, float],
    shapes: Sequence[Any],
    budget: float,
    obstacles: Sequence[Any],
    room: Any,
    by_centre: bool = False,
) -> list[Any]:
    """The obstacle that keeps a base from meeting again the features it touches at its
    start (`shapes`) once it has left them: having left them, it moves from clear, and
    touching them again would stop it. Moving while still touching them is never clear,
    so free: where the base touches them (`near`, a subset: the base within 0.01" of
    them, or with `by_centre`, where meeting is the centre reaching them, the centre
    within 0.001") the centre may go, but only along straight lines from its start (the
    star it sees there, within `room` and clear of `obstacles`). Beyond that it keeps
    out of where the base would meet them (`meets`, a superset: distance 0, or the
    centre on them). A shortest path comes back into a star about its start only along
    its first straight leg, so a path of the search touches them only before it leaves
    them for good. `base` at `facing` keeps its facing along these paths."""
    if not shapes:
        return []
    if by_centre:
        near = [s.buffer(LENGTH - 0.0001, quad_segs=16) for s in shapes]
        meets = [inflate(s, 0.0003) for s in shapes]
    elif base.is_circle:
        # Chords within 0.0004" inside the arcs (`grown_by_base`): within 0.0086" of
        # it the base touches it; beyond 0.0044" less that, it does not meet it.
        near = [grown_by_base(s, None, base.radius + CONTACT - 0.001) for s in shapes]
        meets = [grown_by_base(s, None, base.radius + 0.0044) for s in shapes]
    else:
        inner = Polygon(rect_corners(0.0, 0.0, facing, base.width + 0.014, base.length + 0.014))
        outer = Polygon(rect_corners(0.0, 0.0, facing, base.width + 0.008, base.length + 0.008))
        near = [grown_by_base(s, inner, 0.0) for s in shapes]
        meets = [grown_by_base(s, outer, 0.0) for s in shapes]
    free = room.intersection(shapely.union_all(near))
    shapely.prepare(free)
    nearby = [g for g in obstacles if free.intersects(g)]
    if nearby:
        free = free.difference(shapely.union_all(nearby))
    here = Point(start)
    piece = next((g for g in getattr(free, "geoms", [free]) if g.covers(here)), None)
    met = shapely.union_all(meets)
    if piece is None:
        return [met]
    return [met.difference(VisibilityGraph.star(piece, start, budget))]
