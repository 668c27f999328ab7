"""One base along one path under mswars.md sections 2-5: MP by terrain, direction and
turning, "Can't" terrain, elevated terrain, other bases, the table edge, the allowance."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from rules.engine.actions import Step, Turn
from rules.engine.allowance import Allowance
from rules.engine.bases_policy import BasePolicy, check_bases
from rules.engine.model import Terrain, Unit
from rules.engine.numbers import fmt
from rules.engine.pricing import PathPrice, normalised, price_path
from rules.geometry.contact import first_overlap
from rules.geometry.sweeps import first_beyond
from rules.geometry.table import leaves_table
from rules.geometry.tolerance import EVENT
from rules.geometry.track import Pose, Track
from rules.systems.mswars.judgement import AFTER, Judgement, who
from rules.systems.mswars.tables import FREE_TURN, PASSABLE_TYPES
from rules.systems.mswars.terrain import (
    MswarsPosition,
    UnitView,
    move_type,
    unit_size_class,
)


@dataclass(frozen=True)
class PathResult:
    price: PathPrice
    track: Track
    end: Pose

    @property
    def cost(self) -> float:
        return self.price.total


def free_rotation(pos: MswarsPosition, unit: Unit) -> float:
    """The walker / 4LW free turn, once per Movement Phase (002 Turning, MSW-D7)."""
    if pos.state.turn.get("free_turn_used", {}).get(unit.id):
        return 0.0
    return FREE_TURN.get(move_type(unit), 0.0)


def may_pass(mover: Unit, other: Unit) -> bool:
    """A friendly base of a walker, 4LW or hover three or more size classes apart
    (002 Rules: Movement, MSW-D8)."""
    return (mover.side == other.side and move_type(other) in PASSABLE_TYPES
            and abs(unit_size_class(mover) - unit_size_class(other)) >= 3)


class MswarsBases(BasePolicy):
    """No passing through bases but small or large friends (MSW-D8); no ending on any."""

    through_cite: ClassVar[str] = "002 Rules: Movement"
    overlap_cite: ClassVar[str] = "002 Rules: Movement"

    def may_cross(self, mover: Unit, other: Unit) -> bool:
        return may_pass(mover, other)


def normalised_steps(steps: Sequence[Step]) -> list[Step]:
    """Turns normalised to (-180, 180]: the unit turns the short way (MSW-D6)."""
    return [Turn(normalised(s.angle)) if isinstance(s, Turn) else s for s in steps]


def judge_path(pos: MswarsPosition, j: Judgement, unit: Unit, start: Pose,
               steps: Sequence[Step], allowance: Allowance, *,
               jumping_from: Terrain | None = None, ignore: Sequence[str] = ()) -> PathResult:
    view = pos.view(unit)
    steps = normalised_steps(steps)
    track = Track.from_steps(unit.base, start, steps)
    price = price_path(start, steps, view.along(track.swept().bounds), free_rotation(pos, unit))
    for leg in price.legs:
        if leg.blocked_at is not None:
            j.add("prohibited_terrain", f"{who(unit)} cannot be in {leg.blocked_by} "
                  f"(\"Can't\" for its move type, 002 cost table)", leg.blocked_at,
                  "002 cost table", leg.s_at(leg.blocked_at))
        if not leg.direction_allowed:
            what = "diagonally: turn to face the way first" if leg.direction == "diagonal" \
                else f"sideways as a {view.type.replace('_', ' ')}"
            cite = "MSW-D5" if leg.direction == "diagonal" else "MSW-D33"
            j.add("direction_not_allowed", f"{who(unit)} cannot move {what} ({cite})",
                  leg.start.xy, cite, leg.s0)
    off = leaves_table(track, pos.state.table)
    if off is not None:
        j.add("off_table", f"{who(unit)}'s base leaves the table at ({fmt(off.at[0])}, "
              f"{fmt(off.at[1])})", off.at, "002 Rules: Movement", off.s)
    _elevated(view, j, track, start, jumping_from)
    end = track.end
    found, _ = check_bases(pos, unit, track, end, MswarsBases(frozenset(ignore)))
    for s, violation in found:
        j.found.append((AFTER if violation.code == "base_overlap" else s, violation))
    if allowance.exceeded(price.total):
        at, s = price.where_exceeds(allowance.value) or (end.xy, AFTER)
        named = replace(unit, id=who(unit))  # players read the unit's name
        j.add(allowance.code, allowance.violation(named, price.total, at).message, at,
              allowance.cite if not allowance.halvings else allowance.halvings[-1][1], s)
    return PathResult(price, track, end)


def _elevated(view: UnitView, j: Judgement, track: Track, start: Pose,
              jumping_from: Terrain | None) -> None:
    """A unit on the ground may not overlap elevated terrain (it must Climb); one on top
    may not let its centre leave it (it must Jump) (MSW-D24)."""
    unit = view.unit
    top = view.top_under(start.xy)
    if top is not None and top is not jumping_from and track.translates:
        leaves = first_beyond(track, [top.shape], EVENT)
        if leaves is not None:
            at = track.pose_at(leaves).xy
            j.add("action_not_allowed", f"{who(unit)} is on top of {top.id}: it must Jump to "
                  "get down (MSW-D24, 002 Jump Action)", at, "MSW-D24", track.s_at(leaves))
    if not track.motions:
        return
    swept = track.swept()
    minx, miny, maxx, maxy = swept.bounds
    for t, _ in view.near(minx, miny, maxx, maxy):
        if t is top or t is jumping_from or view.row(t) != "elevated":
            continue
        hit = first_overlap(track, t.shape)
        if hit is not None:
            j.add("action_not_allowed", f"{who(unit)} cannot move onto elevated terrain {t.id}: "
                  "it must Climb (MSW-D24, 002 Climb Action)", hit.at, "MSW-D24", hit.s)
