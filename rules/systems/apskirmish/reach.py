"""Reach of `move`, `run` and `traverse` (apskirmish.md 3-5): where the soldier's centre
can end. A move or run is one straight line from where it stands, measured front to front
(004 Standard Movement), within the stance distance (or the run's) and clear of what
refuses a line: obstacles (crossed or too narrow a gap), enemy bases, the table edge;
friendly bases are passed but not ended on (004 Base Blocking); rough ground only asks
for a roll. The kernel shades such a line (rules/engine/line_reach.py); a Traverse's
landings are this system's own (`traverse_reach`).
"""

from __future__ import annotations

import math
from typing import Any

import shapely
from shapely.geometry import Point

from rules.engine.line_reach import straight_reach
from rules.engine.reach import Reach, no_ends
from rules.engine.reach_template import ReachTemplate
from rules.geometry.ray_bands import HALF, bearings_toward, ray_bands
from rules.model.state import Unit
from rules.systems.apskirmish.board import ApsPosition, FriendsPass
from rules.systems.apskirmish.traverse import traverse_way


class ApsReach(ReachTemplate):
    """The kernel's reach template (rules/engine/reach_template.py) for a soldier: the
    actions it may take now are the judge's preconditions (soldiers.py, through
    `may_take`: whose activation, AP, a run's stance, an obstacle within 1"); the
    regions, one straight line measured front to front (004 Standard Movement) or a
    Traverse's landings (`traverse_reach`)."""

    shaded_types = frozenset({"move", "run", "traverse"})

    def unreached(self, unit: Unit, action_type: str, budget: float) -> Reach:
        start = unit.position
        if action_type == "traverse":
            return no_ends(unit.id, action_type)
        return Reach(
            unit.id, action_type, Point(start), 0.0, lambda p: [start] if p == start else None
        )

    def reach_region(
        self, position: ApsPosition, unit: Unit, action_type: str, budget: float
    ) -> Reach | None:
        if action_type == "traverse":
            return traverse_reach(position, unit)
        if budget <= 0:
            return None
        return straight_reach(
            position, unit, action_type, budget, position.obstacles, FriendsPass()
        )


#: Bearing between rays, in degrees, and how many rays one reach casts in all.
STEP = 6.0
WORK = 60


def traverse_reach(pos: ApsPosition, unit: Unit) -> Reach:
    """Where a Traverse lands (t2) and where a failure stops (t1), per direction (traverse.py;
    004 Obstacles, APS-D6, APS-D7, APS-D20, APS-D31): two curves, shaded as a band 0.001"
    either side (positions compare within 0.001"; rules/geometry/ray_bands.py) of rays STEP
    apart cast only toward the obstacles within reach; `path_to` gives the one point."""
    start = unit.position
    # The obstacles within 1" (APS-D6): the template asks only where one is (`may_take`).
    near = [t.shape for t in pos.within_traverse_reach(unit)]
    step = STEP if unit.base.is_circle else 2 * STEP
    bearings = bearings_toward(start, near, unit.base.radius + 0.05, step)
    landings = [_landing(pos, unit, b) for b in bearings]
    # Where it lands beyond (success), where it stops short (failure); already touching,
    # a failure stays put (APS-D21), and the few thousandths round the start. A rect
    # base's crossing costs several times a round one's: it casts fewer rays.
    work = (WORK if unit.base.is_circle else WORK // 3) // 2
    pieces, cut = ray_bands(
        start, bearings, landings, lambda b: _landing(pos, unit, b), (1, 0), 2 * STEP, work
    )
    # Where the bound on rays cast stopped the halving, what is shaded is sound but may
    # leave ends out: the reach says so (exact to no length, as for a type not shaded).
    cut_at = 0.0 if cut else None
    if not pieces:
        return no_ends(unit.id, "traverse", cut_at=cut_at)
    area = shapely.union_all(pieces)
    shapely.prepare(area)
    tol = HALF + 0.0009  # an alternative's end is rounded to thousandths

    def path_to(p: tuple[float, float]) -> list[tuple[float, float]] | None:
        if area.distance(Point(p)) > tol:
            return None
        if math.dist(p, start) <= HALF + 1e-9:
            # Round the start: the bearing of a piece that holds it.
            for bearing, land in zip(bearings, landings, strict=True):
                if land is not None and math.dist(land[0], start) < 1e-9:
                    r = math.radians(bearing)
                    return [start, (start[0] + math.cos(r), start[1] + math.sin(r))]
            return None
        bearing = math.degrees(math.atan2(p[1] - start[1], p[0] - start[0]))
        land = _landing(pos, unit, bearing)
        if land is None or min(math.dist(land[0], p), math.dist(land[1], p)) > tol + HALF:
            return None
        return [start, (float(p[0]), float(p[1]))]

    return Reach(unit.id, "traverse", area, 0.0, path_to, cut_at)


def _landing(
    pos: ApsPosition, unit: Unit, bearing: float
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """Where a traverse along `bearing` stops on a failed roll (t1, the near side) and
    lands on a success (t2), or None when it is refused (traverse.py); once per
    position, unit and bearing."""
    memo: dict[tuple[str, float], Any] = pos.__dict__.setdefault("_aps_landings", {})
    key = (unit.id, round(bearing, 9))
    if key not in memo:
        a = math.radians(bearing)
        way = traverse_way(pos, unit, (math.cos(a), math.sin(a)))
        memo[key] = None
        if way is not None and way.far is not None and way.lands:
            memo[key] = way.crossing.pose_at(way.crossing.near).xy, way.far.xy
    return memo[key]  # type: ignore[no-any-return]
