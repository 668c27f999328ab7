"""Per-position data for aod, built once per immutable GameState and cached on it."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import shapely
from shapely.geometry.base import BaseGeometry

from rules.engine.model import GameState, Terrain, Unit
from rules.geometry.bases import Body, body_at
from rules.geometry.index import FeatureIndex
from rules.geometry.tolerance import CONTACT
from rules.systems.aod.options import AodOptions, parse_options


@dataclass(frozen=True)
class Ctx:
    state: GameState

    @cached_property
    def options(self) -> AodOptions:
        return parse_options(self.state.table.options)

    @cached_property
    def terrain(self) -> FeatureIndex[Terrain]:
        ts = self.state.terrain
        return FeatureIndex(ts, [t.shape for t in ts], [t.type for t in ts])

    @cached_property
    def bodies(self) -> dict[str, Body]:
        return {u.id: body_at(u.base, *u.position, u.facing) for u in self.on_table}

    @cached_property
    def on_table(self) -> tuple[Unit, ...]:
        return tuple(u for u in self.state.units if u.aboard is None)

    @cached_property
    def units(self) -> FeatureIndex[Unit]:
        us = self.on_table
        boxes = [shapely.box(*self.bodies[u.id].bounds) for u in us]
        return FeatureIndex(us, boxes, [u.type for u in us])

    def touching(self, unit_id: str) -> list[Unit]:
        """Units in base contact (within 0.01") with `unit_id` where it stands."""
        cache: dict[str, list[Unit]] = self.__dict__.setdefault("_touching", {})
        if unit_id not in cache:
            body = self.bodies[unit_id]
            cache[unit_id] = [o for o, _, _ in self.units.near(body, CONTACT)
                              if o.id != unit_id
                              and body.distance(self.bodies[o.id]) <= CONTACT]
        return cache[unit_id]

    @cached_property
    def has_water(self) -> bool:
        return any(t.type in ("shallow_water", "deep_water") for t in self.state.terrain)

    def water_union(self, rows: tuple[str, ...]) -> BaseGeometry:
        """Where a unit whose row prohibits clear may be: the features it may enter
        (aquatic: the water polygons, AOD-D28)."""
        key = "|".join(rows)
        cache: dict[str, BaseGeometry] = self.__dict__.setdefault("_allowed", {})
        if key not in cache:
            polys = [t.shape for t in self.state.terrain
                     if self.options.cell(rows, t.type) not in ("block", "proh")]
            cache[key] = shapely.union_all(polys) if polys else shapely.Polygon()
        return cache[key]


def ctx_of(state: GameState) -> Ctx:
    return state.memo("aod.ctx", lambda: Ctx(state))
