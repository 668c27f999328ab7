"""Reach of a formation move (000 MOVEMENT FORMATIONS [29], aod.md 11.1): where the unit
given the order may end, every member moving by the same straight offset.

The members are the touching group of units that may join the unit's formation now (each
may be a member, AOD-D24, 000 [18], [39]; unordered; one faction, Mercenaries joining any;
on the unit's side of any abrupt edge, 000 [34]), when it has 3 to 5 of them (000 [29]).
Every member moves by the same offset, so each still touches the one it touched (grouped
after as before, AOD-D12). The unit's centre ends where each member's base, translated by
that offset along one straight line, meets nothing it may not: terrain its row forbids,
hindering terrain (it would have to stop, 000 [32]) and elevated terrain (kept off: a
subset), other bases (kept from contact, so no stop, AOD-D6), the table edge. Each member's
obstacles are grown by its base and moved back by its offset from the unit; a fan of
straight lines from the start, each as long as the nearest of them allows, at most the
slowest member's move (AOD-D25), is the area. Members go front first along the offset
(`keys_at` lists them so, AOD-D43): a circle base moving straight away from one behind it,
or toward where one ahead of it already stands, never comes nearer to it.

Not shaded (complete false, horizon 0): a group of another size (the board's selection
decides which), a member with a rect base (front first is not enough for rects), touching
hindering or standing on elevated terrain, or keeping to water (aquatic).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point

from rules.engine.allowance import Allowance
from rules.engine.companion_room import companion_obstacles
from rules.engine.open_reach import MARGIN, WINDOW
from rules.engine.reach import Reach, no_ends, unshaded
from rules.geometry.bases import body_at
from rules.geometry.fan import straight_fan
from rules.geometry.occupancy import occupies
from rules.geometry.tolerance import CONTACT
from rules.geometry.track import Pose, Track
from rules.model.actions import Action, Waypoint
from rules.model.state import Terrain, Unit
from rules.systems.aod.formation import (
    formation_mates,
    member_problems,
    membership_problems,
    touching_groups,
)
from rules.systems.aod.movement import halve_for_hindering
from rules.systems.aod.orders import check_order
from rules.systems.aod.position import AodPosition
from rules.systems.aod.units import matrix_row

#: Straight lines in the fan (a chord between two is at most 0.002" inside the arc at
#: 12", within the 0.1" of a complete reach).
RAYS = 180
TYPE = "formation_move"


def members_of(position: AodPosition, unit: Unit) -> list[Unit] | None:
    """The touching group of eligible units that holds `unit` (`unit` first, then by id),
    or None where it is not one formation of 3 to 5 of one faction."""
    group = touching_groups([unit, *formation_mates(position, unit)])[0]
    if membership_problems(position, unit, group):
        return None
    return [unit, *sorted(group[1:], key=lambda m: m.id)]


def formation_reach(position: AodPosition, unit: Unit) -> Reach:
    state = position.state
    if check_order(state, unit, TYPE) or member_problems(position, unit):
        return no_ends(unit.id, TYPE)
    members = members_of(position, unit)
    if members is None or not all(m.base.is_circle for m in members):
        return unshaded(unit.id, TYPE)
    slowest = min(m.move for m in members)
    budget = float(slowest)
    for m in members:
        still = Track(m.base, Pose(*m.position, m.facing), ())
        base = Allowance(slowest, "the slowest member's move", "000 [29]")
        budget = min(budget, halve_for_hindering(position, (matrix_row(m),), [still], base).value)
    sx, sy = unit.position
    ids = {m.id for m in members}
    # The fan reaches at most WINDOW: beyond, the area is cut short (the bound on work,
    # bench/worst_case.py), and says so.
    span = min(budget, WINDOW)
    far = span + max(math.dist(unit.position, m.position) + m.base.radius for m in members) + 2.0
    obstacles: list[Any] = []
    w, h = state.table.width, state.table.height
    lo_x, lo_y, hi_x, hi_y = -math.inf, -math.inf, math.inf, math.inf
    for m in members:
        rows = (matrix_row(m),)
        if position.options.cell(rows, "clear") == "proh":
            return unshaded(unit.id, TYPE)  # keeps to water (AOD-D28)
        ox, oy = m.position[0] - sx, m.position[1] - sy
        r = m.base.radius
        body = body_at(m.base, *m.position, m.facing)
        mx, my = m.position
        about = (mx - far, my - far, mx + far, my + far)
        for i in position.terrain.query_box(*about):
            t = state.terrain[i]
            if position.options.cell(rows, t.type) in ("hind", "elev") and (
                body.distance(t.shape) <= CONTACT or occupies(t.shape, *m.position)
            ):
                return unshaded(unit.id, TYPE)

        def kept_off(t: Terrain, rows: tuple[str, ...] = rows) -> bool:
            return position.options.cell(rows, t.type) not in ("ok", "ign")

        # Kept from contact with other bases, so no stop (AOD-D6).
        mine = companion_obstacles(position, r, about, kept_off, lambda _: MARGIN + 0.002, ids)
        if mine:
            obstacles.extend(
                shapely.transform(
                    np.array(mine, dtype=object), lambda c, o=(ox, oy): c - np.array(o)
                )
            )
        edge = r + MARGIN + 0.002
        lo_x, lo_y = max(lo_x, edge - ox), max(lo_y, edge - oy)
        hi_x, hi_y = min(hi_x, w - edge - ox), min(hi_y, h - edge - oy)
    fan = straight_fan((sx, sy), (lo_x, lo_y, hi_x, hi_y), obstacles, span, RAYS)
    if fan is None:
        return unshaded(unit.id, TYPE)
    area, near = fan
    offsets = [(m, m.position[0] - sx, m.position[1] - sy) for m in members]

    def path_to(p: tuple[float, float]) -> list[Any] | None:
        return [(sx, sy), p] if area.covers(Point(p)) else None

    def keys_at(p: tuple[float, float]) -> dict[str, Any]:
        dx, dy = p[0] - sx, p[1] - sy
        order = sorted(offsets, key=lambda t: -(t[1] * dx + t[2] * dy))
        return {
            "moves": tuple(
                Action(m.id, "move", (Waypoint(sx + ox + dx, sy + oy + dy),)) for m, ox, oy in order
            )
        }

    cut = None if near >= budget else near
    return Reach(unit.id, TYPE, area, budget, path_to, cut, keys_at)
