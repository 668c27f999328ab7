"""Carriers: Enter Unit, Carrier Unloading, Unit Exiting (002 Enter Unit, 002 Carrier
Unloading Action, 002 Unit Exiting Action; MSW-D17-D19, D35, D36, D38, D39, D48)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.engine.judgement import AFTER, PathJudgement, who
from rules.engine.numbers import fmt
from rules.engine.placement import obstruction
from rules.engine.priced_path import PricedTrack
from rules.geometry.arcs import in_base_contact, rear_contact
from rules.geometry.bases import body_at
from rules.geometry.track import Pose
from rules.model.actions import Action, Waypoint
from rules.model.state import Unit
from rules.systems.mswars.rules_common import has_moved_this_phase
from rules.systems.mswars.terrain import MswarsPosition, is_infantry, opposing

ENTER = "002 Enter Unit"
UNLOAD = "002 Carrier Unloading Action"
EXIT = "002 Unit Exiting Action"


def capacity(unit: Unit) -> float:
    c = unit.get("carrier")
    return float(c) if isinstance(c, int | float) and not isinstance(c, bool) else 0.0


def aboard(pos: MswarsPosition, carrier: Unit) -> list[Unit]:
    return [u for u in pos.state.units if u.aboard == carrier.id]


def has_units_aboard(pos: MswarsPosition, unit: Unit) -> bool:
    """A carrier with units aboard: what Carrier Unloading needs (002 Carrier Unloading)."""
    return capacity(unit) > 0 and bool(aboard(pos, unit))


def placement_at_rear(
    pos: MswarsPosition, carrier: Unit, unit: Unit, placed: list[Unit]
) -> list[str]:
    """In base contact with the carrier's rear, on its level, on the table, on no base or
    other elevated feature, centre out of "Can't" terrain (mswars.md 7)."""
    problems = []
    if not rear_contact(carrier, unit):
        problems.append(f"not in base contact with {carrier.id}'s rear")
    view = pos.view(unit)
    level = pos.view(carrier).top_under(carrier.position)
    top = view.top_under(unit.position)
    if top is not level:
        problems.append(f"not on {carrier.id}'s level")
    bars = {t.id for t in view.elevated() if t is not top}
    blocked = obstruction(
        pos,
        unit.base,
        Pose(*unit.position, unit.facing),
        forbidden=lambda t: t.id in bars,
        ignore={unit.id, carrier.id},
        placed=[(o.id, body_at(o.base, *o.position, o.facing)) for o in [carrier, *placed]],
    )
    if blocked is not None:
        problems.append(blocked.reason)
    rate, terrain = view.rate_at(*unit.position)
    if rate is None:
        problems.append(f'in {terrain}, "Can\'t" for it')
    return problems


def check_entered(
    pos: MswarsPosition, judgement: PathJudgement, unit: Unit, cid: Any, moved: Unit
) -> None:
    """Enter Unit boards a friendly carrier with room, which has made no move action this
    phase, from base contact with it (002 Enter Unit, MSW-D17, MSW-D18, MSW-D38)."""
    carrier = check_carrier_to_enter(pos, judgement, unit, cid)
    if carrier is not None and not in_base_contact(moved, carrier):
        judgement.add(
            "must_end_in_contact",
            f"{who(unit)} must end in base contact with {carrier.id} to enter it",
            moved.position,
            ENTER,
            AFTER,
        )


def check_carrier_to_enter(
    pos: MswarsPosition, judgement: PathJudgement, unit: Unit, cid: Any
) -> Unit | None:
    at = unit.position
    carrier = pos.state.unit(cid) if isinstance(cid, str) else None
    if carrier is None:
        judgement.add(
            "unknown_unit" if isinstance(cid, str) else "action_not_allowed",
            f"{unit.id} names no carrier to enter"
            if cid is None
            else f"{cid} is not on the table to enter",
            at,
            ENTER,
        )
        return None
    if opposing(unit, carrier):
        judgement.add(
            "action_not_allowed",
            f"{carrier.id} is an opposing unit: only a friendly carrier may be entered",
            at,
            "MSW-D38",
        )
    if capacity(carrier) <= 0 or carrier.aboard is not None:
        judgement.add(
            "action_not_allowed", f"{carrier.id} has no Carrier ability", at, f"{ENTER}, MSW-D45"
        )
    elif len(aboard(pos, carrier)) >= capacity(carrier):
        judgement.add(
            "capacity_exceeded",
            f"{carrier.id} is full: it carries {fmt(capacity(carrier))}",
            at,
            "MSW-D17",
        )
    if has_moved_this_phase(pos.state, carrier.id):
        judgement.add(
            "action_not_allowed",
            f"{carrier.id} has made a move action this phase: it cannot be entered",
            at,
            f"{ENTER}, MSW-D18",
        )
    return carrier


def moves_to_unload(priced: PricedTrack) -> bool:
    """Whether the carrier moves before it unloads, or stays (0 MP, MSW-D36)."""
    return priced.track.translates or priced.cost > 0


def check_unloading(
    pos: MswarsPosition, judgement: PathJudgement, unit: Unit, action: Action, priced: PricedTrack
) -> None:
    """Move up to half Move and unload one, or stay (0 MP) and unload two; infantry weigh
    half (MSW-D19, MSW-D36); units are placed after the move (MSW-D39)."""
    moving = moves_to_unload(priced)
    if not moving:
        judgement.allowance = 0.0
    at = unit.position
    held = {u.id for u in aboard(pos, unit)}
    orders = action.get("unload") or []
    if not has_units_aboard(pos, unit) or not orders:
        judgement.add(
            "action_not_allowed",
            f"{who(unit)} has no unit aboard to unload, or names none ({UNLOAD})",
            at,
            UNLOAD,
        )
    carrier = unit.moved(priced.end.xy, priced.end.facing)
    weight = 0.0
    placed: list[Unit] = []
    for order in orders:
        other = pos.state.unit(order["unit"])
        if other is None or other.id not in held:
            judgement.add(
                "unknown_unit" if other is None else "action_not_allowed",
                f"{order['unit']} is not aboard {unit.id}",
                at,
                UNLOAD,
            )
            continue
        weight += 0.5 if is_infantry(other) else 1.0  # "twice as much if infantry" (MSW-D19)
        out = set_down_from(carrier, other, order)
        problems = placement_at_rear(pos, carrier, out, placed)
        if problems:
            judgement.add(
                "placement_invalid",
                f"{other.id} cannot be unloaded at "
                f"({fmt(out.position[0])}, {fmt(out.position[1])}): {'; '.join(problems)}",
                out.position,
                UNLOAD,
                AFTER,
            )
        placed.append(out)
    if weight > (1.0 if moving else 2.0) + 1e-9:
        judgement.add(
            "capacity_exceeded",
            f"{who(unit)} can unload "
            + (
                "one unit (or two infantry) while moving"
                if moving
                else "two units (or four infantry) without moving"
            ),
            at,
            f"{UNLOAD}, MSW-D19",
        )


def set_down_from(carrier: Unit, other: Unit, order: Any) -> Unit:
    """A unit unloaded where its order places it, facing away from the carrier unless the
    order says otherwise."""
    return replace(other, aboard=None).moved(
        tuple(order["position"][:2]), float(order.get("facing", carrier.facing + 180))
    )


def unloaded(pos: MswarsPosition, carrier: Unit, action: Action) -> list[Unit]:
    """The units a legal Carrier Unloading sets down from the carrier where it ends."""
    return [
        set_down_from(carrier, pos.state.units_by_id[o["unit"]], o)
        for o in action.get("unload") or []
    ]


def check_exit(
    pos: MswarsPosition, judgement: PathJudgement, unit: Unit, carrier: Unit | None
) -> None:
    """Unit Exiting needs a unit aboard a carrier that has made no move action this phase
    (002 Unit Exiting Action, MSW-D45)."""
    if carrier is None:
        judgement.add(
            "action_not_allowed",
            f"{who(unit)} is not aboard a carrier: nothing to exit",
            unit.position,
            "MSW-D45",
        )
    elif has_moved_this_phase(pos.state, carrier.id):
        judgement.add(
            "action_not_allowed",
            f"{carrier.id} has made a move action this phase: no unit may exit it",
            carrier.position,
            EXIT,
        )


def set_down(pos: MswarsPosition, unit: Unit, action: Action) -> tuple[Unit, Action, Pose | None]:
    """A unit exiting as it is placed at its carrier's rear (`placement`, else the first
    path point facing away, MSW-D35), the rest of its move (up to half Move from there),
    and its placement (None where the action gives none)."""
    carrier = pos.state.unit(unit.aboard) if unit.aboard is not None else None
    path = list(action.path)
    placement = action.get("placement")
    start: Pose | None = None
    if carrier is not None and isinstance(placement, dict):
        x, y = placement["position"][:2]
        start = Pose(float(x), float(y), float(placement.get("facing", carrier.facing + 180)))
    elif carrier is not None and path and isinstance(path[0], Waypoint):
        first = path.pop(0)
        assert isinstance(first, Waypoint)
        start = Pose(first.x, first.y, (carrier.facing + 180.0) % 360.0)
    out = replace(unit, aboard=None).moved(
        start.xy if start else unit.position, start.facing if start else unit.facing
    )
    return out, replace(action, path=tuple(path)), start


def check_exited(pos: MswarsPosition, judgement: PathJudgement, unit: Unit, action: Action) -> None:
    """The carrier lets the unit out, and its placement is at the carrier's rear."""
    carrier = pos.state.unit(unit.aboard) if unit.aboard is not None else None
    check_exit(pos, judgement, unit, carrier)
    if carrier is None:
        return
    out, _, start = set_down(pos, unit, action)
    problems = ["no placement given"] if start is None else placement_at_rear(pos, carrier, out, [])
    if problems:
        judgement.add(
            "placement_invalid",
            f"{who(unit)} cannot be placed at {carrier.id}'s rear: {'; '.join(problems)}",
            out.position,
            f"{EXIT}, MSW-D35",
        )
