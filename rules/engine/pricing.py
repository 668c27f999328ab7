"""Pricing a path step by step: cost per inch by terrain and direction, plus turning.

A system describes its prices with a `Pricing` (hooks): the terrain pieces under a
straight segment of the centre path with their cost per inch (None: the unit cannot
be there), the factor of a direction of travel (None: not allowed), and the cost of a
rotation in place given the cost per inch where it happens and the free rotation that
covers it. The kernel adds them up, keeps where each problem first happens, and
spends a free rotation (one per call) on the step where it saves the most, the
first such step on a tie: the result of the player's best choice.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rules.geometry.intervals import feature_at, intervals_under
from rules.geometry.track import Pose
from rules.model.actions import Step, Turn
from rules.model.state import Point2, Terrain


class Pricing(Protocol):
    def pieces(self, p0: Point2, p1: Point2) -> list[tuple[float, float, float | None, str]]:
        """(u0, u1, cost per inch or None, what the terrain is) along p0 -> p1."""

    def rate_at(self, x: float, y: float) -> tuple[float | None, str]:
        """Cost per inch and what the terrain is where the centre stands."""

    def direction(self, facing: float, dx: float, dy: float) -> tuple[float, bool, str]:
        """(factor, allowed, direction name) of a move by (dx, dy) facing `facing`."""

    def turn_cost(self, angle: float, rate: float, free: float) -> float:
        """Cost of rotating by `angle` degrees where moving costs `rate` per inch, with
        `free` degrees of it free."""


class TerrainRates(Protocol):
    """What a system says of each feature for one moving unit."""

    def rate(self, feature: Terrain | None) -> float | None:
        """Cost per inch in the feature (None: open ground), None when it may not be there."""

    def rank(self, feature: Terrain) -> float:
        """Which feature governs where several overlap (the highest)."""

    def name(self, feature: Terrain | None) -> str:
        """The feature in a player's words."""

    def direction(self, facing: float, dx: float, dy: float) -> tuple[float, bool, str]: ...

    def turn_cost(self, angle: float, rate: float, free: float) -> float: ...


class TerrainAlong:
    """The Pricing hooks of one path from a unit's TerrainRates: the features near the
    whole path (looked up once) under each segment, cut at their boundaries
    (rules/geometry/intervals), the governing one per piece."""

    def __init__(self, rates: TerrainRates, near: Sequence[tuple[Terrain, Any]]) -> None:
        self.rates = rates
        self.near = [(t, shape, shape.bounds) for t, shape in near]

    def pieces(self, p0: Point2, p1: Point2) -> list[tuple[float, float, float | None, str]]:
        near = within_box(self.near, [p0, p1])
        rates = self.rates
        return [
            (iv.start, iv.end, rates.rate(iv.feature), rates.name(iv.feature))
            for iv in intervals_under(p0, p1, near, rates.rank)
        ]

    def rate_at(self, x: float, y: float) -> tuple[float | None, str]:
        t = feature_at(x, y, within_box(self.near, [(x, y)]), self.rates.rank)
        return self.rates.rate(t), self.rates.name(t)

    def direction(self, facing: float, dx: float, dy: float) -> tuple[float, bool, str]:
        return self.rates.direction(facing, dx, dy)

    def turn_cost(self, angle: float, rate: float, free: float) -> float:
        return self.rates.turn_cost(angle, rate, free)


def box_of(points: Sequence[Point2]) -> tuple[float, float, float, float]:
    """(minx, miny, maxx, maxy) of the points."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def within_box(
    near: Sequence[tuple[Terrain, Any, tuple[float, ...]]], points: Sequence[Point2]
) -> list[tuple[Terrain, Any]]:
    """The features of `near` (with their bounds) whose bounds meet the points' box."""
    minx, miny, maxx, maxy = box_of(points)
    return [
        (t, shape)
        for t, shape, (x0, y0, x1, y1) in near
        if x0 <= maxx and x1 >= minx and y0 <= maxy and y1 >= miny
    ]


@dataclass(frozen=True)
class Leg:
    """One step of a path with its price and the first problem it has, if any."""

    index: int
    start: Pose
    end: Pose
    cost: float
    #: (u0, u1, cost per inch after the direction factor) of a translation.
    pieces: tuple[tuple[float, float, float], ...] = ()
    #: Where the centre first stands in terrain it may not be in, and that terrain.
    blocked_at: Point2 | None = None
    blocked_by: str = ""
    direction: str = ""
    direction_allowed: bool = True
    #: The free rotation was spent on this step.
    free: bool = False
    #: Path length before this step (to place problems along the path).
    s0: float = 0.0

    def s_at(self, xy: Point2) -> float:
        """Path length at a point of this step."""
        return self.s0 + math.dist(self.start.xy, xy)

    @property
    def is_turn(self) -> bool:
        return self.start.xy == self.end.xy

    def point_at_cost(self, budget: float) -> Point2:
        """Where along this leg the cost spent on it reaches `budget`."""
        if self.is_turn:
            return self.start.xy
        return point_at_cost(
            self.start, self.end, math.dist(self.start.xy, self.end.xy), self.pieces, budget
        )


class PricedLegs:
    """What every priced path has (PathPrice here, PathPrice3 in pricing_3d): its legs,
    their total cost, and where the running cost first goes over a limit."""

    legs: Sequence[PricedLeg]

    @property
    def total(self) -> float:
        return sum(leg.cost for leg in self.legs)

    def where_exceeds(self, limit: float) -> tuple[Point2, float] | None:
        """The first point where the running cost goes over `limit`, and the 2-D path
        length there (None: it never does)."""
        return where_exceeds(self.legs, limit)

    def turning(self) -> tuple[float, float]:
        """(what the turns in place cost, the degrees they turn): the share of the cost a
        refusal names when turning is part of it ("28.6\" to turn 180°")."""
        turns = [leg for leg in self.legs if leg.is_turn]
        return (
            sum(leg.cost for leg in turns),
            sum(abs(normalised(leg.end.facing - leg.start.facing)) for leg in turns),
        )


@dataclass(frozen=True)
class PathPrice(PricedLegs):
    legs: tuple[Leg, ...]

    @property
    def free_used(self) -> bool:
        return any(leg.free for leg in self.legs)

    @property
    def end(self) -> Pose | None:
        return self.legs[-1].end if self.legs else None


class PricedLeg(Protocol):
    """What `where_exceeds` and `turning` need of a leg (Leg here, Leg3 in pricing_3d)."""

    @property
    def cost(self) -> float: ...

    @property
    def start(self) -> Pose: ...

    @property
    def end(self) -> Pose: ...

    @property
    def is_turn(self) -> bool: ...

    def point_at_cost(self, budget: float) -> Point2: ...

    def s_at(self, xy: Point2) -> float: ...


def where_exceeds(legs: Sequence[PricedLeg], limit: float) -> tuple[Point2, float] | None:
    """The first point where the running cost of `legs` goes over `limit`, and the 2-D
    path length there (None: it never does)."""
    spent = 0.0
    for leg in legs:
        if spent + leg.cost > limit + 1e-12:
            at = leg.point_at_cost(limit - spent)
            return at, leg.s_at(at)
        spent += leg.cost
    return None


def point_at_cost(
    start: Pose,
    end: Pose,
    length: float,
    pieces: Sequence[tuple[float, float, float]],
    budget: float,
) -> Point2:
    """Where along the straight segment start -> end (`length` long, priced by `pieces`:
    (u0, u1, cost per inch)) the cost spent reaches `budget`."""
    if budget <= 0:
        return start.xy
    spent = 0.0
    for u0, u1, rate in pieces:
        piece = (u1 - u0) * length * rate
        if spent + piece >= budget and rate > 0:
            u = u0 + (budget - spent) / (length * rate)
            return (start.x + (end.x - start.x) * u, start.y + (end.y - start.y) * u)
        spent += piece
    return end.xy


@dataclass(frozen=True)
class PricedPieces:
    """The terrain pieces of one straight segment priced: the cost, the pieces with their
    cost per inch (0 where blocked) and where the centre is first blocked."""

    cost: float
    pieces: tuple[tuple[float, float, float], ...]
    blocked_at: Point2 | None
    blocked_by: str


def price_pieces(
    cur: Pose,
    dx: float,
    dy: float,
    length: float,
    factor: float,
    raw: Sequence[tuple[float, float, float | None, str]],
) -> PricedPieces:
    """Adds up the pieces (u0, u1, cost per inch or None, what) of a segment from `cur`
    by (dx, dy), `length` long, after the direction `factor`."""
    pieces: list[tuple[float, float, float]] = []
    blocked_at: Point2 | None = None
    blocked_by = ""
    cost = 0.0
    for u0, u1, rate, what in raw:
        if rate is None:
            if blocked_at is None:
                blocked_at = (cur.x + dx * u0, cur.y + dy * u0)
                blocked_by = what
            pieces.append((u0, u1, 0.0))
            continue
        pieces.append((u0, u1, rate * factor))
        cost += (u1 - u0) * length * rate * factor
    return PricedPieces(cost, tuple(pieces), blocked_at, blocked_by)


def normalised(angle: float) -> float:
    """An angle in (-180, 180]."""
    a = math.fmod(angle, 360.0)
    if a > 180.0:
        a -= 360.0
    elif a <= -180.0:
        a += 360.0
    return a


@dataclass(frozen=True)
class TurnPrice:
    """A turn in place: the pose after it, its cost at the rate of the ground under the
    unit, and what closes that ground to the unit ("" if open; the turn then costs 0 and
    is blocked where it stands)."""

    after: Pose
    cost: float
    rate: float | None
    blocked_by: str

    @property
    def blocked_at(self) -> Point2 | None:
        return None if self.rate is not None else (self.after.x, self.after.y)


def price_turn(cur: Pose, angle: float, pricing: Pricing) -> TurnPrice:
    """`angle` (normalised, not 0) turned in place at `cur`."""
    rate, what = pricing.rate_at(cur.x, cur.y)
    cost = 0.0 if rate is None else pricing.turn_cost(angle, rate, 0.0)
    return TurnPrice(
        Pose(cur.x, cur.y, cur.facing + angle), cost, rate, what if rate is None else ""
    )


def price_path(
    start: Pose, steps: Sequence[Step], pricing: Pricing, free_rotation: float = 0.0
) -> PathPrice:
    """Every step priced; rotations are normalised to (-180, 180] and turn the short way."""
    legs: list[Leg] = []
    savings: list[tuple[float, int, Leg]] = []
    cur = start
    s0 = 0.0
    for i, step in enumerate(steps):
        if isinstance(step, Turn):
            angle = normalised(step.angle)
            if angle == 0:
                continue
            turn = price_turn(cur, angle, pricing)
            nxt, full, rate = turn.after, turn.cost, turn.rate
            leg = Leg(
                i, cur, nxt, full, blocked_at=turn.blocked_at, blocked_by=turn.blocked_by, s0=s0
            )
            if free_rotation > 0 and rate is not None:
                covered = pricing.turn_cost(angle, rate, free_rotation)
                savings.append(
                    (full - covered, len(legs), Leg(i, cur, nxt, covered, free=True, s0=s0))
                )
            legs.append(leg)
        else:
            if math.isclose(step.x, cur.x, abs_tol=1e-9) and math.isclose(
                step.y, cur.y, abs_tol=1e-9
            ):
                continue  # a point equal to the current one is ignored (contract)
            nxt = Pose(step.x, step.y, cur.facing)
            legs.append(_translation(i, cur, nxt, pricing, s0))
            s0 += math.dist(cur.xy, nxt.xy)
        cur = nxt
    if savings:
        best = max(savings, key=lambda s: (s[0], -s[1]))
        legs[best[1]] = best[2]
    return PathPrice(tuple(legs))


def _translation(index: int, cur: Pose, nxt: Pose, pricing: Pricing, s0: float) -> Leg:
    dx, dy = nxt.x - cur.x, nxt.y - cur.y
    factor, allowed, direction = pricing.direction(cur.facing, dx, dy)
    priced = price_pieces(cur, dx, dy, math.hypot(dx, dy), factor, pricing.pieces(cur.xy, nxt.xy))
    return Leg(
        index,
        cur,
        nxt,
        priced.cost,
        priced.pieces,
        priced.blocked_at,
        priced.blocked_by,
        direction,
        allowed,
        s0=s0,
    )
