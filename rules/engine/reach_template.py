"""How the engine shades where a unit may end an action: the template every system's
reach follows (scenario-format.md, "Other commands": reach), as `Play.move` is the
template of the move itself.

The skeleton is one: may the unit take the action now (the judge's checks before any
path: a type the board does not offer has no reach), how far it may go, and the region
its centre may end in within that, each with a legal path. A system lists the types the
kernel shades (`shaded_types`) and overrides a hook only where its rules differ:

- `may_take_type`: the preconditions (System: its `may_take`, the board's offers);
- `reach_budget`: how far (default: the `allowance` hook);
- `unreached`: the answer where it may not go (default: the point it stands on);
- `reach_region`: the region and its paths. The default turns in place to face the
  point, then goes straight ahead (rules/engine/turn_reach.py), its question built by
  `straight_ahead` from these hooks:
  - `reach_features`: the terrain near the unit;
  - `reach_barriers`: where its centre may not go (default: features it may not enter);
  - `reach_rates`: features dearer and cheaper than open ground, with their costs;
  - `reach_part`: where a feature's own rate is paid, for those two (default: all of
    it; lasergrenadiers takes out the features that override it);
  - `reach_minimum`: what the action must cost at least (a run);
  - `reach_table`: the table's edge, crossed or only not ended beyond;
  - `reach_bases`: which bases it may cross (default: `base_policy`);
  - `steering`: what turning costs and where it goes without turning (default: the
    `terrain_rates`' `turn_cost` and `direction`);
  - `reach_confines`: what the action itself keeps the centre from, or from ending in
    (default: nothing; a unit on a top that may not leave it but by jumping off);
  - `may_turn_in_place`: whether it may turn where it stands (default: its base sweeps
    clear of every other base);
  - `reach_sweep`: half the segment along which its start may lie (default: none; a
    unit set down anywhere along a stretch of its carrier's rear searches from every
    start on it at once).

A system whose units go another way keeps the template and overrides `reach_region`
(apskirmish: one straight line measured front to front, 004 Standard Movement).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, ClassVar, Protocol

from shapely.geometry import Point

from rules.engine.allowance import Allowance
from rules.engine.bases_policy import BasePolicy
from rules.engine.move_in_play import MoveInPlay
from rules.engine.open_reach import MARGIN, base_barriers_by_unit
from rules.engine.pricing import TerrainRates
from rules.engine.reach import Reach
from rules.engine.turn_reach import (
    TurnThenStraight,
    axes_allowed,
    nowhere,
    table_barrier,
    turn_sweeps_clear,
    turn_then_straight_reach,
)
from rules.geometry.bases import Body
from rules.model.actions import Action
from rules.model.state import Terrain, Unit

#: Features near a unit, each with its shape.
Features = Sequence[tuple[Terrain, Any]]


class Steering(Protocol):
    """What turning in place costs a unit, and which ways it may go without turning."""

    def direction(self, facing: float, dx: float, dy: float) -> tuple[float, bool, str]: ...

    def turn_cost(self, angle: float, rate: float, free: float) -> float: ...


class ReachTemplate:
    """The reach template and its hooks (inherited by `Play`)."""

    #: The action types whose reach the kernel builds with this template
    #: (`shaded_reach`); others come from `reach_builders`, or are unshaded.
    shaded_types: ClassVar[frozenset[str]] = frozenset()
    base_policy: ClassVar[BasePolicy]
    #: Whether a rect base is kept from the bases by its start by its own shape rather
    #: than by the circle round it (`base_barriers_by_unit`'s `keeps_facing`): right
    #: where such a base may not turn there (`may_turn_in_place`), so only slides.
    rect_kept_by_its_shape: ClassVar[bool] = False

    # -- the template -------------------------------------------------------------
    def shaded_reach(self, position: Any, unit: Unit, action_type: str) -> Reach:
        """Where `unit` may end an action of `action_type`: nowhere when it may not take
        it or go anywhere, else the region its rules give within its budget."""
        budget = self.reach_budget(position, unit, action_type)
        if not self.may_take_type(position, unit, action_type):
            return self.unreached(unit, action_type, budget)
        found = self.reach_region(position, unit, action_type, budget)
        return self.unreached(unit, action_type, budget) if found is None else found

    def may_take_type(self, position: Any, unit: Unit, action_type: str) -> bool:
        """Hook: whether the unit may take `action_type` now (System: its `may_take`)."""
        return True

    def reach_budget(self, position: Any, unit: Unit, action_type: str) -> float:
        """Hook: how far the unit may go (default: the `allowance` hook's)."""
        return self.allowance(MoveInPlay.asked(position, unit, Action(unit.id, action_type))).value

    def unreached(self, unit: Unit, action_type: str, budget: float) -> Reach:
        """Hook: the reach of a unit that may go nowhere (the point it stands on)."""
        return nowhere(unit.id, action_type, unit.position, budget)

    def reach_region(
        self, position: Any, unit: Unit, action_type: str, budget: float
    ) -> Reach | None:
        """Hook: the region and its paths, None where the unit may go nowhere (default:
        turn in place to face the point, then straight ahead)."""
        spec = self.straight_ahead(position, unit, action_type, budget)
        return None if spec is None else turn_then_straight_reach(unit.id, action_type, spec)

    # -- turn in place, then straight ahead ---------------------------------------
    def straight_ahead(
        self,
        position: Any,
        unit: Unit,
        action_type: str,
        budget: float,
        ignore: frozenset[str] = frozenset(),
    ) -> TurnThenStraight | None:
        """The turn-then-straight question of a unit with `budget` to spend: None where
        it may not move from where it stands (`budget` spent, its centre on a barrier,
        off the table). `ignore`: bases it may run over (an overrun's target)."""
        if budget <= 0 or not self.may_leave(position, unit):
            return None
        sweep = self.reach_sweep(position, unit, action_type)
        grow = math.hypot(*sweep)
        far = budget + 2 * unit.base.radius + 2 + grow
        near = self.reach_features(position, unit, far)
        barriers = self.reach_barriers(position, unit, near)
        confined, kept_off = self.reach_confines(position, unit, action_type)
        table = self.reach_table(position, unit, action_type)
        # Every start along the sweep must be clear of a base: the bases grown by it too.
        by_unit = base_barriers_by_unit(
            position,
            unit,
            self.reach_bases(position, ignore),
            far,
            MARGIN + grow,
            keeps_facing=self.rect_kept_by_its_shape and not unit.base.is_circle,
        )
        blocking, end_only = [g for _, g in by_unit[0]], [g for _, g in by_unit[1]]
        swept = Body(None, unit.base.radius + grow, unit.position)
        if grow and any(position.bodies[i].distance(swept) <= MARGIN for i, _ in by_unit[0]):
            # A base this near is kept from the middle start only (`around_start`,
            # `kept_from`), not from every start along the sweep: not searched at once.
            return None
        start = Point(unit.position)
        if table is None or any(g.contains(start) for g in barriers + confined + blocking):
            return None
        crossing_table, ending_table = table
        dear, cheap = self.reach_rates(position, unit, near)
        steering, free = self.steering(position, unit), self.free_rotation(position, unit)
        open_ground = self.terrain_rates(position, unit).rate(None)
        return TurnThenStraight(
            start=unit.position,
            facing=unit.facing,
            budget=budget,
            base_rate=1.0 if open_ground is None else open_ground,
            turn_cost=lambda angle: steering.turn_cost(angle, 1.0, free),
            barriers=[*barriers, *confined, *crossing_table, *blocking],
            end_only=[*end_only, *kept_off, *ending_table],
            dear=dear,
            cheap=cheap,
            # Forward, backward, sideways as `direction` allows: no turn first.
            axes=axes_allowed(steering, unit.facing),
            minimum=self.reach_minimum(unit, action_type),
            # A rect base touching another (a carrier beside its troopers) may not turn
            # where it stands, but may still go straight off along its axes.
            may_turn=self.may_turn_in_place(position, unit, action_type, ignore),
            sweep=sweep,
        )

    def reach_minimum(self, unit: Unit, action_type: str) -> float | None:
        """Hook: what the action must cost at least (a run, more than a move), or None."""
        return None

    def may_leave(self, position: Any, unit: Unit) -> bool:
        """Hook: whether the unit may move at all from where it stands (default: its
        centre is not on ground it may not be on)."""
        return all(
            self.terrain_rates(position, unit).rate(t) is not None
            for t, shape in self.reach_features(position, unit, 0.0)
            if shape.covers(Point(unit.position))
        )

    def reach_features(self, position: Any, unit: Unit, far: float) -> Features:
        """Hook: the features within `far` of the unit's centre (a box about it)."""
        sx, sy = unit.position
        features = position.state.terrain
        return [
            (features[i], features[i].shape)
            for i in position.terrain.query_box(sx - far, sy - far, sx + far, sy + far)
        ]

    def reach_barriers(self, position: Any, unit: Unit, near: Features) -> list[Any]:
        """Hook: where the centre may not go (default: the features the unit may not
        enter, each where it governs (`reach_part`), grown by the margin)."""
        rates = self.terrain_rates(position, unit)
        parts = [self.reach_part(t, shape, near) for t, shape in near if rates.rate(t) is None]
        return [
            p.buffer(MARGIN, join_style="mitre", mitre_limit=3.0) for p in parts if not p.is_empty
        ]

    def reach_part(self, feature: Terrain, shape: Any, near: Features) -> Any:
        """Hook: where a feature's own rate is paid, for its barrier or dearer area
        (default: all of it; a system whose overlapping features override one another
        takes the overriders out)."""
        return shape

    def reach_rates(
        self, position: Any, unit: Unit, near: Features
    ) -> tuple[list[tuple[Any, float]], list[tuple[Any, float]]]:
        """Hook: the features dearer than open ground (grown by the margin) and cheaper
        (shrunk by it), each with its cost per inch (default: `terrain_rates`)."""
        rates = self.terrain_rates(position, unit)
        open_ground = rates.rate(None) or 1.0
        dear, cheap = [], []
        for t, shape in near:
            rate = rates.rate(t)
            if rate is None or rate == open_ground:
                continue
            if rate > open_ground:
                part = self.reach_part(t, shape, near)
                if not part.is_empty:
                    dear.append((part.buffer(MARGIN, join_style="mitre", mitre_limit=3.0), rate))
            else:
                inner = shape.buffer(-MARGIN, join_style="mitre", mitre_limit=3.0)
                if not inner.is_empty:
                    cheap.append((inner, rate))
        return dear, cheap

    def reach_table(
        self, position: Any, unit: Unit, action_type: str
    ) -> tuple[list[Any], list[Any]] | None:
        """Hook: (where beyond the table the centre may not go, where beyond it may pass
        but not end), or None where the unit stands off it (default: it stays on)."""
        barrier = table_barrier(position.state.table, unit, MARGIN)
        return None if barrier is None else ([barrier], [])

    def reach_bases(self, position: Any, ignore: frozenset[str]) -> BasePolicy:
        """Hook: which bases the unit may cross (`ignore`: those it may run over)."""
        return BasePolicy(ignore=ignore) if ignore else self.base_policy

    def steering(self, position: Any, unit: Unit) -> Steering:
        """Hook: what turning costs the unit and which ways it may go without turning
        (default: its `terrain_rates`; a turn is priced at the open-ground rate, so a
        system whose turns cost by the ground it stands on gives its own)."""
        return self.terrain_rates(position, unit)

    def reach_confines(
        self, position: Any, unit: Unit, action_type: str
    ) -> tuple[list[Any], list[Any]]:
        """Hook: (where this action keeps the centre from going, where from ending), beyond
        the terrain, the bases and the table (default: nowhere)."""
        return [], []

    def may_turn_in_place(
        self, position: Any, unit: Unit, action_type: str, ignore: frozenset[str]
    ) -> bool:
        """Hook: whether the unit may turn where it stands (default: its base sweeps clear
        of every other base but those in `ignore`, which it may run over)."""
        bodies = [
            position.bodies[o.id]
            for o in position.on_table
            if o.id != unit.id and o.id not in ignore
        ]
        return turn_sweeps_clear(unit, bodies, MARGIN)

    def reach_sweep(self, position: Any, unit: Unit, action_type: str) -> tuple[float, float]:
        """Hook: half the segment along which the unit's start may lie, the start in its
        middle (`TurnThenStraight.sweep`; default: none). The template grows the bases
        and the features it looks at by its length; a system that sweeps grows what its
        own hooks return (barriers, rates, the table) by it as well."""
        return (0.0, 0.0)

    # -- what the template reads of the move's hooks (Play) -----------------------
    def allowance(self, move: MoveInPlay) -> Allowance:
        raise NotImplementedError

    def terrain_rates(self, position: Any, unit: Unit) -> TerrainRates:
        raise NotImplementedError

    def free_rotation(self, position: Any, unit: Unit) -> float:
        raise NotImplementedError


__all__ = ["Features", "ReachTemplate", "Steering"]
