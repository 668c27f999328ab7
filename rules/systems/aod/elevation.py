"""Which abrupt elevated feature a unit stands on (close combat across an abrupt
edge is not allowed, 000 [34])."""

from __future__ import annotations

from rules.model.state import Unit
from rules.systems.aod.position import AodPosition


def abrupt_at(position: AodPosition, u: Unit) -> str | None:
    found = position.occupied(*u.position, ("abrupt_elevated",))
    return found[0].id if found else None


def across_abrupt_edge(position: AodPosition, a: Unit, b: Unit) -> bool:
    return abrupt_at(position, a) != abrupt_at(position, b)
