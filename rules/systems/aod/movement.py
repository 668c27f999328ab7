"""One base moving along one path under every rule of aod.md sections 4-7.

Every moving action (move, run, ram, charge, dfa, board, disembark, assaults,
formation members, captors) goes through `check_move`. It never raises for an
illegal path: it returns violations, each placed where it first happens. The
kernel checks the table edge, other bases and the allowance; aod adds its terrain
matrix (section 6) and the hindering half speed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.engine.allowance import Allowance
from rules.engine.bases_policy import check_bases
from rules.engine.numbers import fmt
from rules.engine.path_checks import Found, in_path_order, off_table, over_allowance
from rules.engine.placement import obstruction
from rules.engine.verdict import Violation
from rules.geometry.track import Pose, Track
from rules.model.state import Unit
from rules.systems.aod import terrain as T
from rules.systems.aod.contact import AodBases
from rules.systems.aod.position import AodPosition
from rules.systems.aod.units import matrix_row


@dataclass(frozen=True)
class MoveRequest:
    unit: Unit
    track: Track
    allowance: Allowance
    #: Matrix rows to respect (a captor respects its captive's row too, 001 [27]).
    rows: tuple[str, ...]
    bases: AodBases = field(default_factory=AodBases)
    #: VTOL level change and ranged attack surcharges (000 [17], [23]).
    surcharge: float = 0.0
    #: Opposing units in base contact at the start (stop-on-contact set S, AOD-D6).
    start_contacts: frozenset[str] = frozenset()
    #: A second base that travels with the mover and obeys the same terrain (captive).
    companion: Track | None = None
    #: Hindering halving is judged here unless the caller already did (formations).
    hindering_halves: bool = True
    #: Matrix rows where the order begins, when they differ from the path's: a VTOL
    #: that climbs flies its path at cruising but starts at NOE (AOD-D26, 000 [32]).
    start_rows: tuple[str, ...] | None = None


@dataclass(frozen=True)
class MoveResult:
    violations: tuple[Violation, ...]
    cost: float
    allowance: Allowance
    end: Pose
    #: Units (other than those ignored) whose bases touch the mover's where it ends.
    end_contacts: tuple[Unit, ...] = ()


def check_move(position: AodPosition, req: MoveRequest) -> MoveResult:
    unit, track = req.unit, req.track
    tracks = [track] + ([req.companion] if req.companion is not None else [])
    found: list[Found] = [
        f for tr in tracks for f in off_table(unit, tr, position.state.table, "AOD-D20")
    ]
    outcome = T.TerrainOutcome()
    allowance = req.allowance
    if not req.bases.cruising:
        for tr in tracks:
            T.check_cells(position, req.rows, tr, unit.id, outcome)
            T.check_hindering(position, req.rows, tr, unit.id, outcome)
        T.check_elevated(position, req.rows, track, unit.id, unit.flag("jump_jets"), outcome)
    if req.hindering_halves:
        start_rows = req.rows if req.start_rows is None else req.start_rows
        allowance = halve_for_hindering(position, start_rows, tracks, allowance)
    end = outcome.end or track.end
    if outcome.end is not None:
        found.extend((track.length, v) for v in _repositioning_problems(position, unit, end))
    found.extend(outcome.violations)
    base_violations, end_contacts = check_bases(
        position, unit, track, end, req.bases, req.start_contacts
    )
    found.extend(base_violations)
    length = track.length if outcome.cost_cap is None else min(track.length, outcome.cost_cap)
    cost = length + req.surcharge
    found.extend(over_allowance(unit, track, allowance, cost, req.surcharge))
    return MoveResult(in_path_order(found), cost, allowance, end, end_contacts=tuple(end_contacts))


def halve_for_hindering(
    position: AodPosition, rows: tuple[str, ...], tracks: list[Track], allowance: Allowance
) -> Allowance:
    """Half speed if the base touches hindering terrain at the start (000 [32])."""
    for tr in tracks:
        feat = T.hindering_at_start(position, rows, tr)
        if feat is not None:
            return allowance.halve(f"started touching hindering terrain {feat.id}", "000 [32]")
    return allowance


def _repositioning_problems(position: AodPosition, unit: Unit, end: Pose) -> list[Violation]:
    """A repositioned base may not overlap bases or blocking terrain or leave the table
    (000 [33], AOD-D9)."""
    problem = obstruction(
        position,
        unit.base,
        end,
        ignore=(unit.id,),
        forbidden=position.forbidden_to((matrix_row(unit),)),
    )
    if problem is None:
        return []
    why = f"{unit.id} cannot be repositioned at ({fmt(end.x)}, {fmt(end.y)}): {problem.reason}"
    return [Violation("placement_invalid", why, end.xy, "000 [33], AOD-D9")]
