"""Reach for `move`, `enter_board` and `overrun` on the ground plane: the kernel's
template (rules/engine/reach_template.py: turn in place to face the point, the turn band
paid, then straight ahead), with what is this system's own: the allowance left this turn
within the transport inequalities (lasergrenadiers.md 2, 9), terrain at most its dearest
multiplier (a slope as if uphill, LG-D5) where no overriding feature lies (LG-D25), an
entry from the table edge, and an overrun's ends beyond its target."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import shapely
from shapely.geometry import Point, box

from rules.engine.numbers import LENGTH_TOL
from rules.engine.open_reach import MARGIN, union_reach
from rules.engine.play import Play, TableRates
from rules.engine.reach import Reach
from rules.engine.reach_template import Features
from rules.engine.turn_reach import shadow, turn_then_straight_reach
from rules.model.state import Terrain, Unit
from rules.systems.lasergrenadiers.accounting import left_to_spend, transfers
from rules.systems.lasergrenadiers.moves import entry_probe, overrun_targets
from rules.systems.lasergrenadiers.path import LgBases
from rules.systems.lasergrenadiers.pieces import allowance_of, altitude_limit, damage_level
from rules.systems.lasergrenadiers.tables import OVERRIDES
from rules.systems.lasergrenadiers.terrain import LgPosition, UnitTerrain


class LgReach(Play):
    """The template's hooks where LaserGrenadiers' rules differ."""

    shaded_types = frozenset({"move", "enter_board", "overrun"})

    def reach_budget(self, position: LgPosition, unit: Unit, action_type: str) -> float:
        """What is left, within the transport inequalities and damaged transports
        (003 Transport 6)."""
        state = position.state
        budget = left_to_spend(state, unit) - LENGTH_TOL
        if any(e.get("vehicle") == unit.id for e in transfers(state)):
            level = damage_level(unit)
            if level == 2:
                return 0.0
            if level == 1:
                budget = min(budget, unit.move / 3 - state.turn.get("moved", {}).get(unit.id, 0))
        return max(budget, 0.0)

    def may_leave(self, position: LgPosition, unit: Unit) -> bool:
        """Not from terrain it may not be in, nor from above its altitude limit."""
        limit = altitude_limit(unit)
        return position.view(unit).rate_at(*unit.position)[0] is not None and (
            limit is None or (unit.z or 0.0) <= limit + LENGTH_TOL
        )

    def reach_region(
        self, position: LgPosition, unit: Unit, action_type: str, budget: float
    ) -> Reach | None:
        if budget <= 0 or not self.may_leave(position, unit):
            return None
        if action_type == "enter_board":
            return _enter_board(self, position, unit, budget)
        if action_type == "overrun":
            return _overrun(self, position, unit, budget)
        return super().reach_region(position, unit, action_type, budget)

    def terrain_rates(self, position: LgPosition, unit: Unit) -> WorstRates:
        """What the reach pays in each feature: its dearest multiplier whatever the
        heading (a slope as if uphill, LG-D5); a road or bridge is cheaper (003 Terrain
        7-8, LG-D32)."""
        return WorstRates(self, position.view(unit))

    def reach_part(self, feature: Terrain, shape: Any, near: Features) -> Any:
        """A feature counts only where no feature that overrides it lies (a road over
        soft ground or a slope, a bridge or ford over a river, LG-D25; every overrider
        is open to every piece): there the overrider's rate is paid. Less the overriders
        themselves, not shrunk: the margin the rest is grown by keeps the centre off the
        boundary where the two meet side by side."""
        over = [s for o, s in near if feature.type in OVERRIDES.get(o.type, frozenset())]
        return shape.difference(shapely.union_all(over)) if over else shape

    def reach_table(
        self, position: LgPosition, unit: Unit, action_type: str
    ) -> tuple[list[Any], list[Any]] | None:
        """An entry from the table edge (003 Off-board movement) must end wholly on: the
        table beyond the edge may be crossed, not ended in."""
        if action_type == "enter_board" and (unit.z or 0.0) <= LENGTH_TOL:
            return [], [_beyond_table(position, unit)]
        return super().reach_table(position, unit, action_type)

    def reach_bases(self, position: LgPosition, ignore: frozenset[str]) -> LgBases:
        return LgBases(ignore=ignore, pass_friendly=position.options.pass_friendly_bases)

    def steering(self, position: LgPosition, unit: Unit) -> UnitTerrain:
        return position.view(unit)


class WorstRates(TableRates):
    """Each feature at its dearest multiplier whatever the heading, for the reach."""

    def __init__(self, play: Play, view: UnitTerrain) -> None:
        super().__init__(play, view.unit)
        self.view = view

    def rate(self, feature: Terrain | None) -> float | None:
        level, up = (1.0, 1.0) if feature is None else _level_and_uphill(self.view, feature)
        return None if level is None or up is None else 1.0 / min(level, up)


def _beyond_table(pos: LgPosition, unit: Unit) -> Any:
    """Where a base of this piece is not wholly on the table (with the margin)."""
    table = pos.state.table
    r = unit.base.radius + MARGIN
    big = box(-1e3, -1e3, table.width + 1e3, table.height + 1e3)
    return big.difference(box(r, r, table.width - r, table.height - r))


def _enter_board(play: LgReach, pos: LgPosition, unit: Unit, budget: float) -> Reach | None:
    """003 Off-board movement, 003 Leaving the board: from its entry point on the edge the
    piece moves as for `move` (a turn there, then straight), coming wholly onto the
    table; the entry point must be one it may use (its side's entry area). A lander
    above the table moves from there: a path point without a height keeps the one before
    it, so the piece may fly level from where it starts, as a move; a descent is dearer
    (its 3-D length, LG-D16) and ends over a point of the same area (003 Assault
    landings 4a)."""
    # The probe the board's offers ran for this position (`may_take_type`), not run again.
    if {r.code for r in entry_probe(pos, unit).reasons} - {"off_table"}:
        return None
    spec = play.straight_ahead(pos, unit, "enter_board", budget)
    return None if spec is None else turn_then_straight_reach(unit.id, "enter_board", spec)


def _overrun(play: LgReach, pos: LgPosition, unit: Unit, budget: float) -> Reach | None:
    """003 Overrun attacks: straight into and over a target (after a turn), ending beyond
    it, its base crossed at 3x the cost per inch of the terrain it stands on (LG-D9). Each
    target's ends: the reach with its base crossable and the budget less 3x the longest
    line across it at the dearest rate there (a conservative bound), behind it as seen
    from the start, off its base (and off its grown base for one in a foxhole, who may
    survive, 003 Overrun 5); `keys_at` names it."""

    view = pos.view(unit)
    ends: list[Reach] = []
    sx, sy = unit.position
    for target in overrun_targets(pos, unit):
        if math.dist((sx, sy), target.position[:2]) > budget + 2 * target.base.radius:
            continue
        body = pos.bodies[target.id].polygon()
        worst, best = _multipliers_at(view, target)
        across = 2 * target.base.radius
        # Straight ahead only (factor 1): the line over the target costs at most 3x its
        # dearest rate there, less what the reach already charged for it (at least the
        # cheapest rate under the base).
        extra = across * max(0.0, 3.0 / worst - _cheapest_under(view, pos, body))
        spec = play.straight_ahead(
            pos, unit, "overrun", budget - extra - 0.01, ignore=frozenset({target.id})
        )
        if spec is None or spec.budget <= 0:
            continue
        spec = replace(spec, axes=[a for a in spec.axes if a[0] == 0.0])
        found = turn_then_straight_reach(unit.id, "overrun", spec)
        into = body.buffer(-0.01)
        if into.is_empty or body.covers(Point(sx, sy)):
            continue
        area = found.area.intersection(shadow((sx, sy), into)).difference(body.buffer(0.002))
        if target.flag("foxhole"):
            # 003 Overrun 5: it is eliminated only by >= 2/3 of A spent over its base; else
            # it survives and the attacker may not end on it. A line crossing a circle's
            # base within d of its centre has a chord of 2 sqrt(r^2 - d^2).
            grown_body = body.buffer(unit.base.radius + MARGIN)
            need = 2 / 3 * allowance_of(unit) + 0.01
            chord = need * best / 3.0
            r_t = target.base.radius
            if target.base.is_circle and chord < 2 * r_t:
                kills = shadow(
                    (sx, sy),
                    Point(target.position[:2]).buffer(
                        math.sqrt(r_t * r_t - chord * chord / 4) - 0.01, quad_segs=16
                    ),
                )
                area = area.difference(grown_body.difference(kills))
            else:
                area = area.difference(grown_body)
        if not area.is_empty and area.area > 1e-9:
            ends.append(_ends(found, area, budget, {"target": target.id}))
    if len(ends) != 1:
        return union_reach(ends) if ends else None
    # A single part's area normalised, as the union of several is.
    return replace(ends[0], area=shapely.union_all([ends[0].area]))


def _ends(found: Reach, area: Any, budget: float, keys: dict[str, Any]) -> Reach:
    """`found` kept to `area` (an end rounded a hair off it still counts), naming `keys`."""

    def path_to(p: tuple[float, float]) -> list[Any] | None:
        return found.path_to(p) if area.dwithin(Point(p), 0.002) else None

    return Reach(found.unit_id, "overrun", area, budget, path_to, None, lambda p: keys)


def _multipliers_at(view: UnitTerrain, target: Unit) -> tuple[float, float]:
    """The lowest and highest multiplier of the terrain the target stands on, whatever the
    heading (a slope up or down; LG-D9: the attacker's rate there, road rate usable)."""
    feature = view.feature_at(*target.position[:2])
    level, up = (1.0, 1.0) if feature is None else _level_and_uphill(view, feature)
    level, up = level or 1.0, up or 1.0
    return min(level, up), max(level, up)


def _cheapest_under(view: UnitTerrain, pos: LgPosition, body: Any) -> float:
    """A lower bound on the cost per inch anywhere under `body`: the cheapest of the
    features that reach into it, and firm ground where none covers it."""
    minx, miny, maxx, maxy = body.bounds
    near = pos.near(minx, miny, maxx, maxy)
    rates, covered = [], []
    for t, shape in near:
        if not shape.intersects(body):
            continue
        m = view.multiplier(t, None)
        if m is None:
            continue
        rates.append(1.0 / m)  # on the level: a slope not uphill
        covered.append(shape)
    if not covered or not body.difference(shapely.union_all(covered)).is_empty:
        rates.append(1.0)
    return min(rates)


def _level_and_uphill(view: UnitTerrain, t: Terrain) -> tuple[float | None, float | None]:
    """A feature's multiplier on the level and going uphill (the same but on a slope,
    LG-D5)."""
    level = view.multiplier(t, None)
    if t.type == "slope" and isinstance(t.props.get("uphill"), int | float):
        return level, view.multiplier(t, float(t.props["uphill"]))
    return level, level
