"""Ends in base contact with a target, reached by a last straight leg (rules/engine/
leg_bands.py): what an order that must end touching its target shades (aod's ram, charge,
DFA and full assault, 001 [27-28], AOD-D31; its captor of a 'Mech, 001 [27]).

An end is a centre whose base lies within 0.01" of a target's (contact), reached by a
legal path: around each target, a band of centres whose gap to the target is 0.002" to
0.008", along the stretches where a last leg straight at the target, from outside the
band, meets nothing the open reach keeps the centre from (other bases, the system's
obstacles, the table edge, `within`) and starts where the open reach's graph gets within
the allowance less the leg. A rect target of a rect unit is left out (the contact band of
two rects turned to each other is not computed here): a subset of the truth.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point, Polygon

from rules.engine.leg_bands import (
    LegBand,
    bands_reach,
    in_box,
    meets,
    near_enough,
    reached,
    ring_bands,
    segments,
)
from rules.engine.open_reach import MARGIN, search_graph
from rules.engine.position import Position
from rules.engine.reach import Reach
from rules.geometry.bases import Body
from rules.geometry.deadline import expired
from rules.geometry.visibility import VisibilityGraph
from rules.model.state import Unit

#: The bound on the lines tested against free space (`reachable_via`) for one reach:
#: targets are taken nearest first, and where the bound stops them the reach is cut
#: short at the next one's band (sized on bench/worst_case.py's board: an aod charge of
#: 48" costs what a move's reach does).
CONTACT_WORK = 400
#: Sample spacing along a target's contact band.
STEP = 0.05
#: The band: gaps to the target's base, and the gap the samples are judged at.
LO, MID, HI = 0.002, 0.005, 0.008


def contact_bands(
    position: Position,
    unit: Unit,
    action_type: str,
    budget: float,
    hard: list[Any],
    by_unit: tuple[list[tuple[str, Any]], list[tuple[str, Any]]],
    within: Any,
    aims_at: Callable[[Unit], bool],
) -> Reach:
    """The contact bands of the units `aims_at` accepts, reached by last legs: each end
    names its target (`keys_at`, "target"). The last legs may not meet `hard` (areas the
    centre may not enter) or the bases `by_unit` (those it may not cross, and those it
    may only not end on, each with its unit's id; a target's own base aside), and keep
    to the table and to `within`."""
    blocking, end_only = by_unit
    graph = search_graph(position, unit, budget, hard + [g for _, g in blocking], within)
    bands: list[LegBand] = []
    cut = math.inf if graph is None or graph.complete else graph.horizon
    if graph is not None:
        limit_of = min(budget, graph.horizon)
        sx, sy = unit.position
        r = unit.base.radius
        table = position.state.table
        box = (r, r, table.width - r, table.height - r)
        at_hard = {uid: len(hard) + k for k, (uid, _) in enumerate(blocking)}
        hard = hard + [g for _, g in blocking]
        hard_tree = shapely.STRtree(hard) if hard else None
        ends = [g for _, g in end_only]
        end_tree = shapely.STRtree(ends) if ends else None
        at_end = {uid: k for k, (uid, _) in enumerate(end_only)}
        targets = []
        for other in position.state.units:
            # A unit aboard another has no base on the table to touch (a captive aboard).
            if not other.on_table or not aims_at(other):
                continue
            core, grow, leg = _gap_to(unit, position.bodies[other.id])
            if core is None:
                continue
            away = float(core.distance(Point(sx, sy))) - grow - HI  # to its band, at least
            if away <= limit_of:
                targets.append((away, other.id, core, grow, leg))
        spent = [0]
        for away, tid, core, grow, leg in sorted(targets, key=lambda t: (t[0], t[1])):
            if spent[0] >= CONTACT_WORK or expired():
                # The bound on work (or a caller's deadline): ends nearer than this
                # target's band are all found.
                cut = min(cut, max(away, 0.0))
                break
            bands.extend(
                _target_bands(
                    tid,
                    core,
                    grow,
                    leg,
                    graph,
                    limit_of - leg - 0.01,
                    box,
                    within,
                    hard_tree,
                    at_hard.get(tid, -1),
                    end_tree,
                    at_end.get(tid, -1),
                    spent,
                )
            )
    cut_at = None if cut == math.inf else cut
    return bands_reach(unit.id, action_type, graph, budget, bands, cut_at)


def _gap_to(unit: Unit, body: Body) -> tuple[Any, float, float]:
    """What the centre's gap to the target is measured from, the distance from it at
    which the bases touch, and the last leg's length (long enough that its start lies
    outside the target's base grown as the open reach grows it). A circle unit's gap is
    its centre's to the target's core less both radii; a rect unit keeps its facing along
    the leg, so its gap to a round target is its centre's to its own rect reflected onto
    the target (the same size and facing, centred there) less the target's radius. (None,
    0, 0) for a rect unit and a rect target."""
    r_in = unit.base.radius if unit.base.is_circle else min(unit.base.width, unit.base.length) / 2
    if body.xy is not None:
        grown_to = (body.radius + unit.base.radius + MARGIN) / math.cos(math.pi / 16)
        leg = grown_to - body.radius - r_in + 0.03
    else:
        leg = (unit.base.radius + MARGIN) * math.sqrt(2) - r_in + 0.03
    if unit.base.is_circle:
        core = Point(body.xy) if body.xy is not None else body.core
        return core, body.radius + unit.base.radius, leg
    if body.xy is None:
        return None, 0.0, 0.0
    b = unit.base
    a = math.radians(unit.facing)
    c, s = math.cos(a), math.sin(a)
    hl, hw = b.length / 2, b.width / 2
    pts = [
        (body.xy[0] + c * dx - s * dy, body.xy[1] + s * dx + c * dy)
        for dx, dy in ((hl, hw), (-hl, hw), (-hl, -hw), (hl, -hw))
    ]
    return Polygon(pts), body.radius, leg


def _target_bands(
    target: str,
    core: Any,
    grow: float,
    leg: float,
    graph: VisibilityGraph,
    limit: float,
    box: tuple[float, float, float, float],
    within: Any,
    hard_tree: Any,
    hard_skip: int,
    end_tree: Any,
    end_skip: int,
    spent: list[int],
) -> list[LegBand]:
    """The bands around one target: samples at gap MID, judged, then runs of good ones."""
    if limit <= 0:
        return []
    ring = core.buffer(grow + MID, quad_segs=32).exterior
    ring = shapely.segmentize(ring, STEP)
    pts = np.array(ring.coords)[:-1]
    if len(pts) < 3:
        return []
    on_core = shapely.get_coordinates(shapely.shortest_line(core, shapely.points(pts)))[0::2]
    normal = pts - on_core
    norm = np.hypot(normal[:, 0], normal[:, 1])
    good = norm > 1e-9
    normal[good] /= norm[good, None]
    x, y, nx, ny = pts[:, 0], pts[:, 1], normal[:, 0], normal[:, 1]
    # The leg runs from `leg` outside the sample in to the band's near side.
    sx, sy = x + leg * nx, y + leg * ny
    ok = good & near_enough(graph, sx, sy, limit)
    ok &= in_box(box, x, y, nx, ny, (leg, LO - MID))
    rows = np.nonzero(ok)[0]
    if len(rows):
        legs = segments(x[rows], y[rows], -nx[rows], -ny[rows], -leg, MID - LO)
        clear = ~meets(hard_tree, legs, skip=hard_skip)
        tips = segments(x[rows], y[rows], -nx[rows], -ny[rows], MID - HI, MID - LO)
        clear &= ~meets(end_tree, tips, skip=end_skip)
        if within is not None:
            clear &= shapely.covers(within, legs)
        ok[rows] = clear
    rows = np.nonzero(ok)[0]
    if len(rows):
        ok[rows] = reached(graph, np.stack([sx[rows], sy[rows]], axis=1), limit, spent)
    return ring_bands(core, leg, ok, x, y, nx, ny, LO - MID, HI - MID, {"target": target})
