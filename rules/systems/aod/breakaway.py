"""Breakaway (000 BREAKAWAY [16-17], aod.md section 9; AOD-D5, AOD-D40, AOD-D41)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.engine.dice import Dice
from rules.engine.verdict import Roll
from rules.model.state import Unit
from rules.systems.aod.contact import opposing_contacts
from rules.systems.aod.position import AodPosition
from rules.systems.aod.units import (
    infantry_mode,
    is_cruising,
    is_infantry,
    is_mech,
    is_salvage,
    is_vehicle,
)


@dataclass(frozen=True)
class Breakaway:
    needed: int | None  # None: automatic (no roll)
    contacts: tuple[Unit, ...]


def breakaway_needed(
    position: AodPosition, unit: Unit, ignore: frozenset[str] = frozenset()
) -> Breakaway | None:
    """None when no breakaway applies (no opposing contact at the start)."""
    if is_cruising(unit):
        return None  # never in base contact (000 [18])
    cs = tuple(opposing_contacts(position, unit, ignore=ignore))
    if not cs:
        return None
    if all(_automatic(unit, c) for c in cs):
        return Breakaway(None, cs)  # automatic (000 [16-17])
    if (is_vehicle(unit) or unit.type in ("mech", "quad_mech")) and any(
        c.flag("grapple")
        and [o.id for o in opposing_contacts(position, c, ignore=ignore)] == [unit.id]
        for c in cs
    ):
        return Breakaway(5, cs)  # grappled ([SEC])
    if (
        unit.type == "colossal_mech"
        or unit.type == "hover"
        or (is_infantry(unit) and infantry_mode(unit) == "hover")
        or unit.flag("evade")
        or unit.flag("jump_jets")
    ):
        return Breakaway(2, cs)  # Colossal, Evade, Hover, Jump Jets (000 [17])
    return Breakaway(3 if is_mech(unit) else 4, cs)  # 'Mech; Infantry, Vehicle (000 [16])


def _automatic(mover: Unit, c: Unit) -> bool:
    if is_mech(c) and c.flag("shutdown"):
        return True
    if is_salvage(c):
        return True
    return mover.type in ("quad_mech", "colossal_mech") and is_infantry(c)


def roll(b: Breakaway, dice: Dice) -> Roll | None:
    """The breakaway d6; pending in a preview, which never rolls (AOD-D23: a failure
    spends the order, so a previewed roll could be retried until it succeeds)."""
    if b.needed is None:
        return None
    # What the player reads before the drop, in words (000 [16], AOD-D23).
    return dice.test(
        "breakaway",
        6,
        b.needed,
        decides=f"on {b.needed}-6 the unit breaks away and moves; otherwise it "
        "stays and its order is spent",
    )


def push_damage(unit: Unit, b: Breakaway) -> list[dict[str, Any]]:
    """Non-Quad 'Mechs push opposing infantry; Colossals also vehicles (000 [17], [CCURoW])."""
    if unit.type not in ("mech", "colossal_mech"):
        return []
    return [
        {"type": "push_damage", "unit": c.id, "by": unit.id, "damage": 1}
        for c in b.contacts
        if is_infantry(c) or (unit.type == "colossal_mech" and is_vehicle(c))
    ]
