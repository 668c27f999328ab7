"""Reach by turning in place to face a point, then moving straight ahead to it.

For systems whose units move only ahead without a further turn (mswars: forward, backward
or sideways within 1 degree, MSW-D5), and pay for turning and for the terrain crossed:
the circle around the unit is cut into narrow sectors. In each, the turn costs at most
what it costs at the sector's worse edge (a turn's cost grows with its angle, so the
sectors start at the facing and one edge lies at facing + 180), the terrain at a distance
costs at most the dearest rate the sector holds at that distance (each feature over the
stretch of distances its part in the sector spans, a cheaper feature such as a road only
where the sector holds nothing dearer at that distance), and the centre stays clear
of every barrier (already grown by the base's circumradius plus a margin). Each sector
is a triangle out to the distance that bound allows, and, when the cost must exceed a
minimum (a run), starts beyond the distance where the cheapest cost reaches it: a
conservative subset of the truth, every point of which `path_to` reaches legally.
Along its axes (forward, backward, sideways as its rules allow) the unit goes without
turning at all, and pays no turn: a thin wedge about each (`axes`). A rect base touching
another base may not turn in place, but may still go along its axes (`may_turn`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import shapely
import shapely.affinity
from shapely.geometry import LineString, Point, box

from rules.engine.open_reach import base_barriers, beyond
from rules.engine.reach import Reach
from rules.engine.reach_ends import narrowed, owned_ends
from rules.geometry.bases import Body
from rules.geometry.direction import bearing
from rules.geometry.track import shortest_turn
from rules.model.state import Point2, Table, Unit

SECTORS = 120

__all__ = [
    "ContactTarget",
    "TurnThenStraight",
    "axes_allowed",
    "base_barriers",
    "contact_reach",
    "contact_with_all",
    "distance_for",
    "distance_in",
    "nowhere",
    "table_barrier",
    "turn_sweeps_clear",
    "turn_then_straight_reach",
]


@dataclass(frozen=True)
class TurnThenStraight:
    start: Point2
    facing: float
    budget: float
    #: Cost of a rotation in place by a signed angle (degrees), where the unit stands.
    turn_cost: Callable[[float], float]
    #: Cost per inch of open ground: the lowest rate a straight line can meet.
    base_rate: float
    #: Where the centre may not go (grown by the base's circumradius and a margin).
    barriers: Sequence[Any]
    #: Features dearer than open ground, each with its cost per inch (grown by a margin).
    #: Along a ray the rate at a distance is at most the dearest of what the sector holds
    #: at that distance: a feature counts only over the stretch of distances it spans in
    #: the sector, so the open ground beyond it is open again (a low feature crossed as
    #: Very Difficult, MSW-D16).
    dear: Sequence[tuple[Any, float]] = ()
    #: Features cheaper than open ground (a road, 003 Terrain 7), each with its cost per
    #: inch, shrunk by a margin: a distance at which the sector holds nothing but these
    #: is priced at the dearest of them, else as open ground or dearer.
    cheap: Sequence[tuple[Any, float]] = ()
    #: Where the centre may pass but not end (bases it may cross).
    end_only: Sequence[Any] = ()
    #: The cost must be more than this (a run must cost more than Move).
    minimum: float | None = None
    #: Where the unit may go without turning: (offset from its facing in degrees, factor on
    #: the cost per inch), forward, backward and sideways as its rules allow (MSW-D5,
    #: lasergrenadiers.md 4). A move along one needs no turn, so pays none.
    axes: Sequence[tuple[float, float]] = ()
    #: Whether it may turn where it stands (a rect base touching another base may not: the
    #: turn would sweep into it; it may still move along its axes).
    may_turn: bool = True
    #: Half the segment along which the start may lie (start - sweep to start + sweep, a
    #: unit placed anywhere along a carrier's rear edge, 002 Unit Exiting): every part of
    #: the area is swept along it (exact for the convex parts). The caller grows what the
    #: centre may not cross or end in, and the dear features, by its length, so that every
    #: start on it is as clear as the middle one.
    sweep: tuple[float, float] = (0.0, 0.0)


def turn_then_straight_reach(unit_id: str, action_type: str, spec: TurnThenStraight) -> Reach:
    """Where the unit ends facing the point and going straight to it (a turn first, or
    none along an axis), and the path there: the axis without a turn where one covers
    the point (the simpler proposal), else [start, {"turn": a}, point]."""
    sx, sy = spec.start
    along_axes = _axis_parts(spec)
    turning = _turning_sectors(spec) if spec.may_turn else {}
    parts = [*_fans(spec.start, turning), *along_axes]
    if not parts:
        return nowhere(unit_id, action_type, spec.start, spec.budget)
    unswept = shapely.union_all(parts)
    if spec.end_only:
        unswept = unswept.difference(shapely.union_all(list(spec.end_only)))
    hx, hy = spec.sweep
    area = unswept
    if hx or hy:
        # Swept parts must be convex: one per sector (and the axes' wedges).
        convex = [*_triangles(spec.start, turning, sorted(turning)), *along_axes]
        coords, index = shapely.get_coordinates(np.asarray(convex, dtype=object), return_index=True)
        both = np.vstack([coords - (hx, hy), coords + (hx, hy)])
        owner = np.concatenate([index, index])
        order = np.argsort(owner, kind="stable")
        hulls = shapely.convex_hull(
            shapely.multipoints(shapely.points(both[order]), indices=owner[order])
        )
        area = shapely.union_all(hulls)
        if spec.end_only:
            area = area.difference(shapely.union_all(list(spec.end_only)))
    axes = shapely.union_all(along_axes) if along_axes else shapely.Polygon()
    shapely.prepare(area)
    shapely.prepare(axes)
    shapely.prepare(unswept)

    def swept_path(p: Point2) -> list[Any] | None:
        """[start + t, {"turn": a}, p]: from the start on the sweep whose path to `p` is
        the middle start's path to a point of its own area, moved along."""
        cut = unswept.intersection(LineString([(p[0] + hx, p[1] + hy), (p[0] - hx, p[1] - hy)]))
        if cut.is_empty:
            return None
        # The middle of what the sweep's segment crosses, or where it touches: a point, or
        # the first of several (get_geometry: get_point reads only a line's vertices).
        q = (
            cut.interpolate(0.5, normalized=True)
            if cut.length > 0
            else cut
            if cut.geom_type == "Point"
            else shapely.get_geometry(cut, 0)
        )
        at = (sx + p[0] - q.x, sy + p[1] - q.y)
        if axes.covers(q):
            return [at, p]
        turn = shortest_turn(spec.facing, bearing(q.x - sx, q.y - sy))
        return [at] + ([{"turn": turn}] if abs(turn) > 1e-9 else []) + [p]

    def path_to(p: Point2) -> list[Any] | None:
        """[start, {"turn": a}, p]: face the point, then go straight to it (a point a hair
        off the area, an end rounded to thousandths, still gets its path: validate judges
        every proposal)."""
        if not area.dwithin(Point(p), 0.002):
            return None
        if hx or hy:
            return swept_path(p)
        if math.dist(p, (sx, sy)) < 1e-9:
            return [(sx, sy)]
        if axes.covers(Point(p)):
            return [(sx, sy), p]
        turn = shortest_turn(spec.facing, bearing(p[0] - sx, p[1] - sy))
        return [(sx, sy)] + ([{"turn": turn}] if abs(turn) > 1e-9 else []) + [p]

    return Reach(unit_id, action_type, area, spec.budget, path_to)


def _turning_sectors(spec: TurnThenStraight) -> dict[int, tuple[list[Point2], list[Point2]]]:
    """A narrow triangle per sector: turn to the point (paid at the sector's worse edge),
    then straight ahead as far as the terrain in the sector lets the budget go; by sector,
    its two outer corners and, for a run's minimum, its two inner ones."""
    sx, sy = spec.start
    angles = spec.facing + np.arange(SECTORS + 1) * 360.0 / SECTORS
    turns = np.array([spec.turn_cost(shortest_turn(spec.facing, a)) for a in angles])
    t_max, t_min = np.maximum(turns[:-1], turns[1:]), np.minimum(turns[:-1], turns[1:])
    lowest = _lowest_rate(spec)
    reach_max = max(0.0, (spec.budget - float(t_min.min())) / lowest)
    half = math.pi / SECTORS
    far = (reach_max + 0.01) / math.cos(half)
    rad = np.radians(angles)
    wedges = shapely.polygons(
        [
            [
                (sx, sy),
                (sx + far * math.cos(a0), sy + far * math.sin(a0)),
                (sx + far * math.cos(a1), sy + far * math.sin(a1)),
            ]
            for a0, a1 in zip(rad[:-1], rad[1:], strict=True)
        ]
    )
    origin = Point(sx, sy)
    clear = np.full(SECTORS, np.inf)
    for g in spec.barriers:
        clear = np.minimum(clear, _distances(origin, wedges, g))
    profiles = _profiles(spec, origin, wedges)
    sectors: dict[int, tuple[list[Point2], list[Point2]]] = {}
    for k in range(SECTORS):
        outer = min(
            distance_in(spec.budget - 1e-6 - float(t_max[k]), profiles[k]),
            float(clear[k]),
            reach_max + 0.01,
        )
        inner = 0.0 if spec.minimum is None else (spec.minimum - float(t_min[k])) / lowest
        if outer <= max(inner, 0.0) + 1e-6:
            continue
        a0, a1 = rad[k], rad[k + 1]
        pts = [(sx + outer * math.cos(a), sy + outer * math.sin(a)) for a in (a0, a1)]
        back: list[Point2] = []
        if inner > 0:
            r_in = inner / math.cos(half) + 1e-6  # the chord lies outside the inner circle
            back = [(sx + r_in * math.cos(a), sy + r_in * math.sin(a)) for a in (a1, a0)]
        sectors[k] = (pts, back)
    return sectors


def _fans(start: Point2, sectors: dict[int, tuple[list[Point2], list[Point2]]]) -> list[Any]:
    """The sectors' union as one polygon per run of neighbouring sectors (the same area as
    their triangles', at a fraction of the cost of uniting them): the outer points in turn,
    back by the inner ones or through the start."""
    if not sectors:
        return []
    keys = sorted(sectors)
    if len(keys) == SECTORS:
        outer = [p for k in keys for p in sectors[k][0]]
        backs = [sectors[k][1] for k in keys]
        if all(not b for b in backs):
            return _valid_or_parts(start, [shapely.Polygon(outer)], sectors, keys)
        if all(backs):
            hole = [p for b in reversed(backs) for p in b]
            return _valid_or_parts(start, [shapely.Polygon(outer, [hole])], sectors, keys)
        return _triangles(start, sectors, keys)
    first = next(k for k in keys if (k - 1) % SECTORS not in sectors)
    runs: list[list[int]] = []
    for i in range(SECTORS):
        k = (first + i) % SECTORS
        if k not in sectors:
            continue
        if runs and (k - 1) % SECTORS == runs[-1][-1]:
            runs[-1].append(k)
        else:
            runs.append([k])
    out = []
    for run in runs:
        outer = [p for k in run for p in sectors[k][0]]
        backs = [sectors[k][1] for k in run]
        if all(not b for b in backs):
            out += _valid_or_parts(start, [shapely.Polygon([start, *outer])], sectors, run)
        elif all(backs):
            out += _valid_or_parts(
                start,
                [shapely.Polygon(outer + [p for b in reversed(backs) for p in b])],
                sectors,
                run,
            )
        else:
            out += _triangles(start, sectors, run)
    return out


def _triangles(
    start: Point2, sectors: dict[int, tuple[list[Point2], list[Point2]]], keys: list[int]
) -> list[Any]:
    return [shapely.Polygon(sectors[k][0] + (sectors[k][1] or [start])) for k in keys]


def _valid_or_parts(
    start: Point2,
    polygons: list[Any],
    sectors: dict[int, tuple[list[Point2], list[Point2]]],
    keys: list[int],
) -> list[Any]:
    """The run's polygon where it is valid, else its sectors one by one."""
    if all(shapely.is_valid(g) for g in polygons):
        return polygons
    return _triangles(start, sectors, keys)


class Directions(Protocol):
    def direction(self, facing: float, dx: float, dy: float) -> tuple[float, bool, str]:
        """(factor, allowed, direction name) of a move by (dx, dy) facing `facing`."""


def axes_allowed(view: Directions, facing: float) -> list[tuple[float, float]]:
    """`TurnThenStraight.axes` from a unit's own rules: each of forward, backward and
    sideways that `view.direction` allows along the axis, with its factor (mswars: MSW-D5,
    MSW-D33; lasergrenadiers.md 4)."""
    out = []
    for offset in (0.0, 180.0, 90.0, -90.0):
        h = math.radians(facing + offset)
        factor, allowed, _ = view.direction(facing, math.cos(h), math.sin(h))
        if allowed:
            out.append((offset, factor))
    return out


#: Half the width of the wedge about an axis that a move without turning may take: the
#: contract's 1 degree (scenario-format.md, ACTION), less a margin.
AXIS_WEDGE = 0.9


def _axis_parts(spec: TurnThenStraight) -> list[Any]:
    """A thin wedge about each axis: no turn, the axis' factor on every inch, as far as
    the budget goes at the rates the wedge holds at each distance and short of every
    barrier in it (and, for a run, beyond where the cheapest cost passes the minimum)."""
    sx, sy = spec.start
    origin = Point(sx, sy)
    half = math.radians(AXIS_WEDGE)
    lowest = _lowest_rate(spec)
    parts = []
    for offset, factor in spec.axes:
        heading = math.radians(spec.facing + offset)

        def wedge(r: float, r_in: float = 0.0, h: float = heading) -> Any:
            outer = [(sx + r * math.cos(a), sy + r * math.sin(a)) for a in (h - half, h + half)]
            inner = (
                [(sx + r_in * math.cos(a), sy + r_in * math.sin(a)) for a in (h + half, h - half)]
                if r_in > 0
                else [(sx, sy)]
            )
            return shapely.Polygon(outer + inner)

        extent = spec.budget / (lowest * factor) + 1.0
        around = wedge(extent)
        clear = min(
            (
                origin.distance(cut)
                for g in spec.barriers
                if not (cut := around.intersection(g)).is_empty
            ),
            default=math.inf,
        )
        profile = [(lo, hi, rate * factor) for lo, hi, rate in _profiles(spec, origin, [around])[0]]
        outer = min(distance_in(spec.budget - 1e-6, profile), clear, extent * math.cos(half))
        inner = (
            0.0
            if spec.minimum is None
            else spec.minimum / (lowest * factor) / math.cos(half) + 1e-6
        )
        if outer > max(inner, 0.0) + 1e-6:
            parts.append(wedge(outer, inner))
    return parts


#: One stretch of distances from the start over which a sector may hold a rate:
#: (from, to, cost per inch).
Stretch = tuple[float, float, float]


def _lowest_rate(spec: TurnThenStraight) -> float:
    return min([spec.base_rate, *(rate for _, rate in spec.cheap)])


def _profiles(spec: TurnThenStraight, origin: Point, wedges: Any) -> list[list[Stretch]]:
    """Per wedge, the stretches of distance over which it holds each rate: every feature's
    part in it spans the distances from its nearest to its farthest point; open ground
    (what no cheap feature covers) the same. A point at a distance costs at most the
    dearest rate held at that distance."""
    n = len(wedges)
    out: list[list[Stretch]] = [[] for _ in range(n)]
    for g, rate in [*spec.dear, *spec.cheap]:
        _add_stretches(out, origin, shapely.intersection(wedges, g), rate)
    if spec.cheap:
        cheap = shapely.union_all([g for g, _ in spec.cheap])
        _add_stretches(out, origin, shapely.difference(wedges, cheap), spec.base_rate)
    else:
        for k in range(n):
            out[k].append((0.0, math.inf, spec.base_rate))
    return out


def _add_stretches(out: list[list[Stretch]], origin: Point, cuts: Any, rate: float) -> None:
    parts, index = shapely.get_parts(np.asarray(cuts, dtype=object), return_index=True)
    keep = ~shapely.is_empty(parts)
    parts, index = parts[keep], index[keep]
    if not len(parts):
        return
    near = shapely.distance(origin, parts)
    coords, owner = shapely.get_coordinates(parts, return_index=True)
    d = np.hypot(coords[:, 0] - origin.x, coords[:, 1] - origin.y)
    farthest = np.zeros(len(parts))
    np.maximum.at(farthest, owner, d)
    for k, lo, hi in zip(index, near, farthest, strict=True):
        out[int(k)].append((float(lo), float(hi), rate))


def distance_in(budget: float, profile: Sequence[Stretch]) -> float:
    """How far a budget goes along a ray whose cost per inch at each distance is the
    dearest rate `profile` holds there (the dearest of all where it holds none)."""
    if budget <= 0 or not profile:
        return 0.0
    dearest = max(rate for _, _, rate in profile)
    cuts = sorted({0.0, *(lo for lo, _, _ in profile), *(hi for _, hi, _ in profile)})
    spent = 0.0
    for a, b in zip(cuts, [*cuts[1:], math.inf], strict=True):
        rate = max(
            (r for lo, hi, r in profile if lo <= a + 1e-12 and hi >= b - 1e-12), default=dearest
        )
        if rate <= 0:
            continue
        if spent + (b - a) * rate >= budget:
            return a + (budget - spent) / rate
        spent += (b - a) * rate
    return math.inf


def nowhere(unit_id: str, action_type: str, start: Point2, budget: float) -> Reach:
    """The unit cannot make this action (its reach is the point it stands on, unreached)."""
    return Reach(unit_id, action_type, Point(start), budget, lambda p: None)


def distance_for(budget: float, rate: float, steps: list[tuple[float, float]]) -> float:
    """How far a budget goes from `rate` per inch when the rate rises to each (distance,
    rate) of `steps` (sorted by distance) from there on."""
    at, spent = 0.0, 0.0
    for d, r in steps:
        if r <= rate:
            continue
        if spent + (d - at) * rate >= budget:
            break
        spent += (d - at) * rate
        at, rate = d, r
    return max(at + (budget - spent) / rate, 0.0) if budget > spent else at


def _distances(origin: Point, wedges: Any, g: Any) -> Any:
    """Per wedge, how close to the origin `g` comes within it (inf: not at all)."""
    cut = shapely.intersection(wedges, g)
    return np.where(shapely.is_empty(cut), np.inf, shapely.distance(origin, cut))


def table_barrier(table: Table, unit: Unit, margin: float) -> Any | None:
    """Beyond the table shrunk by the base's circumradius and the margin (less margin for
    a unit standing at an edge), or None when the unit stands off it."""
    sx, sy = unit.position
    r = unit.base.radius
    gap = min(sx - r, sy - r, table.width - sx - r, table.height - sy - r) + 0.01
    inner = min(margin, gap - 0.002)
    if inner < 0:
        return None
    return beyond(
        table, box(r + inner, r + inner, table.width - r - inner, table.height - r - inner)
    )


def turn_sweeps_clear(unit: Unit, bodies: Sequence[Body], margin: float) -> bool:
    """May the base turn in place without touching another base? (always for a circle)."""
    if unit.base.is_circle:
        return True
    disk = Body(None, unit.base.radius, unit.position)
    return all(disk.distance(b) > margin for b in bodies)


@dataclass(frozen=True)
class ContactTarget:
    """A base the move must end touching (a charge's target): its id, its base as a body
    (core geometry and radius), and the action keys an end touching it needs."""

    id: str
    core: Any
    radius: float
    keys: dict[str, Any]


#: The band of centres whose circle base touches a target: within 0.008" outside it and
#: at most 0.006" into it (contact within 0.01", overlap deeper than 0.01"; the circles
#: are drawn as fine inscribed polygons, a few ten-thousandths short of true).
CONTACT_OUT, CONTACT_IN = 0.008, 0.006


def contact_reach(
    found: Reach,
    start: Point2,
    radius: float,
    targets: Sequence[ContactTarget],
    passed: Sequence[Any] = (),
) -> Reach:
    """Where a circle base of `radius` that reaches `found` (straight from `start`, after
    a turn in place) ends touching one of `targets`: the band about each target, less
    where the straight line to it would cut into that target or any other (each shadows
    what lies behind it from the start), and less `passed` (other bases the line may not
    cross, already grown by both radii). `keys_at` names the target an end touches."""
    sx, sy = start
    ends: list[tuple[Any, dict[str, Any]]] = []
    shadows = [_shadow(start, g) for g in passed]
    for t in targets:
        out = t.core.buffer(t.radius + radius + CONTACT_OUT, quad_segs=64)
        inside = t.core.buffer(t.radius + radius - CONTACT_IN, quad_segs=64)
        # The base may not cut into the target on the way (overlap deeper than 0.01").
        cut = t.core.buffer(t.radius + radius - 0.01 + 0.003, quad_segs=64)
        if cut.covers(Point(sx, sy)):
            continue
        band = found.area.intersection(out.difference(inside)).difference(_shadow(start, cut))
        others = [
            _shadow(start, o.core.buffer(o.radius + radius + 0.03, quad_segs=16))
            for o in targets
            if o is not t
        ]
        band = (
            band.difference(shapely.union_all([*others, *shadows])) if others or shadows else band
        )
        if not band.is_empty and band.area > 1e-9:
            ends.append((band, t.keys))
    return owned_ends(found, ends, 0.002, found.cut_at)


def _shadow(start: Point2, g: Any) -> Any:
    """`g` and all that lies behind it seen from `start` (a straight line from the start
    to any point of it passes through `g`, for a convex `g`)."""
    far = shapely.affinity.scale(g, 1e3, 1e3, origin=start)
    return shapely.convex_hull(shapely.union_all([g, far]))


#: For a system's own reach of the ends beyond a target (lasergrenadiers' overrun).
shadow = _shadow


def contact_with_all(
    found: Reach, start: Point2, radius: float, targets: Sequence[ContactTarget]
) -> Reach:
    """Where a circle base of `radius` that reaches `found` (straight from `start`, after
    a turn in place) ends still touching every one of `targets`, the bases it touches at
    the start (a Manoeuvre, 002): the bands about them all, less where the straight line
    would cut into one. Sliding along a straight edge is found; going round a corner or a
    round base, which takes several legs, is not: the answer says it is not complete."""
    area = found.area
    for t in targets:
        out = t.core.buffer(t.radius + radius + CONTACT_OUT, quad_segs=64)
        inside = t.core.buffer(t.radius + radius - CONTACT_IN, quad_segs=64)
        cut = t.core.buffer(t.radius + radius - 0.01 + 0.003, quad_segs=64)
        if cut.covers(Point(start)):
            area = shapely.Polygon()
            break
        area = area.intersection(out.difference(inside)).difference(_shadow(start, cut))
    if area.is_empty or area.area <= 1e-9:
        area = shapely.Polygon()
    shapely.prepare(area)
    return narrowed(found, area, 0.002, 0.0)
