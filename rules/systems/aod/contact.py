"""Other units' bases (aod.md section 5): no passing through, no final overlap,
stop on contact with opposing bases."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.engine.model import Unit
from rules.engine.numbers import fmt
from rules.engine.verdict import Violation
from rules.geometry.bases import Body, body_at
from rules.geometry.contact import (
    Hit,
    first_overlap,
    first_retouch,
    first_touch,
    sweep_overlaps,
    sweep_touches,
)
from rules.geometry.tolerance import CONTACT, OVERLAP
from rules.geometry.track import Pose, Track
from rules.systems.aod.context import Ctx
from rules.systems.aod.units import is_cruising, is_infantry, is_mech, opposing


@dataclass(frozen=True)
class BaseRules:
    """How the mover treats other bases during this path."""

    cruising: bool = False
    #: The target of ram/charge/dfa/assault: its contact does not stop the path (AOD-D31).
    target: str | None = None
    #: Units that move with the mover (its captive) or are not on the table.
    ignore: frozenset[str] = frozenset()
    #: VTOL with a ranged attack, not in contact at the start (000 [FAQ22]).
    faq22: bool = False


def contacts(ctx: Ctx, unit: Unit, body: Body, ignore: Iterable[str] = ()) -> list[Unit]:
    """Units whose bases are within 0.01" of `body` (plain geometry, no rules)."""
    skip = set(ignore) | {unit.id}
    out = []
    for other, _, _ in ctx.units.near(body, CONTACT):
        if other.id in skip:
            continue
        if body.distance(ctx.bodies[other.id]) <= CONTACT:
            out.append(other)
    return out


def opposing_contacts(ctx: Ctx, unit: Unit, pose: Pose | None = None,
                      ignore: Iterable[str] = ()) -> list[Unit]:
    """Opposing units in base contact; a VTOL at cruising is never in base contact
    (000 [18]); captives are neither friend nor foe (001 [26])."""
    if is_cruising(unit):
        return []
    if pose is None and unit.on_table and ctx.state.unit(unit.id) is unit:
        touching = ctx.touching(unit.id)  # where it stands: cached per position
    else:
        p = pose or Pose(*unit.position, unit.facing)
        touching = contacts(ctx, unit, body_at(unit.base, p.x, p.y, p.facing))
    skip = set(ignore)
    return [o for o in touching
            if o.id not in skip and opposing(unit, o) and not is_cruising(o)]


def may_cross(mover: Unit, other: Unit, rules: BaseRules) -> bool:
    """'Mechs cross infantry bases (000 [17], AOD-D7); a cruising VTOL ignores units."""
    return rules.cruising or (is_mech(mover) and is_infantry(other))


def stops_for(mover: Unit, other: Unit, rules: BaseRules) -> bool:
    """Does first contact with `other` end the move (AOD-D6)?"""
    if rules.cruising or rules.faq22 or other.id == rules.target:
        return False
    if not opposing(mover, other) or is_cruising(other):
        return False
    return not (is_mech(mover) and is_infantry(other))


def check_bases(ctx: Ctx, mover: Unit, track: Track, final: Pose, rules: BaseRules,
                start_contacts: frozenset[str]
                ) -> tuple[list[tuple[float, Violation]], list[Unit]]:
    """Violations along the path, and the units the base touches where it ends."""
    out: list[tuple[float, Violation]] = []
    end_contacts: list[Unit] = []
    swept = track.swept()
    skip = rules.ignore | {mover.id}
    stop: tuple[Hit, Unit] | None = None
    final_shrunk = body_at(mover.base, final.x, final.y, final.facing, OVERLAP)
    final_body = body_at(mover.base, final.x, final.y, final.facing)
    for other, _, _ in ctx.units.near(swept, CONTACT * 2):
        if other.id in skip:
            continue
        ob = ctx.bodies[other.id]
        if final_body.distance(ob) <= CONTACT:
            end_contacts.append(other)
        if final_shrunk.distance(ob) < 0:
            out.append((track.length, Violation(
                "base_overlap", f"{mover.id} would end overlapping {other.id} at "
                f"({fmt(final.x)}, {fmt(final.y)}) (AOD-D8, AOD-D26)", final.xy, "AOD-D8")))
        touched: Hit | None = None
        if stops_for(mover, other, rules) and track.translates and sweep_touches(track, ob):
            touched = first_retouch(track, ob) if other.id in start_contacts \
                else first_touch(track, ob)
            if touched is not None and (stop is None or touched.s < stop[0].s):
                stop = (touched, other)
        # Going on into a base that stops the move is reported once, as the stop.
        if touched is None and not may_cross(mover, other, rules) \
                and sweep_overlaps(track, ob):
            hit = first_overlap(track, ob)
            if hit is not None and hit.tau < track.tau_end - 1e-9:
                out.append((hit.s, Violation(
                    "path_through_base", f"{mover.id} passes through the base of {other.id} at "
                    f"({fmt(hit.at[0])}, {fmt(hit.at[1])}) (AOD-D8)", hit.at, "AOD-D8")))
    if stop is not None:
        hit, other = stop
        if track.length > hit.s + CONTACT:
            out.append((hit.s, Violation(
                "path_through_base", f"{mover.id} must stop on contact with {other.id} at "
                f"({fmt(hit.at[0])}, {fmt(hit.at[1])}) but goes "
                f"{fmt(track.length - hit.s)}\" further (AOD-D6)", hit.at, "AOD-D6")))
    return out, end_contacts
