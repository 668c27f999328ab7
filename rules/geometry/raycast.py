"""Casting a base along a ray: how far it goes before it first touches something.

The action-point skirmish game's dodge moves a soldier 1" straight away from the
attack and stops it early at the first contact with an obstacle, another base or the
table edge (APS-D11); its traverse looks along a ray for the first obstacle the base
touches (APS-D20). The base keeps its facing along the ray. Contact is distance 0
(located to 1e-4"); something the base already touches where it starts stops it only
if the ray goes into it (the base may slide along or away from a neighbour).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.geometry.bases import Body
from rules.geometry.contact import Hit, first_overlap, first_touch, hit_at
from rules.geometry.table import reaches_past_edge
from rules.geometry.tolerance import CONTACT, EVENT
from rules.geometry.track import Pose, Track
from rules.model.actions import Waypoint
from rules.model.state import BaseShape, Table


@dataclass(frozen=True)
class RayHit:
    """The first contact along the ray."""

    #: How far the centre travels before the base touches.
    distance: float
    #: "terrain", "base" or "table_edge".
    kind: str
    #: The feature's or unit's id; None for the table edge.
    id: str | None
    #: The centre where the base touches.
    at: tuple[float, float]


def ray_track(base: BaseShape, start: Pose, direction: tuple[float, float], length: float) -> Track:
    """The base moving `length` from `start` along `direction` (any non-zero vector)."""
    norm = math.hypot(*direction)
    if norm == 0.0:
        raise ValueError("a ray needs a direction")
    dx, dy = direction[0] / norm, direction[1] / norm
    return Track.from_steps(base, start, [Waypoint(start.x + dx * length, start.y + dy * length)])


def _first_contact(track: Track, target: Any, at_once: bool = False) -> Hit | None:
    if track.body_at(0.0).distance(target) > CONTACT:
        return first_touch(track, target)
    hit = first_overlap(track, target)
    return hit_at(track, 0.0) if hit is not None and at_once else hit


def _table_edge(track: Track, table: Table) -> Hit | None:
    """Where the base first reaches an edge of the table (from inside)."""
    return reaches_past_edge(track, table, -EVENT)


def first_contact(
    base: BaseShape,
    start: Pose,
    direction: tuple[float, float],
    length: float,
    *,
    terrain: Sequence[tuple[str, Any]] = (),
    bases: Sequence[tuple[str, Body]] = (),
    table: Table | None = None,
    touching_stops: bool = False,
) -> RayHit | None:
    """The first thing the base touches within `length` along the ray: a terrain polygon,
    another base (id, Body) or the table edge; None when the way is clear. With
    `touching_stops`, something the base touches where it starts stops it there (at 0)
    if the ray goes into it (touching is a zero gap: apskirmish's dodge, APS-D30)."""
    track = ray_track(base, start, direction, length)
    found: list[tuple[Hit, str, str | None]] = []
    for tid, polygon in terrain:
        hit = _first_contact(track, polygon, touching_stops)
        if hit is not None:
            found.append((hit, "terrain", tid))
    for uid, body in bases:
        hit = _first_contact(track, body, touching_stops)
        if hit is not None:
            found.append((hit, "base", uid))
    if table is not None:
        hit = _table_edge(track, table)
        if hit is not None:
            found.append((hit, "table_edge", None))
    if not found:
        return None
    hit, kind, what = min(found, key=lambda f: f[0].s)
    return RayHit(hit.s, kind, what, hit.at)
