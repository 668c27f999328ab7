"""Per-position data every system needs, built once per immutable GameState and cached.

The terrain and the units on the table as spatial indexes, each unit's body where it
stands, and base contact (within 0.01", contract "Units and frame"). A system that
needs more (its parsed table options, say) subclasses `Position` and caches it with
`GameState.memo`, so that previews of one position share the work.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeVar

import shapely

from rules.geometry.bases import Body, body_at
from rules.geometry.index import SCAN_LIMIT, FeatureIndex
from rules.geometry.tolerance import CONTACT
from rules.geometry.visibility import inflate
from rules.model.state import GameState, Terrain, Unit

View = TypeVar("View")
ThisPosition = TypeVar("ThisPosition", bound="Position")


@dataclass(frozen=True)
class Position:
    state: GameState

    @classmethod
    def of(cls: type[ThisPosition], state: GameState) -> ThisPosition:
        """The position of `state` as this class reads it, made once per state."""
        return state.memo(_memo_key(cls), lambda: cls(state))

    @cached_property
    def terrain(self) -> FeatureIndex[Terrain]:
        """The features' index, built once per map (GameState.map_memo)."""
        ts = self.state.terrain
        return self.state.map_memo(
            "engine.terrain_index",
            lambda: FeatureIndex(ts, [t.shape for t in ts], [t.type for t in ts]),
        )

    def grown(self, feature: Terrain, distance: float) -> Any:
        """A feature of this map grown by `distance` (`inflate`: an obstacle for a base's
        centre), built once per map and distance."""
        kept: dict[str, Any] = self.state.map_memo(f"engine.grown.{distance!r}", dict)
        found = kept.get(feature.id)
        if found is None:
            found = kept[feature.id] = inflate(feature.shape, distance)
        return found

    @cached_property
    def bodies(self) -> dict[str, Body]:
        return {u.id: body_at(u.base, *u.position, u.facing) for u in self.on_table}

    @cached_property
    def on_table(self) -> tuple[Unit, ...]:
        return tuple(u for u in self.state.units if u.aboard is None)

    @cached_property
    def units(self) -> FeatureIndex[Unit]:
        """The units on the table by their bodies' bounding boxes. Up to the index's scan
        limit (150 units) nothing but the boxes' bounds is read: its answers are those of
        a FeatureIndex of the boxes, without the boxes made and prepared (the board's offers
        read a new position's index on every served move)."""
        us = self.on_table
        if len(us) > SCAN_LIMIT:
            boxes = [shapely.box(*self.bodies[u.id].bounds) for u in us]
            return FeatureIndex(us, boxes, [u.type for u in us])
        return FeatureIndex.of_bounds(us, [self.bodies[u.id] for u in us], [u.type for u in us])

    def touching(self, unit_id: str) -> list[Unit]:
        """Units in base contact (within 0.01") with `unit_id` where it stands."""
        cache: dict[str, list[Unit]] = self.__dict__.setdefault("_touching", {})
        if unit_id not in cache:
            body = self.bodies[unit_id]
            cache[unit_id] = [
                o
                for o, _, _ in self.units.near(body, CONTACT)
                if o.id != unit_id and body.distance(self.bodies[o.id]) <= CONTACT
            ]
        return cache[unit_id]

    def unit_view(
        self: ThisPosition, unit: Unit, make: Callable[[ThisPosition, Unit], View]
    ) -> View:
        """A system's per-unit view of this position (what each feature costs that unit),
        made once per unit (a unit moved out of its carrier is another unit: remade)."""
        cache: dict[str, Any] = self.__dict__.setdefault("_views", {})
        found = cache.get(unit.id)
        if found is None or found.unit is not unit:
            found = cache[unit.id] = make(self, unit)
        return found


def _memo_key(cls: type) -> str:
    """The key a Position class keeps its reading of a state under, made once a class."""
    key = cls.__dict__.get("_position_key")
    if key is None:
        key = f"position.{cls.__module__}.{cls.__qualname__}"
        type.__setattr__(cls, "_position_key", key)
    return str(key)
