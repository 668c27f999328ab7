"""How one piece sees the terrain: its multiplier in each feature, which feature governs
where several overlap, direction factors and turning; the kernel's Pricing hooks
(lasergrenadiers.md 4-6)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

from shapely.geometry import Point

from rules.engine.position import Position
from rules.engine.pricing import box_of, within_box
from rules.geometry.direction import (
    BACKWARD,
    DIAGONAL,
    FORWARD,
    SIDEWAYS,
    angle_between,
    bearing,
    travel_direction,
)
from rules.geometry.governed_intervals import governed_feature_at, governed_intervals
from rules.model.state import Point2, Terrain, Unit
from rules.systems.lasergrenadiers.options import Options, parse_options
from rules.systems.lasergrenadiers.pieces import column_of, is_vehicle, turn_cost
from rules.systems.lasergrenadiers.tables import (
    CLIMBABLE,
    CREW_WEAPON,
    CREW_WEAPON_PROHIBITED,
    FACTORS,
    MULTIPLIERS,
    OVERRIDES,
    VEHICLE_ACCESS,
    WATER,
)


class LgPosition(Position):
    """The kernel's position data plus the table options."""

    @cached_property
    def options(self) -> Options:
        return parse_options(self.state.table.options)

    def view(self, unit: Unit) -> UnitTerrain:
        return self.unit_view(unit, UnitTerrain)

    def near(self, minx: float, miny: float, maxx: float, maxy: float) -> list[tuple[Terrain, Any]]:
        ts = self.state.terrain
        return [(ts[i], ts[i].shape) for i in self.terrain.query_box(minx, miny, maxx, maxy)]

    @cached_property
    def has_climbable(self) -> bool:
        return any(t.type in CLIMBABLE for t in self.state.terrain)

    def climbable_at(self, xy: Point2) -> list[Terrain]:
        """Buildings, stairs and ladders whose polygon holds the point (LG-D22, LG-D36)."""
        if not self.has_climbable:
            return []
        p = Point(xy)
        return [
            t
            for t, shape in self.near(xy[0], xy[1], xy[0], xy[1])
            if t.type in CLIMBABLE and shape.covers(p)
        ]


def uphill(feature: Terrain, heading: float | None) -> bool:
    """A segment on a slope is uphill when its bearing is within < 90 degrees of the
    slope's `uphill` bearing (LG-D5); a vertical segment has no bearing."""
    up = feature.props.get("uphill")
    if heading is None or isinstance(up, bool) or not isinstance(up, int | float):
        return False
    return angle_between(heading, float(up)) < 90.0 - 1e-9


class UnitTerrain:
    """The terrain as one piece sees it, and the kernel's Pricing hooks for its path."""

    def __init__(
        self,
        position: LgPosition,
        unit: Unit,
        scope: list[tuple[Terrain, Any, tuple[float, ...]]] | None = None,
    ) -> None:
        self.position = position
        self.unit = unit
        self.column = column_of(unit)
        self.options = position.options
        #: The features near one whole path (looked up once), with their bounds.
        self.scope = scope

    def scoped(self, points: Sequence[Point2]) -> UnitTerrain:
        """The same view for one path: the features near it are looked up once."""
        near = self.position.near(*box_of(points))
        return UnitTerrain(
            self.position, self.unit, [(t, shape, shape.bounds) for t, shape in near]
        )

    # -- multipliers ---------------------------------------------------------------
    def multiplier(self, t: Terrain | None, heading: float | None = None) -> float | None:
        """m for this piece in the feature (None: prohibited) (lasergrenadiers.md 6)."""
        if t is None:
            return 1.0
        kind = t.type
        if kind == "slope" and uphill(t, heading):
            kind = "slope_uphill"
        elif kind == "road" and t.props.get("wet") is True:
            kind = "soft"  # "treat unpaved roads as soft ground" (003 Terrain 7)
        elif kind == "dense_vegetation" and self.options.dense_vegetation == "vegetation":
            kind = "vegetation"  # LG-D18
        if t.type in CREW_WEAPON_PROHIBITED and self.unit.type == CREW_WEAPON:
            return None  # LG-D21
        if (
            t.type in VEHICLE_ACCESS
            and is_vehicle(self.unit)
            and t.props.get("vehicle_access") is not True
        ):
            return None  # LG-D20
        if t.type == "building" and t.props.get("rubble") is True:
            return self.options.rubble_multiplier  # LG-D20
        m = MULTIPLIERS[kind][self.column]
        if m is None and t.type in WATER and self.unit.flag("amphibious"):
            return 0.5  # LG-D8
        return m

    def govern(self, heading: float | None) -> Any:
        """LG-D25: bridge and ford override river and lake, road and bridge override soft,
        slope and vegetation; of the rest the lowest multiplier (X lowest); no stacking."""

        def choose(features: Sequence[Terrain]) -> Terrain | None:
            overridden = set().union(*(OVERRIDES.get(t.type, frozenset()) for t in features))
            left = [t for t in features if t.type not in overridden] or list(features)
            return min(left, key=lambda t: _rank(self.multiplier(t, heading)))

        return choose

    def name(self, t: Terrain | None) -> str:
        if t is None:
            return "open ground"
        label = t.type.replace("_", " ")
        return f"{t.id} ({label})" if t.id != t.type else label

    # -- the kernel's Pricing hooks ---------------------------------------------------
    def near_path(self, points: Sequence[Point2]) -> list[tuple[Terrain, Any]]:
        if self.scope is None:
            return self.position.near(*box_of(points))
        return within_box(self.scope, points)

    def pieces(self, p0: Point2, p1: Point2) -> list[tuple[float, float, float | None, str]]:
        heading = bearing(p1[0] - p0[0], p1[1] - p0[1])
        out = []
        for iv in governed_intervals(p0, p1, self.near_path([p0, p1]), self.govern(heading)):
            m = self.multiplier(iv.feature, heading)
            out.append((iv.start, iv.end, None if m is None else 1.0 / m, self.name(iv.feature)))
        return out

    def feature_at(self, x: float, y: float, heading: float | None = None) -> Terrain | None:
        return governed_feature_at(x, y, self.near_path([(x, y)]), self.govern(heading))

    def rate_at(self, x: float, y: float) -> tuple[float | None, str]:
        t = self.feature_at(x, y)
        m = self.multiplier(t)
        return (None if m is None else 1.0 / m), self.name(t)

    def direction(self, facing: float, dx: float, dy: float) -> tuple[float, bool, str]:
        """Factor on the cost per inch: forward 1, reverse and sideways by the piece; a
        diagonal pays the larger neighbour; tracked and wheeled may not slide (LG-D12)."""
        unit = self.unit
        row = FACTORS[unit.type]
        reverse = (
            row.reverse_dual if unit.flag("dual_drivers") and row.reverse_dual else row.reverse
        )
        sideways = (
            row.sideways_jointed if unit.flag("jointed") and row.sideways_jointed else row.sideways
        )
        d = travel_direction(facing, dx, dy)
        if d == FORWARD:
            return 1.0, True, d
        if d == BACKWARD:
            return float(reverse), True, d
        if sideways is None:
            return 1.0, False, d
        if d == SIDEWAYS:
            return float(sideways), True, d
        ahead = angle_between(bearing(dx, dy), facing) < 90.0
        return (float(sideways) if ahead else float(max(reverse, sideways))), True, DIAGONAL

    def band_fraction(self, angle: float) -> float:
        """The fraction of the rate a rotation by `angle` costs (LG-D1, `turn_bands`)."""
        a = abs(angle)
        if a <= 1e-9:
            return 0.0
        for upper, fraction in self.options.turn_bands:
            if a <= upper + 1e-9:
                return fraction
        return self.options.turn_bands[-1][1]

    def turn_cost(self, angle: float, rate: float = 1.0, free: float = 0.0) -> float:
        """Independent of terrain and speed (003 Turning 4): `rate` is ignored."""
        return turn_cost(self.unit, self.band_fraction(angle))


def _rank(m: float | None) -> float:
    return -1.0 if m is None else m
