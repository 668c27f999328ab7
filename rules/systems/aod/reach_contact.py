"""Ends of the close combat orders: ram, charge, dfa and assault_full (aod.md 12).

Each moves under every rule of sections 4-6 and must end in base contact with its
`target` (`must_end_in_contact`); the target's base is the one contact that does not stop
the path early (AOD-D31). So an end is a centre whose base lies within 0.01" of a target's
(contact, section 4), reached by a legal path: the shaded area is, around each target the
unit may take, a band of centres whose gap to the target is 0.002" to 0.008", along the
stretches where a last leg straight at the target, from LEG outside the band, meets
nothing the open reach keeps the centre from (other bases, terrain, the table edge, the
water an aquatic unit keeps to) and starts where the open reach's graph gets within the
allowance less the leg. The end names its target (`Reach.keys_at`).

Targets left out (their ends are not shaded, a subset of the truth): a target in water
(the attacker must be in the same water, 000 [33]), either unit on abrupt elevated terrain
(no close combat across its edge, 000 [34]), and a rect target of a rect unit (the contact
band of two rects turned to each other is not computed here).
"""

from __future__ import annotations

from typing import Any

from rules.engine.contact_bands import contact_bands
from rules.engine.reach import Reach
from rules.model.state import Unit
from rules.systems.aod.elevation import abrupt_at
from rules.systems.aod.position import AodPosition
from rules.systems.aod.units import is_captive, is_cruising, is_infantry, opposing
from rules.systems.aod.water import water_at


def may_target(position: AodPosition, unit: Unit, other: Unit, action_type: str) -> bool:
    """Whether `other` is a target this order may end in contact with (001 [27-28],
    000 [18], 000 [33-34]), as far as the shaded ends go."""
    if other.id == unit.id or not other.on_table or other.aboard is not None:
        return False
    if is_captive(other) or not opposing(unit, other) or is_cruising(other):
        return False
    if action_type == "ram" and is_infantry(other):
        return False
    if water_at(position, *other.position) is not None:
        return False
    return abrupt_at(position, other) is None and abrupt_at(position, unit) is None


def contact_ends(
    position: AodPosition,
    unit: Unit,
    action_type: str,
    budget: float,
    hard: list[Any],
    by_unit: tuple[list[tuple[str, Any]], list[tuple[str, Any]]],
    elevated: list[Any],
    within: Any,
    only: str | None = None,
) -> Reach:
    """The reach of a close combat order: the contact bands of its possible targets; or,
    with `only`, the band of that one unit (a captor's captive 'Mech, 001 [27]). The
    last legs may not meet `hard` (terrain areas), the bases `by_unit` (those it may not
    cross, and those it may only not end on, each with its unit's id) or the `elevated`
    areas, and keep to the table and to `within` (an aquatic unit's water)."""

    def aims_at(other: Unit) -> bool:
        if only is not None:
            return other.id == only
        return may_target(position, unit, other, action_type)

    return contact_bands(
        position, unit, action_type, budget, hard + elevated, by_unit, within, aims_at
    )
