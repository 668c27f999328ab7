"""What a piece has spent this turn and may still spend: `state.moved`, transfer charges,
the transport inequalities coupling a vehicle and its passengers, damaged transports,
and the speed band (lasergrenadiers.md 2, 8, 9)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules.engine.judgement import who
from rules.engine.numbers import LENGTH_TOL, fmt
from rules.engine.verdict import Verdict
from rules.model.state import GameState, Unit
from rules.systems.lasergrenadiers.pieces import allowance_of, damage_level
from rules.systems.lasergrenadiers.tables import FAST, SPEED_BANDS, STATIONARY

Transfer = Mapping[str, Any]


def moved(state: GameState, unit_id: str) -> float:
    return float(state.turn.get("moved", {}).get(unit_id, 0.0))


def transfers(state: GameState) -> list[Transfer]:
    return list(state.turn.get("transfers", []))


def remaining(state: GameState, unit: Unit) -> float:
    """A - `state.moved` - transfer charges already made this turn: a third for each
    transfer event that charged the piece, as the vehicle or as a piece
    (lasergrenadiers.md 2)."""
    a = allowance_of(unit)
    events = transfers(state)
    count = sum(1 for e in events if e.get("vehicle") == unit.id or unit.id in e.get("pieces", []))
    return a - moved(state, unit.id) - count * a / 3


def speed_band(unit: Unit, spent: float) -> str:
    """By the share of the original rate `move` spent this turn, turning included,
    transfer charges excluded; upper bounds inclusive (LG-D11, LG-D27)."""
    if spent <= LENGTH_TOL:
        return STATIONARY
    for upper, band in SPEED_BANDS:
        if spent <= unit.move * upper + LENGTH_TOL:
            return band
    return FAST


def banded(verdict: Verdict, band: str = STATIONARY) -> Verdict:
    """The verdict with the piece's speed band, which every verdict says (lasergrenadiers.md
    8; catalogue.VERDICT_NOTES)."""
    return replace(verdict, notes={"speed_band": band})


def with_transfer(
    events: Sequence[Transfer],
    vehicle: str,
    kind: str,
    pieces: Sequence[str],
    by_vehicle: bool = False,
) -> list[dict[str, Any]]:
    """The turn's transfers after one more. Pieces that load (or unload) the same vehicle
    in one turn, each in its own activation, are one event (003 Transport 4a: troopers
    "load individually" and the vehicle still moves two-thirds). A transfer the vehicle
    makes (`by_vehicle`: it loads pieces in contact, or sets its passengers down) is an
    event of its own: each of the vehicle's transfers charges it a third (003 Transport 1;
    lasergrenadiers.md 9: k is the number of transfer events)."""
    out = [dict(e) for e in events]
    for e in out if not by_vehicle else ():
        if e.get("vehicle") == vehicle and e.get("kind") == kind:
            e["pieces"] = [
                *e.get("pieces", []),
                *[p for p in pieces if p not in e.get("pieces", [])],
            ]
            return out
    out.append({"vehicle": vehicle, "kind": kind, "pieces": list(pieces)})
    return out


def thirds_charged(spent: float, allowance: float) -> float:
    """g(p): a passenger's own movement charged to the vehicle in whole thirds, rounded up:
    0 unmoved, 1/3 up to a third, 2/3 beyond (003 Transport 4b-c, LG-D26, LG-D35)."""
    if spent <= LENGTH_TOL:
        return 0.0
    return 1 / 3 if spent <= allowance / 3 + LENGTH_TOL else 2 / 3


def coupling_total(
    state: GameState, vid: str, spent: Mapping[str, float], events: Sequence[Transfer]
) -> tuple[float, float, int, float]:
    """(total inches charged to vehicle `vid`, its own movement, its events k, and its
    passengers' movement charged): f(V) + k/3 + sum over V's events of max g(p), times
    A(V) (lasergrenadiers.md 9, LG-D26)."""
    vehicle = state.unit(vid)
    if vehicle is None:
        return 0.0, 0.0, 0, 0.0
    a = allowance_of(vehicle)
    mine = [e for e in events if e.get("vehicle") == vid]
    charged = 0.0
    for e in mine:
        shares = [
            thirds_charged(spent.get(p, moved(state, p)), allowance_of(u))
            for p in e.get("pieces", [])
            if (u := state.unit(p)) is not None
        ]
        charged += max(shares, default=0.0)
    own = spent.get(vid, moved(state, vid))
    return own + len(mine) * a / 3 + charged * a, own, len(mine), charged * a


def coupling_breaches(
    state: GameState, spent: Mapping[str, float], events: Sequence[Transfer]
) -> list[tuple[str, str]]:
    """(vehicle id, why) for every vehicle whose transport inequality fails with the
    movement `spent` (unit id -> allowance spent this turn) and the turn's `events`,
    in inches within 0.001"."""
    out = []
    for vid in dict.fromkeys(str(e.get("vehicle")) for e in events):
        vehicle = state.unit(vid)
        if vehicle is None:
            continue
        a = allowance_of(vehicle)
        total, own, k, charged = coupling_total(state, vid, spent, events)
        if total > a + LENGTH_TOL:
            why = (
                f'{who(vehicle)} would spend {fmt(total)}" of {fmt(a)}": {fmt(own)}" moving, {k} '
                f'transfer(s) at {fmt(a / 3)}" and {fmt(charged)}" for its passengers\' movement'
            )
            out.append((vid, why))
    return out


def coupling_room(state: GameState, unit: Unit) -> float:
    """How much more `unit` may spend this turn before a transport inequality fails (inf
    when it is in no transfer this turn)."""
    events = transfers(state)
    room = float("inf")
    mine = moved(state, unit.id)
    if any(e.get("vehicle") == unit.id for e in events):
        total, _, _, _ = coupling_total(state, unit.id, {}, events)
        room = allowance_of(unit) - total
    for e in events:
        if unit.id in e.get("pieces", []) and e.get("vehicle") != unit.id:
            vid = str(e.get("vehicle"))
            # g(p) steps at 0 and at a third of A(p): the largest spend that fits is one
            # of these, or everything.
            for extra in (float("inf"), allowance_of(unit) / 3 - mine, 0.0):
                spend = mine + (1e6 if extra == float("inf") else max(extra, 0.0))
                total, _, _, _ = coupling_total(state, vid, {unit.id: spend}, events)
                vehicle = state.unit(vid)
                if vehicle is None or total <= allowance_of(vehicle) + LENGTH_TOL:
                    room = min(room, extra)
                    break
    return room


def left_to_spend(state: GameState, unit: Unit) -> float:
    """Allowance the piece may still spend this turn: what is left, within the transport
    inequalities (lasergrenadiers.md 2, 9)."""
    return min(remaining(state, unit), coupling_room(state, unit))


def damaged_transport_breach(vehicle: Unit, spent: float, translated: bool) -> str | None:
    """After (or before) a transfer this turn, a damaged transport may move only slowly
    (level 1: up to `move`/3 of the original rate) or not at all (level 2: no translation,
    rotation allowed) (003 Transport 6, LG-D35)."""
    level = damage_level(vehicle)
    if level == 1 and spent > vehicle.move / 3 + LENGTH_TOL:
        return (
            f"{who(vehicle)} is damaged one level: it may load or unload only if it moves "
            f'at slow speed this turn ({fmt(spent)}" spent, slow is up to '
            f'{fmt(vehicle.move / 3)}")'
        )
    if level == 2 and translated:
        return (
            f"{who(vehicle)} is damaged two levels: it may load or unload only if it does "
            "not move this turn"
        )
    return None
