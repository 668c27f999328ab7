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
from rules.engine.open_reach import MARGIN, WINDOW
from rules.engine.reach import Reach, no_ends, unshaded
from rules.geometry.bases import body_at
from rules.geometry.occupancy import occupies
from rules.geometry.tolerance import CONTACT
from rules.geometry.track import Pose, Track
from rules.model.actions import Action, Waypoint
from rules.model.state import Unit
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
#: Fan and obstacle pairs intersected at a time, nearest first.
BATCH = 48
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
        mine: list[Any] = []
        for i in position.terrain.query_box(mx - far, my - far, mx + far, my + far):
            t = state.terrain[i]
            cell = position.options.cell(rows, t.type)
            if cell in ("ok", "ign"):
                continue
            if cell in ("hind", "elev") and (
                body.distance(t.shape) <= CONTACT or occupies(t.shape, *m.position)
            ):
                return unshaded(unit.id, TYPE)
            mine.append(position.grown(t, r + MARGIN))
        centres: list[tuple[float, float]] = []
        radii: list[float] = []
        for k in position.units.query_box(mx - far, my - far, mx + far, my + far):
            other = position.on_table[k]
            if other.id in ids:
                continue
            ob = position.bodies[other.id]
            # circumscribed: the polygon holds the grown circle (or rect)
            grow = (ob.radius + r + MARGIN + 0.002) / math.cos(math.pi / 32)
            if ob.xy is not None:
                centres.append(ob.xy)
                radii.append(grow)
            else:
                mine.append(ob.core.buffer(grow, quad_segs=8))
        if centres:
            mine.extend(shapely.buffer(shapely.points(centres), radii, quad_segs=8))
        if mine:
            obstacles.extend(
                shapely.transform(
                    np.array(mine, dtype=object), lambda c, o=(ox, oy): c - np.array(o)
                )
            )
        edge = r + MARGIN + 0.002
        lo_x, lo_y = max(lo_x, edge - ox), max(lo_y, edge - oy)
        hi_x, hi_y = min(hi_x, w - edge - ox), min(hi_y, h - edge - oy)
    if not (lo_x < sx < hi_x and lo_y < sy < hi_y):
        return unshaded(unit.id, TYPE)
    start = Point(sx, sy)
    near = min(sx - lo_x, hi_x - sx, sy - lo_y, hi_y - sy)
    gaps = shapely.distance(start, obstacles) if obstacles else np.zeros(0)
    if obstacles:
        near = min(near, float(np.min(gaps)))
    if near <= 0.002:
        return unshaded(unit.id, TYPE)
    near = min(near, span)  # nothing beyond the window was looked at
    angles = np.linspace(0.0, 2 * math.pi, RAYS + 1)
    ux, uy = np.cos(angles), np.sin(angles)
    with np.errstate(divide="ignore"):
        # Where each ray leaves the room the table leaves every member's base.
        ex = np.where(ux > 1e-12, (hi_x - sx) / ux, np.where(ux < -1e-12, (lo_x - sx) / ux, np.inf))
        ey = np.where(uy > 1e-12, (hi_y - sy) / uy, np.where(uy < -1e-12, (lo_y - sy) / uy, np.inf))
    exit_ = np.minimum(ex, ey)
    rho = np.minimum(np.minimum(exit_[:-1], exit_[1:]), span)
    long_ = span / math.cos(math.pi / RAYS) + 0.01
    fans = shapely.polygons(
        [
            [
                (sx, sy),
                (sx + long_ * ux[k], sy + long_ * uy[k]),
                (sx + long_ * ux[k + 1], sy + long_ * uy[k + 1]),
            ]
            for k in range(RAYS)
        ]
    )
    if obstacles:
        tree = shapely.STRtree(obstacles)
        fi, oi = tree.query(fans, predicate="intersects")
        order = np.argsort(gaps[oi], kind="stable")
        fi, oi = fi[order], oi[order]
        shapes = np.array(obstacles, dtype=object)
        # Nearest first, a batch at a time: a pair farther than its ray already goes
        # (an obstacle nearer on that ray met first) is not intersected at all.
        for at in range(0, len(fi), BATCH):
            f, o = fi[at : at + BATCH], oi[at : at + BATCH]
            keep = gaps[o] < rho[f] + 0.002
            if not keep.any():
                if gaps[o[0]] >= rho.max() + 0.002:
                    break
                continue
            f, o = f[keep], o[keep]
            met = shapely.distance(start, shapely.intersection(fans[f], shapes[o]))
            hit = np.full(RAYS, np.inf)
            np.minimum.at(hit, f, np.nan_to_num(met, nan=np.inf))
            rho = np.minimum(rho, hit - 0.002)
    # The union of the fan's triangles (start, rho_k along ray k and along ray k+1): a
    # polygon star-shaped about the start, its corners in angle order.
    ring = np.empty((2 * RAYS, 2))
    ring[0::2, 0], ring[0::2, 1] = sx + rho * ux[:-1], sy + rho * uy[:-1]
    ring[1::2, 0], ring[1::2, 1] = sx + rho * ux[1:], sy + rho * uy[1:]
    area = shapely.Polygon(ring)
    if not area.is_valid:
        area = shapely.make_valid(area)
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
