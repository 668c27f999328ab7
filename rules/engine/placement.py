"""May a base stand here? The one placement check every action that sets a unit down uses.

A unit placed on the table (disembarking, repositioned on or off elevated terrain, a
captive set down, a unit entering from the edge) must lie completely on the table, may
not overlap another base, and may not stand in terrain its system forbids it (contract:
contact within 0.01", overlap deeper than 0.01"; aod 001 [19], AOD-D9, AOD-D44). The
system says which terrain; the engine says what is in the way, and the system words the
refusal with its own code and citation.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from rules.engine.position import Position
from rules.geometry.bases import Body, body_at
from rules.geometry.table import body_off_table
from rules.geometry.tolerance import OVERLAP
from rules.geometry.track import Pose
from rules.model.state import BaseShape, Terrain


@dataclass(frozen=True)
class Obstruction:
    """What keeps a base from standing at a pose."""

    #: "off_table", "base" or "terrain".
    kind: str
    #: The unit or feature id in the way ("" for the table edge).
    what: str = ""

    @property
    def reason(self) -> str:
        """Player-readable, e.g. "it would overlap the base of M2"."""
        if self.kind == "off_table":
            return "it would not be completely on the table"
        if self.kind == "base":
            return f"it would overlap the base of {self.what}"
        return f"it would stand in terrain {self.what} it may not enter"


def obstructions(
    position: Position,
    base: BaseShape,
    pose: Pose,
    *,
    forbidden: Callable[[Terrain], bool] | None = None,
    ignore: Collection[str] = (),
    placed: Sequence[tuple[str, Body]] = (),
    no_overlap: Sequence[tuple[str, Any]] = (),
) -> list[Obstruction]:
    """Everything that keeps a base from standing at `pose`, in this order: the table
    edge; other bases (the units on the table except `ignore`, then bodies already
    `placed` in the same action); terrain features `forbidden` to it; other areas the
    system names (`no_overlap`: (id, geometry), e.g. another elevated feature)."""
    found: list[Obstruction] = []
    full = body_at(base, pose.x, pose.y, pose.facing)
    if body_off_table(full, position.state.table):
        found.append(Obstruction("off_table"))
    shrunk = body_at(base, pose.x, pose.y, pose.facing, OVERLAP)
    found += [
        Obstruction("base", other.id)
        for other, _, _ in position.units.near(shrunk)
        if other.id not in ignore and shrunk.distance(position.bodies[other.id]) < 0
    ]
    found += [Obstruction("base", uid) for uid, body in placed if shrunk.distance(body) < 0]
    found += [
        Obstruction("terrain", feature.id)
        for feature, _, _ in position.terrain.near(shrunk)
        if forbidden is not None and forbidden(feature) and shrunk.distance(feature.shape) < 0
    ]
    found += [Obstruction("terrain", fid) for fid, area in no_overlap if shrunk.distance(area) < 0]
    return found


def obstruction(
    position: Position,
    base: BaseShape,
    pose: Pose,
    *,
    forbidden: Callable[[Terrain], bool],
    ignore: Collection[str] = (),
    placed: Sequence[tuple[str, Body]] = (),
) -> Obstruction | None:
    """The first thing that keeps a base from standing at `pose` (see `obstructions`),
    or None if it may stand there."""
    found = obstructions(position, base, pose, forbidden=forbidden, ignore=ignore, placed=placed)
    return found[0] if found else None


def placement_problems(
    position: Position,
    base: BaseShape,
    x: float,
    y: float,
    facing: float,
    *,
    ignore: Collection[str] = (),
    no_overlap: Sequence[tuple[str, Any]] = (),
) -> list[str]:
    """Every reason a base cannot stand at (x, y, facing), as short phrases for a
    message ("partly off the table", "on M2's base", "on T1")."""
    return [
        _phrase(o)
        for o in obstructions(
            position, base, Pose(x, y, facing), ignore=ignore, no_overlap=no_overlap
        )
    ]


def _phrase(o: Obstruction) -> str:
    if o.kind == "off_table":
        return "partly off the table"
    return f"on {o.what}'s base" if o.kind == "base" else f"on {o.what}"
