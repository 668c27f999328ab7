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

from rules.engine.model import BaseShape, Terrain
from rules.engine.position import Position
from rules.geometry.bases import Body, body_at
from rules.geometry.table import body_off_table
from rules.geometry.tolerance import OVERLAP
from rules.geometry.track import Pose


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


def obstruction(position: Position, base: BaseShape, pose: Pose, *,
                forbidden: Callable[[Terrain], bool],
                ignore: Collection[str] = (),
                placed: Sequence[tuple[str, Body]] = ()) -> Obstruction | None:
    """Why a base cannot stand at `pose`, or None if it may: off the table first, then
    another base (the units on the table except `ignore`, and bodies already `placed`
    in the same action), then a terrain feature `forbidden` to it."""
    full = body_at(base, pose.x, pose.y, pose.facing)
    if body_off_table(full, position.state.table):
        return Obstruction("off_table")
    shrunk = body_at(base, pose.x, pose.y, pose.facing, OVERLAP)
    for other, _, _ in position.units.near(shrunk):
        if other.id not in ignore and shrunk.distance(position.bodies[other.id]) < 0:
            return Obstruction("base", other.id)
    for uid, body in placed:
        if shrunk.distance(body) < 0:
            return Obstruction("base", uid)
    for feature, _, _ in position.terrain.near(shrunk):
        if forbidden(feature) and shrunk.distance(feature.shape) < 0:
            return Obstruction("terrain", feature.id)
    return None
