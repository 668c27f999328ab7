"""The checks every system makes of one base moving along one path, whatever its rules.

A path becomes a Track from where the unit stands; its swept base may not leave the
table (`off_table`, aod AOD-D20, mswars 4, apskirmish 3); its cost may not exceed the
allowance, and the refusal is placed where the allowance runs out. Each finding carries
the path length at which it first happens, so that a verdict lists reasons in path
order (`in_path_order`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.engine.allowance import Allowance
from rules.engine.numbers import fmt
from rules.engine.verdict import Violation
from rules.geometry.table import leaves_table
from rules.geometry.track import Pose, Track
from rules.model.actions import Step
from rules.model.state import Table, Unit

#: A violation and the path length at which it first happens.
Found = tuple[float, Violation]


def track_for(unit: Unit, path: Sequence[Step], facing: float | None = None) -> Track:
    """The poses the unit's base goes through along `path`, from where it stands."""
    return Track.from_steps(
        unit.base, Pose(unit.position[0], unit.position[1], unit.facing), path, facing
    )


def off_table(
    unit: Unit, track: Track, table: Table, cite: str, by_tau: bool = False
) -> list[Found]:
    """The swept base may not reach more than 0.01" past a table edge. `by_tau`: the
    finding is placed by the track's parameter, not its length (so that, of the turns at
    a path's end, which add no length, the first is first)."""
    off = leaves_table(track, table)
    if off is None:
        return []
    return [
        (
            off.tau if by_tau else off.s,
            Violation(
                "off_table",
                f"{unit.id}'s base leaves the table at ({fmt(off.at[0])}, {fmt(off.at[1])})",
                off.at,
                cite,
            ),
        )
    ]


def over_allowance(
    unit: Unit, track: Track, allowance: Allowance, cost: float, surcharge: float = 0.0
) -> list[Found]:
    """`speed_exceeded` / `half_speed_exceeded` at the point where the allowance runs out;
    `surcharge` is the part of the cost paid before the path (a VTOL's climb)."""
    if not allowance.exceeded(cost):
        return []
    s = max(0.0, allowance.value - surcharge)
    at = track.pose_at(track.tau_at_length(s)).xy
    return [(s, allowance.violation(unit, cost, at))]


def in_path_order(found: Iterable[Found]) -> tuple[Violation, ...]:
    """The violations in the order the path meets them (stable for ties)."""
    return tuple(v for _, v in sorted(found, key=lambda sv: sv[0]))
