"""Reach for aod: a conservative area where a unit's centre can end this order.

aod says what the unit may not touch (its matrix row, 6.1: blocking, prohibited,
hindering it would have to stop at, elevated terrain it would have to stop on) and
which bases it may cross (section 5); the kernel's open reach does the rest.
"""

from __future__ import annotations

from typing import Any

from rules.engine.model import GameState
from rules.engine.open_reach import MARGIN, base_obstacles, horizon, open_reach
from rules.engine.reach import Reach, memoised_reach, unshaded
from rules.geometry.bases import body_at
from rules.geometry.tolerance import CONTACT
from rules.geometry.track import Pose, Track
from rules.geometry.visibility import inflate
from rules.systems.aod.contact import AodBases
from rules.systems.aod.context import Ctx, ctx_of
from rules.systems.aod.movement import halve_for_hindering
from rules.systems.aod.moves import base_allowance
from rules.systems.aod.orders import captive_of
from rules.systems.aod.units import is_cruising, matrix_row

#: The orders whose end the area shades: a move that may end anywhere it can reach. The
#: others end in contact with a target (ram, charge, dfa, assault_full), take passengers
#: (board, disembark) or move several pieces (formation_move): not shaded (`unshaded`).
SHADED = frozenset({"move", "run", "assault_half"})


def reach(state: GameState, unit_id: str, action_type: str = "move") -> Reach:
    if action_type not in SHADED or captive_of(state, unit_id) is not None:
        # A captor moves at the slower speed and keeps or places its captive (001 [27]):
        # where it may end depends on the captive's placement, not shaded.
        return unshaded(unit_id, action_type)
    return memoised_reach(state, "aod", unit_id, action_type,
                          lambda _unit: _reach(state, unit_id, action_type))


def _reach(state: GameState, unit_id: str, action_type: str) -> Reach:
    ctx = ctx_of(state)
    unit = state.units_by_id[unit_id]
    rows = (matrix_row(unit),)
    still = Track(unit.base, Pose(*unit.position, unit.facing), ())
    budget = halve_for_hindering(ctx, rows, [still],
                                 base_allowance(ctx, unit, action_type)).value
    cruising = is_cruising(unit)  # ignores terrain and crosses every base (000 [18])
    obstacles = [] if cruising else _terrain_obstacles(ctx, unit_id, rows, budget)
    # Bases the unit may cross ('Mechs over infantry, a cruising VTOL over anything,
    # 000 [17-18]) only keep it from ending on them (AOD-D7, AOD-D26).
    blocking, end_only = base_obstacles(ctx, unit, AodBases(cruising=cruising), budget)
    within = None
    if ctx.options.cell(rows, "clear") == "proh" and not cruising:
        within = ctx.water_union(rows).buffer(-(unit.base.radius + MARGIN))  # AOD-D28
    return open_reach(ctx, unit, action_type, budget, obstacles + blocking, end_only, within)


def _terrain_obstacles(ctx: Ctx, unit_id: str, rows: tuple[str, ...],
                       budget: float) -> list[Any]:
    unit = ctx.state.units_by_id[unit_id]
    r = unit.base.radius
    body = body_at(unit.base, *unit.position, unit.facing)
    sx, sy = unit.position
    far = horizon(unit, budget)
    out: list[Any] = []
    for i in ctx.terrain.query_box(sx - far, sy - far, sx + far, sy + far):
        t = ctx.state.terrain[i]
        cell = ctx.options.cell(rows, t.type)
        if cell in ("ok", "ign"):
            continue
        if cell == "hind" and body.distance(t.shape) <= CONTACT:
            continue  # already touching: moving inside it is free (half speed applies)
        if cell == "elev":
            # Only the centre matters for elevated terrain; stay out of it entirely.
            out.append(inflate(t.shape, 0.01))
            continue
        out.append(inflate(t.shape, r + MARGIN))
    return out
