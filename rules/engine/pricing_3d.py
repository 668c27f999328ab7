"""Pricing a path whose points may carry a height: z along the path, 3-D segment length.

Systems that count vertical distance (lasergrenadiers LG-D16: a lander starting 48"
above its landing point pays 48") price each straight segment by its 3-D length: the
terrain pieces under the segment's horizontal projection keep their share of the
length (z is linear along a segment), the direction factor is that of the horizontal
bearing, and a purely vertical segment has no direction (factor 1) and the terrain
where it stands. A point that gives no z keeps the height of the point before it (the
segment is then level), the start being the unit's own z (0 when it has none).
The hooks are the kernel's `Pricing` (pricing.py); rotations cost `turn_cost(angle,
rate where it stands, 0)`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from rules.engine.pricing import (
    PricedLegs,
    Pricing,
    normalised,
    point_at_cost,
    price_pieces,
    price_turn,
)
from rules.geometry.track import Pose
from rules.model.actions import Step, Turn, Waypoint
from rules.model.state import Point2


def z_along(start_z: float | None, steps: Sequence[Step]) -> list[float]:
    """The height at the start and after each step (a turn or a point without z keeps
    the height before it)."""
    z = 0.0 if start_z is None else float(start_z)
    out = [z]
    for step in steps:
        if isinstance(step, Waypoint) and step.z is not None:
            z = float(step.z)
        out.append(z)
    return out


@dataclass(frozen=True)
class Leg3:
    """One step with its price; lengths are 3-D, `s0` the 2-D path length before it."""

    index: int
    start: Pose
    end: Pose
    z0: float
    z1: float
    cost: float
    #: 3-D length of a translation (0 for a rotation).
    length: float = 0.0
    #: (u0, u1, cost per 3-D inch after the direction factor) of a translation.
    pieces: tuple[tuple[float, float, float], ...] = ()
    blocked_at: Point2 | None = None
    blocked_by: str = ""
    direction: str = ""
    direction_allowed: bool = True
    s0: float = 0.0

    @property
    def is_turn(self) -> bool:
        return self.length == 0.0

    @property
    def flat_length(self) -> float:
        return math.dist(self.start.xy, self.end.xy)

    def s_at(self, xy: Point2) -> float:
        return self.s0 + math.dist(self.start.xy, xy)

    def point_at_cost(self, budget: float) -> Point2:
        """Where along this leg the cost spent on it reaches `budget` (horizontally)."""
        if self.is_turn:
            return self.start.xy
        return point_at_cost(self.start, self.end, self.length, self.pieces, budget)


@dataclass(frozen=True)
class PathPrice3(PricedLegs):
    legs: tuple[Leg3, ...]
    #: Height at the start and at the end of each leg.
    heights: tuple[float, ...]

    @property
    def translation_cost(self) -> float:
        return sum(leg.cost for leg in self.legs if not leg.is_turn)

    @property
    def end_z(self) -> float:
        return self.heights[-1]


def price_path_3d(
    start: Pose, start_z: float | None, steps: Sequence[Step], pricing: Pricing
) -> PathPrice3:
    """Every step priced; rotations are normalised to (-180, 180] and turn the short way;
    a point equal to the current one (z included) is ignored."""
    legs: list[Leg3] = []
    heights = [0.0 if start_z is None else float(start_z)]
    cur, z = start, heights[0]
    s0 = 0.0
    for i, step in enumerate(steps):
        if isinstance(step, Turn):
            angle = normalised(step.angle)
            if angle == 0:
                continue
            turn = price_turn(cur, angle, pricing)
            nxt = turn.after
            legs.append(
                Leg3(
                    i,
                    cur,
                    nxt,
                    z,
                    z,
                    turn.cost,
                    blocked_at=turn.blocked_at,
                    blocked_by=turn.blocked_by,
                    s0=s0,
                )
            )
            heights.append(z)
            cur = nxt
            continue
        nz = z if step.z is None else float(step.z)
        nxt = Pose(step.x, step.y, cur.facing)
        flat = math.dist(cur.xy, nxt.xy)
        if flat < 1e-9 and abs(nz - z) < 1e-9:
            continue
        legs.append(_translation(i, cur, nxt, z, nz, pricing, s0))
        heights.append(nz)
        s0 += flat
        cur, z = (nxt if flat >= 1e-9 else cur), nz
    return PathPrice3(tuple(legs), tuple(heights))


def _translation(
    index: int, cur: Pose, nxt: Pose, z0: float, z1: float, pricing: Pricing, s0: float
) -> Leg3:
    dx, dy = nxt.x - cur.x, nxt.y - cur.y
    length = math.sqrt(dx * dx + dy * dy + (z1 - z0) ** 2)
    if math.hypot(dx, dy) < 1e-9:  # straight up or down: no direction, the terrain here
        rate, what = pricing.rate_at(cur.x, cur.y)
        factor, allowed, direction = 1.0, True, "vertical"
        raw: list[tuple[float, float, float | None, str]] = [(0.0, 1.0, rate, what)]
    else:
        factor, allowed, direction = pricing.direction(cur.facing, dx, dy)
        raw = pricing.pieces(cur.xy, nxt.xy)
    priced = price_pieces(cur, dx, dy, length, factor, raw)
    return Leg3(
        index,
        cur,
        nxt,
        z0,
        z1,
        priced.cost,
        length,
        priced.pieces,
        priced.blocked_at,
        priced.blocked_by,
        direction,
        allowed,
        s0,
    )
