"""One piece along one path (lasergrenadiers.md 3-7): 3-D cost by terrain and direction,
turning, prohibited terrain and directions, altitude limits, pop-up maneuvers, other
bases, and the table edge (a piece may leave the board, LG-D14)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.engine.bases_policy import BasePolicy, check_bases
from rules.engine.judgement import AFTER, PathJudgement, who
from rules.engine.numbers import LENGTH_TOL, fmt
from rules.engine.priced_path import ADVERBS, PricedTrack, leg_findings, steps_with_final_facing
from rules.engine.pricing_3d import Leg3, PathPrice3, price_path_3d
from rules.geometry.board_edge import exit_from_table
from rules.geometry.track import Pose, Track
from rules.model.actions import Action, Turn
from rules.model.state import Point2, Unit
from rules.systems.lasergrenadiers.catalogue import TERRAIN_CITES
from rules.systems.lasergrenadiers.pieces import altitude_limit, may_pop_up
from rules.systems.lasergrenadiers.terrain import LgPosition

EDGE_CITE = "003 Leaving the board, LG-D14"


@dataclass(frozen=True)
class LgBases(BasePolicy):
    """No base crossed, friendly or enemy, but an overrun's target (LG-D24, ignored by the
    caller); friendly bases with the table option `pass_friendly_bases`."""

    pass_friendly: bool = False
    through_cite: ClassVar[str] = "LG-D24"
    overlap_cite: ClassVar[str] = "LG-D24"

    def may_cross(self, mover: Unit, other: Unit) -> bool:
        return self.pass_friendly and mover.side == other.side


@dataclass(frozen=True)
class Walked(PricedTrack):
    price: PathPrice3
    track: Track
    #: The base ends wholly off the table: the piece leaves the board.
    leaves_board: bool = False
    #: An overrun's (normal cost, cost charged) of the path over its target (LG-D9).
    over: tuple[float, float] = (0.0, 0.0)

    @property
    def cost(self) -> float:
        return self.price.total - self.over[0] + self.over[1]

    @property
    def end_z(self) -> float:
        return self.price.end_z

    @property
    def translates(self) -> bool:
        return any(not leg.is_turn and leg.flat_length > 0 for leg in self.price.legs)

    @property
    def climbs(self) -> bool:
        return any(not leg.is_turn for leg in self.price.legs)


def walk(
    pos: LgPosition,
    judgement: PathJudgement,
    unit: Unit,
    action: Action,
    *,
    ignore: frozenset[str] = frozenset(),
    entering: bool = False,
) -> Walked:
    """Price the action's path, its `facing` key read as a final turn, charged (LG-D30),
    and add every finding of sections 3-7 to `judgement` (not the allowance)."""
    start, start_z = Pose(*unit.position, unit.facing), unit.z
    steps = steps_with_final_facing(unit, action)
    points = [start.xy] + [(s.x, s.y) for s in steps if not isinstance(s, Turn)]
    view = pos.view(unit).scoped(points)
    name = who(unit)
    price = price_path_3d(start, start_z, steps, view)
    track = Track.from_steps(unit.base, start, steps)  # a vertical step does not move the base

    def blocked(leg: Leg3, at: Point2) -> tuple[str, str]:
        feature = view.feature_at(*at)
        cite = TERRAIN_CITES.get(feature.type, "003 Terrain") if feature else "003 Terrain"
        return f"{name} cannot enter {leg.blocked_by}", cite

    def turned(leg: Leg3) -> tuple[str, str]:
        cite = "003 Ground vehicle movement 3c" if leg.direction == "sideways" else "LG-D12"
        how = ADVERBS.get(leg.direction, leg.direction)
        return f"{name} ({unit.type}) cannot move {how}: turn to face the way first", cite

    for s, v in leg_findings(price.legs, blocked, turned):
        judgement.add(v.code, v.message, v.at, v.cite, s)
    _altitude(pos, judgement, unit, price, start)
    leaves = _edge(pos, judgement, unit, track, entering)
    policy = LgBases(ignore, pos.options.pass_friendly_bases)
    crossings, _ = check_bases(pos, unit, track, track.end, policy)
    for s, v in crossings:
        judgement.found.append((AFTER if v.code == "base_overlap" else s, v))
    return Walked(price, track, leaves)


def _altitude(
    pos: LgPosition, judgement: PathJudgement, unit: Unit, price: PathPrice3, start: Pose
) -> None:
    """z over the limit at a path point; a pop-up by a piece that may not (003 Altitude
    limits, 003 Pop-up maneuvers 2; LG-D22, LG-D23, LG-D36)."""
    view = pos.view(unit)
    limit = altitude_limit(unit)
    points: list[tuple[Point2, float, float]] = [(start.xy, price.heights[0], 0.0)]
    for leg in price.legs:
        if leg.is_turn:
            continue
        points.append((leg.end.xy, leg.z1, leg.s0 + leg.flat_length))
        if limit is None or leg.z1 <= limit + LENGTH_TOL:
            continue
        climbable = [
            t.height or 0.0 for t in pos.climbable_at(leg.end.xy) if view.multiplier(t) is not None
        ]
        top = max([limit, *climbable])
        if leg.z1 > top + LENGTH_TOL:
            judgement.add(
                "altitude_exceeded",
                f'{who(unit)} would be {fmt(leg.z1)}" up; its altitude '
                f"limit is {'the surface' if top == 0 else fmt(top) + chr(34)}",
                leg.end.xy,
                "003 Altitude limits",
                leg.s0 + leg.flat_length,
            )
    if may_pop_up(unit) or max(price.heights) - min(price.heights) <= LENGTH_TOL:
        return
    outside = [(xy, z, s) for xy, z, s in points if not pos.climbable_at(xy)]
    low = float("inf")
    peak: float | None = None  # the highest point after a rise
    for _xy, z, s in outside:
        if peak is not None and z < peak - LENGTH_TOL:
            judgement.add(
                "action_not_allowed",
                f"{who(unit)} rises and drops again in one move: only "
                "grav vehicles, aircraft and grav or jet infantry may pop up",
                _xy,
                "003 Pop-up maneuvers 2, LG-D23",
                s,
            )
            return
        if z > low + LENGTH_TOL and (peak is None or z > peak):
            peak = z
        low = min(low, z)


def _edge(
    pos: LgPosition, judgement: PathJudgement, unit: Unit, track: Track, entering: bool
) -> bool:
    """Leaving: the base ends wholly off and never comes back; partly off, or off and back,
    is `off_table` (LG-D14). An entering piece counts from when it is wholly on."""
    found = exit_from_table(track, pos.state.table, entering)
    if found is None or found[0] == "leaves":
        return found is not None
    why, off = found
    name = who(unit)
    if off is None:
        message = f"{name} never comes wholly onto the table"
        judgement.add("off_table", message, track.end.xy, EDGE_CITE, AFTER)
        return False
    what = "ends partly off the table" if why == "partly_off" else "leaves the table and comes back"
    judgement.add(
        "off_table",
        f"{name} {what} at ({fmt(off.at[0])}, {fmt(off.at[1])}): a piece "
        f"leaves the board only wholly, at the end of a move",
        off.at,
        EDGE_CITE,
        off.s,
    )
    return False
