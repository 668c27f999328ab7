"""`load` and `unload` (003 Transport; lasergrenadiers.md 9, LG-D26, LG-D29, LG-D34)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.engine.judgement import AFTER, PathJudgement, who
from rules.engine.numbers import LENGTH_TOL, fmt
from rules.engine.placement import obstructions
from rules.engine.verdict import Verdict
from rules.geometry.bases import Body, body_at
from rules.geometry.tolerance import CONTACT
from rules.geometry.track import Pose
from rules.model.actions import Action
from rules.model.state import Unit
from rules.systems.lasergrenadiers.accounting import (
    banded,
    coupling_breaches,
    damaged_transport_breach,
    moved,
    remaining,
    speed_band,
    transfers,
    with_transfer,
)
from rules.systems.lasergrenadiers.changes import after, placed
from rules.systems.lasergrenadiers.path import walk
from rules.systems.lasergrenadiers.pieces import allowance_of, is_vehicle
from rules.systems.lasergrenadiers.terrain import LgPosition

CITE = "003 Transport 1"


def _vehicle(pos: LgPosition, judgement: PathJudgement, vid: Any, acting: Unit) -> Unit | None:
    vehicle = pos.state.unit(vid) if isinstance(vid, str) else None
    if vehicle is None:
        judgement.add("unknown_unit", f"no vehicle {vid!r} to transport {who(acting)}", None, CITE)
        return None
    why = None
    if not is_vehicle(vehicle) or vehicle.aboard is not None:
        why = "is not a vehicle on the table"
    elif vehicle.side != acting.side:
        why = "is not a friendly vehicle"
    if why is not None:
        cite = "003 Transport, 003 Transport 1"
        judgement.add("action_not_allowed", f"{who(vehicle)} {why}", None, cite)
    return vehicle


def _transfer_rules(
    pos: LgPosition, judgement: PathJudgement, vehicle: Unit, pieces: list[Unit]
) -> None:
    """Hovering aircraft take jetpacks only (003 Transport 5); damaged transports (003
    Transport 6); pieces that may be carried."""
    if vehicle.flag("aircraft") and (vehicle.z or 0.0) > LENGTH_TOL:
        for p in pieces:
            if p.type != "jetpack":
                judgement.add(
                    "action_not_allowed",
                    f"{who(vehicle)} is hovering: only jetpack troops load or unload, not {who(p)}",
                    vehicle.position,
                    "003 Transport 5",
                )
    why = damaged_transport_breach(
        vehicle, moved(pos.state, vehicle.id), vehicle.id in pos.state.turn.get("translated", [])
    )
    if why:
        judgement.add("action_not_allowed", why, vehicle.position, "003 Transport 6, LG-D35")
    for p in pieces:
        if is_vehicle(p):
            judgement.add(
                "action_not_allowed",
                f"{who(p)} is a vehicle: only infantry and crewed weapons embark",
                p.position,
                "003 Transport, 003 Transport 1",
            )


def _needs(judgement: PathJudgement, p: Unit, need: float, left: float, what: str) -> None:
    """`speed_exceeded` where a piece needs more than it has left (003 Transport 1)."""
    if need > left + LENGTH_TOL:
        message = f'{who(p)} needs {fmt(need)}" to {what} but has {fmt(left)}" left'
        judgement.add("speed_exceeded", message, p.position, CITE, AFTER)


def _transfer(
    pos: LgPosition,
    judgement: PathJudgement,
    vehicle: Unit,
    kind: str,
    pieces: list[Unit],
    acting: Unit,
    by_vehicle: bool,
    spent: dict[str, float],
) -> list[dict[str, Any]]:
    """The turn's transfers after this one: each piece other than the acting one pays a
    third of its allowance (003 Transport 1), and the vehicle's transport inequality
    holds with the movement `spent` (003 Transport 4, LG-D26)."""
    for p in pieces:
        if p.id != acting.id:
            left = remaining(pos.state, p)
            _needs(judgement, p, allowance_of(p) / 3, left, "embark or disembark")
    ids = [p.id for p in pieces]
    events = with_transfer(transfers(pos.state), vehicle.id, kind, ids, by_vehicle=by_vehicle)
    for vid, why in coupling_breaches(pos.state, spent, events):
        if vid == vehicle.id:
            judgement.add("speed_exceeded", why, vehicle.position, "003 Transport 4, LG-D26", AFTER)
    return events


def load(pos: LgPosition, unit: Unit, action: Action) -> Verdict:
    state = pos.state
    judgement = PathJudgement(state)
    boarding = action.get("carrier") is not None
    vehicle = _vehicle(pos, judgement, action.get("carrier") if boarding else unit.id, unit)
    if vehicle is None:
        return banded(judgement.verdict())
    if boarding:
        pieces = [unit]
    else:
        pieces = []
        for pid in action.get("passengers") or []:
            p = state.unit(pid)
            if p is None:
                judgement.add("unknown_unit", f"no piece {pid!r} to load", None, CITE)
            elif p.aboard is not None or p.id in state.turn.get("left_board", []):
                judgement.add("action_not_allowed", f"{who(p)} is not on the table", None, CITE)
            else:
                pieces.append(p)
        if not pieces and judgement.legal:
            judgement.add("malformed", "a load by the vehicle names its `passengers`", None, CITE)
    _transfer_rules(pos, judgement, vehicle, pieces)
    capacity = vehicle.get("capacity")
    aboard = sum(1 for u in state.units if u.aboard == vehicle.id)
    if isinstance(capacity, int | float) and aboard + len(pieces) > capacity:
        judgement.add(
            "capacity_exceeded",
            f"{who(vehicle)} carries {fmt(capacity)} pieces and has {aboard} aboard",
            vehicle.position,
            "LG-D29",
        )
    vehicle_body = pos.bodies.get(vehicle.id)
    path_cost = 0.0
    placed_unit = unit
    walked = None
    if boarding:
        walked = walk(pos, judgement, unit, action)
        path_cost = walked.cost
        placed_unit = placed(unit, walked.end, walked.end_z)
        end_body = body_at(unit.base, walked.end.x, walked.end.y, walked.end.facing)
        contacts = [(end_body, walked.end.xy, f"{who(unit)} must end in base contact with")]
    else:
        contacts = [
            (pos.bodies[p.id], p.position, f"{who(p)} is not in base contact with") for p in pieces
        ]
    for body, at, words in contacts:
        if vehicle_body is not None and body.distance(vehicle_body) > CONTACT:
            message = f"{words} {who(vehicle)}{' to load' if boarding else ''}"
            judgement.add("must_end_in_contact", message, at, "003 Transport 2, LG-D26", AFTER)
    cost = path_cost + allowance_of(unit) / 3  # LG-D34: a vehicle pays its third only
    left, before = remaining(state, unit), moved(state, unit.id)
    judgement.cost, judgement.allowance = cost, left
    band = speed_band(unit, before + path_cost)
    _needs(judgement, placed_unit, cost, left, "load")
    spent = {unit.id: before + path_cost}
    events = _transfer(pos, judgement, vehicle, "load", pieces, unit, not boarding, spent)
    if not judgement.legal:
        return banded(judgement.verdict(), band)
    aboard_now = [replace(placed_unit if p.id == unit.id else p, aboard=vehicle.id) for p in pieces]
    judgement.events += [{"type": "loaded", "unit": p.id, "carrier": vehicle.id} for p in pieces]
    translated = [unit.id] if walked and walked.translates else []
    spent_now = spent if path_cost else None
    new = after(state, aboard_now, spent=spent_now, transfers=events, translated=translated)
    return banded(judgement.verdict(new), band)


def unload(pos: LgPosition, unit: Unit, action: Action) -> Verdict:
    """`unit` = the vehicle, or a piece aboard unloading itself in its own activation
    (LG-D31); each piece is set down in base contact with the vehicle."""
    state = pos.state
    judgement = PathJudgement(state)
    vehicle = _vehicle(pos, judgement, unit.aboard if unit.aboard is not None else unit.id, unit)
    if vehicle is None:
        return banded(judgement.verdict())
    items = action.get("passengers") or []
    if not items:
        message = "an unload names its `passengers` and where each is set down"
        judgement.add("malformed", message, None, CITE)
        return banded(judgement.verdict())
    pieces: list[tuple[Unit, Pose]] = []
    for item in items:
        p = state.unit(item["unit"])
        if p is None:
            judgement.add("unknown_unit", f"no piece {item['unit']!r} to unload", None, CITE)
            continue
        why, cite = None, CITE
        if p.aboard != vehicle.id:
            why = f"{who(p)} is not aboard {who(vehicle)}"
        elif unit.aboard is not None and p.id != unit.id:
            why, cite = f"{who(unit)} unloads itself only; the vehicle unloads the others", "LG-D31"
        if why is not None:
            judgement.add("action_not_allowed", why, None, cite)
            continue
        x, y = item["position"][0], item["position"][1]
        pieces.append((p, Pose(float(x), float(y), float(item.get("facing", p.facing)))))
    _transfer_rules(pos, judgement, vehicle, [p for p, _ in pieces])
    if vehicle.aboard is not None:  # refused by `_vehicle`: no base on the table to meet
        return banded(judgement.verdict())
    vehicle_body = pos.bodies[vehicle.id]
    laid: list[tuple[str, Body]] = []
    for p, pose in pieces:
        body = body_at(p.base, pose.x, pose.y, pose.facing)
        problems = [o.reason for o in obstructions(pos, p.base, pose, placed=laid)]
        if body.distance(vehicle_body) > CONTACT:
            problems.append(f"it must be in base contact with {who(vehicle)}")
        rate, what = pos.view(p).rate_at(pose.x, pose.y)
        if rate is None:
            problems.append(f"it may not enter {what}")
        if problems:
            judgement.add(
                "placement_invalid",
                f"{who(p)} cannot be set down at ({fmt(pose.x)}, "
                f"{fmt(pose.y)}): {'; '.join(problems)}",
                pose.xy,
                "003 Transport 3, LG-D26",
                AFTER,
            )
        laid.append((p.id, body))
    cost, left = allowance_of(unit) / 3, remaining(state, unit)
    judgement.cost, judgement.allowance = cost, left
    band = speed_band(unit, moved(state, unit.id))
    _needs(judgement, unit, cost, left, "unload")
    out = [p for p, _ in pieces]
    events = _transfer(pos, judgement, vehicle, "unload", out, unit, unit.aboard is None, {})
    if not judgement.legal:
        return banded(judgement.verdict(), band)
    down = [replace(placed(replace(p, z=None), pose, 0.0), aboard=None) for p, pose in pieces]
    judgement.events += [
        {
            "type": "unloaded",
            "unit": p.id,
            "carrier": vehicle.id,
            "to": [round(p.position[0], 4), round(p.position[1], 4)],
        }
        for p in down
    ]
    return banded(judgement.verdict(after(state, down, transfers=events)), band)
