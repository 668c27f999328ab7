"""One base along one priced path, whatever the system: the terrain it may not be in and
the directions it may not take (from its Pricing), the table edge, other bases (under its
BasePolicy) and the allowance. Each finding carries the path length at which it first
happens, so that a verdict lists them in path order (path_checks.in_path_order)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from rules.engine.allowance import Allowance
from rules.engine.bases_policy import BasePolicy, check_bases
from rules.engine.path_checks import Found, off_table
from rules.engine.position import Position
from rules.engine.pricing import Leg, PathPrice, PricedLegs, Pricing, price_path
from rules.engine.pricing_3d import Leg3
from rules.engine.verdict import Violation
from rules.geometry.track import Pose, Track, shortest_turn
from rules.model.actions import Action, Step, Turn
from rules.model.state import Unit

#: Where a finding that belongs to the end of the action is placed.
AFTER = 1e12
ADVERBS = {"diagonal": "diagonally"}


def steps_with_final_facing(unit: Unit, action: Action) -> list[Step]:
    """The path, with the action's `facing` key read as a final turn the short way,
    charged like any other turn (MSW-D31, LG-D30)."""
    steps = list(action.path)
    if action.facing is not None:
        facing = unit.facing + sum(s.angle for s in steps if isinstance(s, Turn))
        turn = shortest_turn(facing, action.facing)
        if abs(turn) > 1e-9:
            steps.append(Turn(turn))
    return steps


class PricedTrack:
    """A base's track along a path and the path's price (PricedPath here; a system's own
    walk with a 3-D price): what it cost, and where the base ends."""

    price: PricedLegs
    track: Track

    @property
    def cost(self) -> float:
        return self.price.total

    @property
    def end(self) -> Pose:
        return self.track.end


@dataclass(frozen=True)
class PricedPath(PricedTrack):
    price: PathPrice
    track: Track


def check_priced_path(
    position: Position,
    unit: Unit,
    start: Pose,
    steps: Sequence[Step],
    pricing: Pricing,
    allowance: Allowance,
    policy: BasePolicy,
    *,
    cites: Mapping[str, str],
    name: str = "",
    free_rotation: float = 0.0,
) -> tuple[PricedPath, list[Found]]:
    """`cites`: the rule behind "prohibited_terrain", "off_table" and each refused
    direction ("diagonal", "sideways", ...); `name`: the unit in a player's words."""
    name = name or unit.id
    track = Track.from_steps(unit.base, start, steps)
    price = price_path(start, steps, pricing, free_rotation)
    found = leg_findings(
        price.legs,
        lambda leg, at: (f"{name} cannot be in {leg.blocked_by}", cites["prohibited_terrain"]),
        lambda leg: (
            f"{name} cannot move {ADVERBS.get(leg.direction, leg.direction)} here: turn to "
            "face the way first",
            cites.get(leg.direction, ""),
        ),
    )
    found += off_table(replace(unit, id=name), track, position.state.table, cites["off_table"])
    crossings, _ = check_bases(position, unit, track, track.end, policy)
    found += [(AFTER if v.code == "base_overlap" else s, v) for s, v in crossings]
    if allowance.exceeded(price.total):
        at, s = price.where_exceeds(allowance.value) or (track.end.xy, AFTER)
        found.append(
            (s, allowance.violation(replace(unit, id=name), price.total, at, price.turning()))
        )
    return PricedPath(price, track), found


#: A system's words for one refused leg (and, for terrain, where it first stands in it):
#: (message, cite).
LegWords = Callable[..., tuple[str, str]]


def leg_findings(legs: Sequence[Leg | Leg3], blocked: LegWords, turned: LegWords) -> list[Found]:
    """Each leg's refusals at their places on the path, in the system's words: terrain
    it may not be in (where it first stands in it), a direction its piece may not take
    (where the leg starts)."""
    found: list[Found] = []
    for leg in legs:
        if leg.blocked_at is not None:
            message, cite = blocked(leg, leg.blocked_at)
            violation = Violation("prohibited_terrain", message, leg.blocked_at, cite)
            found.append((leg.s_at(leg.blocked_at), violation))
        if not leg.direction_allowed:
            message, cite = turned(leg)
            found.append((leg.s0, Violation("direction_not_allowed", message, leg.start.xy, cite)))
    return found
