"""The table, terrain, units and turn state: frozen dataclasses, never mutated.

A new position is a new GameState (`dataclasses.replace`). Derived data that is
expensive (shapely polygons, spatial indexes) is cached on the instance with
`functools.cached_property`, which is safe because the instance never changes; what
depends on the terrain alone is cached once per map (`GameState.map_memo`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, TypeVar, cast

from shapely.geometry import Polygon

from rules.model.map_geometry import MapGeometry

Point2 = tuple[float, float]
T = TypeVar("T")
#: What `GameState.memo` finds for a key it does not keep (None may be kept).
_MISSING: Any = object()


@dataclass(frozen=True)
class BaseShape:
    """A unit's base: a circle (diameter) or a rect (width across facing, length along)."""

    shape: str
    diameter: float = 0.0
    width: float = 0.0
    length: float = 0.0

    @property
    def is_circle(self) -> bool:
        return self.shape == "circle"

    @property
    def radius(self) -> float:
        """Circumradius: the farthest any point of the base lies from its centre."""
        if self.is_circle:
            return self.diameter / 2
        return math.hypot(self.width, self.length) / 2

    def to_json(self) -> dict[str, Any]:
        if self.is_circle:
            return {"shape": "circle", "diameter": self.diameter}
        return {"shape": "rect", "width": self.width, "length": self.length}


@dataclass(frozen=True)
class Unit:
    id: str
    side: str
    type: str
    move: float
    base: BaseShape
    position: Point2
    facing: float = 0.0
    z: float | None = None
    aboard: str | None = None
    #: System-specific keys exactly as given (flags, faction, capacity, ...).
    props: Mapping[str, Any] = field(default_factory=dict)
    #: False when the scenario gave no `move` (allowed where a system's notes say so,
    #: apskirmish APS-D36): `move` then reads 0 and is not written back.
    move_given: bool = True

    def get(self, key: str, default: Any = None) -> Any:
        return self.props.get(key, default)

    def flag(self, key: str) -> bool:
        return bool(self.props.get(key, False))

    @property
    def on_table(self) -> bool:
        return self.aboard is None

    def moved(self, position: Point2, facing: float) -> Unit:
        return replace(
            self, position=(float(position[0]), float(position[1])), facing=float(facing) % 360.0
        )

    def with_props(self, **changes: Any) -> Unit:
        props = dict(self.props)
        for k, v in changes.items():
            if v is None:
                props.pop(k, None)
            else:
                props[k] = v
        return replace(self, props=props)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "side": self.side, "type": self.type}
        if self.move_given:
            out["move"] = self.move
        out["base"] = self.base.to_json()
        pos: list[float] = [self.position[0], self.position[1]]
        if self.z is not None:
            pos.append(self.z)
        out["position"] = pos
        out["facing"] = self.facing
        if self.aboard is not None:
            out["aboard"] = self.aboard
        out.update(self.props)
        return out


@dataclass(frozen=True)
class Terrain:
    id: str
    type: str
    polygon: tuple[Point2, ...]
    height: float | None = None
    size_class: int | None = None
    access: tuple[tuple[Point2, Point2], ...] = ()
    props: Mapping[str, Any] = field(default_factory=dict)

    @cached_property
    def shape(self) -> Polygon:
        return Polygon(self.polygon)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "type": self.type,
            "polygon": [list(p) for p in self.polygon],
        }
        if self.height is not None:
            out["height"] = self.height
        if self.size_class is not None:
            out["size_class"] = self.size_class
        if self.access:
            out["access"] = [[list(a), list(b)] for a, b in self.access]
        out.update(self.props)
        return out


@dataclass(frozen=True)
class Table:
    width: float
    height: float
    options: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"width": self.width, "height": self.height, "options": dict(self.options)}


@dataclass(frozen=True)
class GameState:
    """A position: what is on the table plus the system's turn state (`state` in JSON)."""

    system: str
    table: Table
    terrain: tuple[Terrain, ...]
    units: tuple[Unit, ...]
    turn: Mapping[str, Any] = field(default_factory=dict)
    #: What is built from the terrain alone, shared by every position on the same map
    #: (rules/model/map_geometry.py); `replace` carries it to the positions that follow.
    geometry: MapGeometry | None = field(default=None, compare=False, repr=False)

    @cached_property
    def units_by_id(self) -> dict[str, Unit]:
        return {u.id: u for u in self.units}

    def memo(self, key: str, factory: Callable[[], T]) -> T:
        """Derived data cached on this (immutable) state, e.g. a system's spatial index."""
        store: dict[str, Any] | None = self.__dict__.get("_memo")
        if store is None:
            store = self.__dict__.setdefault("_memo", {})
        # Asked hundreds of times a position (the board's offers): one lookup when kept.
        found = store.get(key, _MISSING)
        if found is _MISSING:
            found = store[key] = factory()
        return cast(T, found)

    def map_memo(self, key: str, factory: Callable[[], T]) -> T:
        """Derived data of the terrain alone (a spatial index, grown obstacles), built
        once per map: positions that differ only in units and turn state share it."""
        geometry = self.geometry
        if geometry is None or geometry.terrain is not self.terrain:
            geometry = self.memo("engine.map", lambda: MapGeometry(self.terrain))
        return geometry.memo(key, factory)

    def unit(self, unit_id: str) -> Unit | None:
        return self.units_by_id.get(unit_id)

    @cached_property
    def _unit_index(self) -> dict[str, int]:
        return {u.id: i for i, u in enumerate(self.units)}

    def with_units(self, *changed: Unit) -> GameState:
        """A new state where the units with the same ids are replaced."""
        units = list(self.units)
        for u in changed:
            units[self._unit_index[u.id]] = u
        return replace(self, units=tuple(units))

    def with_turn(self, **changes: Any) -> GameState:
        turn = dict(self.turn)
        turn.update(changes)
        return replace(self, turn=turn)
