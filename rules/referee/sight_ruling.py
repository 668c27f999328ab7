"""A line of sight, ruled: what terrain a straight line between two points crosses, and
whether it is clear, hindered or blocked.

The kernel's geometry (`rules/geometry/sight.py`: a feature counts when the line crosses
its interior; touching an edge does not) and the system's hook for what each feature
does to sight (`System.sight`, by default its `TerrainKind.sight`). One implementation,
asked by the board over the socket (docs/protocol.md, `sight`) and usable from the CLI:
no system's rules of fire are decided here, only the line and what is in its way.

A piece sees out of the feature it stands in: a feature holding the line's origin does
not count (a 'Mech on a hill sees off it). The target's own feature does count: a unit
inside a wood is seen through the wood.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shapely.geometry import LineString, Point
from shapely.ops import nearest_points

from rules.engine.numbers import json_number
from rules.geometry.index import FeatureIndex
from rules.geometry.sight import blockers
from rules.model.errors import InvalidActionError
from rules.model.state import GameState, Point2, Terrain
from rules.systems.registry import get_system

#: The effects a system's `sight` hook may give, from the worst.
EFFECTS = ("blocks", "hinders")


@dataclass(frozen=True)
class SightFeature:
    """One feature the line crosses: its id, kind and label, and where the line enters it."""

    id: str
    type: str
    #: The kind in a player's words ("Hindering terrain"), from the system's catalogue.
    label: str
    effect: str
    polygon: tuple[Point2, ...]
    enters_at: Point2
    #: Distance along the line from the origin to `enters_at`, in inches.
    distance: float

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "type": self.type,
            "label": self.label,
            "effect": self.effect,
            "polygon": [[json_number(x), json_number(y)] for x, y in self.polygon],
            "enters_at": [json_number(self.enters_at[0]), json_number(self.enters_at[1])],
            "distance": json_number(round(self.distance, 3)),
        }


@dataclass(frozen=True)
class SightRuling:
    origin: Point2
    target: Point2
    #: Every feature the line crosses that blocks or hinders sight, nearest first.
    features: tuple[SightFeature, ...]

    @property
    def blocker(self) -> SightFeature | None:
        """The nearest feature that blocks the line, or None."""
        return next((f for f in self.features if f.effect == "blocks"), None)

    @property
    def verdict(self) -> str:
        """ "clear", "hindered" or "blocked"."""
        if self.blocker is not None:
            return "blocked"
        return "hindered" if self.features else "clear"

    @property
    def length(self) -> float:
        return float(Point(self.origin).distance(Point(self.target)))

    def to_json(self) -> dict[str, Any]:
        blocker = self.blocker
        return {
            "from": [json_number(self.origin[0]), json_number(self.origin[1])],
            "to": [json_number(self.target[0]), json_number(self.target[1])],
            "verdict": self.verdict,
            "length": json_number(round(self.length, 3)),
            "blocked_at": None
            if blocker is None
            else [json_number(blocker.enters_at[0]), json_number(blocker.enters_at[1])],
            "features": [f.to_json() for f in self.features],
        }


def _sight_index(state: GameState) -> FeatureIndex[Terrain]:
    """The features that do something to sight, indexed once per map."""
    system = get_system(state.system)

    def build() -> FeatureIndex[Terrain]:
        kept = [(t, system.sight(t)) for t in state.terrain]
        kept = [(t, effect) for t, effect in kept if effect in EFFECTS]
        return FeatureIndex(
            [t for t, _ in kept], [t.shape for t, _ in kept], [effect for _, effect in kept]
        )

    return state.map_memo(f"{system.key}.sight_index", build)


def end_point(state: GameState, end: Point2 | str, key: str) -> Point2:
    """A line's end: a point, or a unit id standing for its centre."""
    if isinstance(end, str):
        unit = state.unit(end)
        if unit is None or not unit.on_table:
            raise InvalidActionError(key, f"no unit {end!r} on the table")
        return (float(unit.position[0]), float(unit.position[1]))
    return (float(end[0]), float(end[1]))


def sight_ruling(state: GameState, origin: Point2 | str, target: Point2 | str) -> SightRuling:
    """What the straight line from `origin` to `target` crosses (each a point or a unit id)."""
    a = end_point(state, origin, "from")
    b = end_point(state, target, "to")
    system = get_system(state.system)
    index = _sight_index(state)
    line = LineString([a, b]) if a != b else None
    found: list[SightFeature] = []
    crossed = blockers(index, a, b) if line is not None else []
    for feature in crossed:
        if feature.shape.covers(Point(a)):
            continue  # a piece sees out of what it stands in (module docstring)
        assert line is not None
        enters = nearest_points(feature.shape.intersection(line), Point(a))[0]
        found.append(
            SightFeature(
                id=feature.id,
                type=feature.type,
                label=system.terrain_label(feature),
                effect=system.sight(feature),
                polygon=tuple(feature.polygon),
                enters_at=(float(enters.x), float(enters.y)),
                distance=float(enters.distance(Point(a))),
            )
        )
    found.sort(key=lambda f: (f.distance, f.id))
    return SightRuling(a, b, tuple(found))
