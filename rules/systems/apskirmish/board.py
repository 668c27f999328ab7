"""The position as this system reads it: obstacles and rough ground, its table options,
and which bases a soldier may pass (004 Base Blocking), cached per GameState."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from rules.engine.bases_policy import BasePolicy
from rules.engine.numbers import LENGTH_TOL
from rules.engine.position import Position
from rules.geometry.bases import body_at
from rules.model.state import Terrain, Unit
from rules.systems.apskirmish.rolls import parse_options
from rules.systems.apskirmish.tables import TRAVERSE_REACH


class FriendsPass(BasePolicy):
    """A line of movement may pass through friendly bases, never an enemy's; the final
    base may overlap none (004 Base Blocking)."""

    through_cite = "004 Base Blocking"
    overlap_cite = "004 Base Blocking"

    def may_cross(self, mover: Unit, other: Unit) -> bool:
        return other.side == mover.side


@dataclass(frozen=True)
class ApsPosition(Position):
    @cached_property
    def tests(self) -> str:
        """How a test is resolved: "d10" or "gm" (table option `tests`, APS-D1)."""
        return parse_options(self.state.table.options)

    @cached_property
    def obstacles(self) -> tuple[Terrain, ...]:
        return tuple(t for t in self.state.terrain if t.type == "obstacle")

    @cached_property
    def rough(self) -> tuple[Terrain, ...]:
        return tuple(t for t in self.state.terrain if t.type == "rough")

    def obstacle_shapes(self) -> list[tuple[str, Any]]:
        return [(t.id, t.shape) for t in self.obstacles]

    def within_traverse_reach(self, unit: Unit) -> list[Terrain]:
        """The obstacles within 1" of the soldier's base, edge to edge, inclusive (APS-D6):
        the one a Traverse meets first must be one of them."""
        here = body_at(unit.base, *unit.position, unit.facing)
        return [t for t in self.obstacles if here.distance(t.shape) <= TRAVERSE_REACH + LENGTH_TOL]
