"""Which abrupt elevated feature a unit stands on (close combat across an abrupt
edge is not allowed, 000 [34])."""

from __future__ import annotations

from rules.model.state import Unit
from rules.systems.aod.context import Ctx


def abrupt_at(ctx: Ctx, u: Unit) -> str | None:
    found = ctx.occupied(*u.position, ("abrupt_elevated",))
    return found[0].id if found else None


def across_abrupt_edge(ctx: Ctx, a: Unit, b: Unit) -> bool:
    return abrupt_at(ctx, a) != abrupt_at(ctx, b)
