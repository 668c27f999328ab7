"""One base along one path under mswars.md sections 2-5, beyond the kernel's priced-path
checks (`rules_common.measured_path` runs both): the free turn, the bases it may pass, turns
the short way, the rules its refusals cite, and elevated terrain."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rules.engine.bases_policy import BasePolicy
from rules.engine.judgement import PathJudgement, who
from rules.engine.pricing import normalised
from rules.geometry.contact import first_overlap
from rules.geometry.sweeps import first_beyond
from rules.geometry.tolerance import EVENT
from rules.geometry.track import Pose, Track
from rules.model.actions import Step, Turn
from rules.model.state import Terrain, Unit
from rules.systems.mswars.tables import FREE_TURN, PASSABLE_TYPES
from rules.systems.mswars.terrain import MswarsPosition, UnitView, move_type, unit_size_class


def free_rotation(pos: MswarsPosition, unit: Unit) -> float:
    """The walker / 4LW free turn, once per Movement Phase (002 Turning, MSW-D7)."""
    if pos.state.turn.get("free_turn_used", {}).get(unit.id):
        return 0.0
    return FREE_TURN.get(move_type(unit), 0.0)


def may_pass(mover: Unit, other: Unit) -> bool:
    """A friendly base of a walker, 4LW or hover three or more size classes apart
    (002 Rules: Movement, MSW-D8)."""
    return (
        mover.side == other.side
        and move_type(other) in PASSABLE_TYPES
        and abs(unit_size_class(mover) - unit_size_class(other)) >= 3
    )


class MswarsBases(BasePolicy):
    """No passing through bases but small or large friends (MSW-D8); no ending on any."""

    through_cite: ClassVar[str] = "002 Rules: Movement"
    overlap_cite: ClassVar[str] = "002 Rules: Movement"

    def may_cross(self, mover: Unit, other: Unit) -> bool:
        return may_pass(mover, other)


def normalised_steps(steps: Sequence[Step]) -> list[Step]:
    """Turns normalised to (-180, 180]: the unit turns the short way (MSW-D6)."""
    return [Turn(normalised(s.angle)) if isinstance(s, Turn) else s for s in steps]


#: The rules behind the path's refusals.
CITES = {
    "prohibited_terrain": "002 cost table",
    "diagonal": "MSW-D5",
    "sideways": "MSW-D33",
    "off_table": "002 Rules: Movement",
}


def check_elevated(
    view: UnitView,
    judgement: PathJudgement,
    track: Track,
    start: Pose,
    jumping_from: Terrain | None,
) -> None:
    """A unit on the ground may not overlap elevated terrain (it must Climb); one on top
    may not let its centre leave it (it must Jump) (MSW-D24)."""
    unit = view.unit
    top = view.top_under(start.xy)
    if top is not None and top is not jumping_from and track.translates:
        leaves = first_beyond(track, [top.shape], EVENT)
        if leaves is not None:
            at = track.pose_at(leaves).xy
            judgement.add(
                "action_not_allowed",
                f"{who(unit)} is on top of {top.id}: it must Jump to get down",
                at,
                "MSW-D24, 002 Jump Action",
                track.s_at(leaves),
            )
    if not track.motions:
        return
    swept = track.swept()
    minx, miny, maxx, maxy = swept.bounds
    for t, _ in view.near(minx, miny, maxx, maxy):
        if t is top or t is jumping_from or view.row(t) != "elevated":
            continue
        hit = first_overlap(track, t.shape)
        if hit is not None:
            judgement.add(
                "action_not_allowed",
                f"{who(unit)} cannot move onto elevated terrain {t.id}: it must Climb",
                hit.at,
                "MSW-D24, 002 Climb Action",
                hit.s,
            )
