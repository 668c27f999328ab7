"""Which abrupt elevated feature a unit stands on (close combat across an abrupt
edge is not allowed, 000 [34])."""

from __future__ import annotations

from rules.geometry.occupancy import occupies
from rules.model.state import Unit
from rules.systems.aod.context import Ctx


def abrupt_at(ctx: Ctx, u: Unit) -> str | None:
    x, y = u.position
    for i in ctx.terrain.query_box(x - 0.01, y - 0.01, x + 0.01, y + 0.01):
        t = ctx.state.terrain[i]
        if t.type == "abrupt_elevated" and occupies(t.shape, x, y):
            return t.id
    return None


def across_abrupt_edge(ctx: Ctx, a: Unit, b: Unit) -> bool:
    return abrupt_at(ctx, a) != abrupt_at(ctx, b)
