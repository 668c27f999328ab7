"""Terrain effects on one base's path (aod.md section 6).

Blocking and prohibited cells (6.3), aquatic units kept in water (AOD-D28),
hindering half speed and the stop on entering from clear (6.2), and elevated /
abrupt elevated stops with repositioning and access points (6.4, 6.5).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, Point

from rules.engine.numbers import fmt, fmt_point
from rules.engine.verdict import Violation
from rules.geometry.bases import bodies_at
from rules.geometry.contact import Hit, first_overlap, sweep_overlaps
from rules.geometry.entry import first_entry_from_clear
from rules.geometry.occupancy import first_occupancy_change, occupies
from rules.geometry.tolerance import CONTACT, LENGTH, OVERLAP
from rules.geometry.track import Pose, Track
from rules.model.state import Point2, Terrain
from rules.systems.aod.position import AodPosition

#: How near an access segment the centre path must cross an abrupt elevated edge: "within
#: 0.01"" (aod.md 6.5, AOD-D34). The referee's and reach's one figure.
ACCESS_WITHIN = CONTACT

CELL_CODES = {
    "block": ("blocking_terrain", "which blocks movement", "000 [33]"),
    "proh": ("prohibited_terrain", "which it may not enter", "000 [33], AOD-D14"),
}


@dataclass
class TerrainOutcome:
    violations: list[tuple[float, Violation]] = field(default_factory=list)
    #: Elevated stop: where the move really ends, and the path length that counts.
    end: Pose | None = None
    cost_cap: float | None = None

    def add(self, s: float, code: str, message: str, at: Point2 | None, cite: str) -> None:
        """A violation first met `s` along the path."""
        self.violations.append((s, Violation(code, message, at, cite)))


def cells_near(
    position: AodPosition, rows: tuple[str, ...], track: Track
) -> list[tuple[Terrain, str]]:
    """The features the swept base touches (within 0.01"), with their matrix cell.

    Computed once per track and rows: one index query, one distance per candidate."""
    cache: dict[tuple[str, ...], list[tuple[Terrain, str]]] = track.__dict__.setdefault(
        "_aod_cells", {}
    )
    if rows not in cache:
        swept = track.swept()
        near = position.terrain.near(swept, CONTACT * 2)
        cache[rows] = [
            (t, position.options.cell(rows, t.type))
            for t, _, _ in near
            if swept.distance(t.shape) <= CONTACT
        ]
    return cache[rows]


def check_cells(
    position: AodPosition, rows: tuple[str, ...], track: Track, uid: str, out: TerrainOutcome
) -> None:
    """Blocking / prohibited features may not be overlapped by the swept base (6.3)."""
    for t, cell in cells_near(position, rows, track):
        if cell not in CELL_CODES or not sweep_overlaps(track, t.shape):
            continue
        hit = first_overlap(track, t.shape)
        code, what, cite = CELL_CODES[cell]
        at = hit.at if hit else None
        why = f"{uid} moves into {t.id} ({t.type.replace('_', ' ')}), {what}, at {_pt(at)}"
        out.add(hit.s if hit else 0.0, code, why, at, cite)
    if position.options.cell(rows, "clear") == "proh":
        _stay_inside(position, rows, track, uid, out)


def _stay_inside(
    position: AodPosition, rows: tuple[str, ...], track: Track, uid: str, out: TerrainOutcome
) -> None:
    """Clear is prohibited (aquatic): the base must stay within water (AOD-D28)."""
    allowed = position.water_union(rows)
    shrunk = track.swept(OVERLAP)
    region = (
        shrunk.core.buffer(max(shrunk.radius, 0.0), quad_segs=16)
        if shrunk.radius > 1e-6
        else shrunk.core
    )
    outside = shapely.difference(region, allowed)
    if outside.is_empty or outside.area < 1e-6:
        return
    hit = first_overlap(track, outside)
    at = hit.at if hit else track.start.xy
    why = f"{uid} may only move in water but leaves it at {_pt(at)}"
    out.add(hit.s if hit else 0.0, "prohibited_terrain", why, at, "000 [16], AOD-D28")


def hindering_at_start(
    position: AodPosition, rows: tuple[str, ...], track: Track
) -> Terrain | None:
    """The hindering feature the base touches at the start of its order (000 [32]).
    Such a feature touches the swept base too, so the track's candidates suffice."""
    body = track.body_at(0.0)
    for t, cell in cells_near(position, rows, track):
        if cell == "hind" and body.distance(t.shape) <= CONTACT:
            return t
    return None


def check_hindering(
    position: AodPosition, rows: tuple[str, ...], track: Track, uid: str, out: TerrainOutcome
) -> None:
    """Where the unit enters hindering terrain while moving from clear (000 [32], AOD-D3/D4):
    first contact, or with option hindering_entry="centre" the centre dot reaching it."""
    feats = [t for t, cell in cells_near(position, rows, track) if cell == "hind"]
    by_centre = position.options.hindering_entry == "centre"
    entry = first_entry_from_clear(track, [t.shape for t in feats], by_centre=by_centre)
    if entry is None:
        return
    hit, feat = entry[0], feats[entry[1]]
    if track.length > hit.s + CONTACT:
        why = (
            f"{uid} must stop on entering hindering terrain {feat.id} from clear at "
            f'{_pt(hit.at)} but goes {fmt(track.length - hit.s)}" further'
        )
        out.add(hit.s, "must_stop_hindering", why, hit.at, "000 [32], AOD-D4")


# -- elevated terrain (6.4, 6.5) ------------------------------------------------


def check_elevated(
    position: AodPosition,
    rows: tuple[str, ...],
    track: Track,
    unit_id: str,
    jump_jets: bool,
    out: TerrainOutcome,
) -> None:
    feats = [t for t, cell in cells_near(position, rows, track) if cell == "elev"]
    if feats:
        centre_line = track.centre_line()
        feats = [t for t in feats if centre_line.distance(t.shape) <= LENGTH]
    best: tuple[Hit, Terrain] | None = None
    for t in feats:
        hit = first_occupancy_change(track, t.shape)
        if hit is not None and (best is None or hit.tau < best[0].tau):
            best = (hit, t)
    if best is None:
        return
    hit, feat = best
    entering = not occupies(feat.shape, *track.start.xy)
    verb = "occupying" if entering else "leaving"
    cite = "000 [34]" if feat.type == "abrupt_elevated" else "000 [33]"
    if feat.type == "abrupt_elevated" and not jump_jets and not _on_access(feat, hit.at):
        why = (
            f"{unit_id} crosses abrupt elevated terrain {feat.id} at "
            f"{_pt(hit.at)}, not at an access point and without jump jets"
        )
        out.add(hit.s, "prohibited_terrain", why, hit.at, "000 [34], AOD-D34")
    direction = _direction_at(track, hit.tau)
    target = _reposition(position, track, hit, feat, entering, direction)
    end = track.end
    ends_at_crossing = track.length <= hit.s + CONTACT
    ends_repositioned = (
        target is not None and math.hypot(end.x - target.x, end.y - target.y) <= CONTACT
    )
    if not (ends_at_crossing or ends_repositioned):
        why = f"{unit_id} must stop upon {verb} elevated terrain {feat.id} at {_pt(hit.at)}"
        out.add(hit.s, "must_stop_hindering", why, hit.at, f"{cite}, AOD-D38")
        return
    if target is None:
        why = (
            f"{unit_id} cannot be repositioned entirely "
            f"{'on' if entering else 'off'} elevated terrain {feat.id} from {_pt(hit.at)}"
        )
        out.add(hit.s, "placement_invalid", why, hit.at, f"{cite}, AOD-D9")
        return
    out.end = Pose(target.x, target.y, end.facing)
    out.cost_cap = hit.s


def _on_access(feat: Terrain, at: tuple[float, float]) -> bool:
    p = Point(at)
    return any(LineString([a, b]).distance(p) <= ACCESS_WITHIN for a, b in feat.access)


def _direction_at(track: Track, tau: float) -> tuple[float, float]:
    """Direction of the path segment at tau (the last segment that moves, AOD-D9)."""
    i = min(int(tau), len(track.motions) - 1)
    for m in list(track.motions[i::-1]) + list(track.motions[i + 1 :]):
        if not m.is_rotation:
            dx, dy = m.end.x - m.start.x, m.end.y - m.start.y
            n = math.hypot(dx, dy)
            return dx / n, dy / n
    return 1.0, 0.0


def reposition_steps(radius: float) -> Any:
    """How far along the last segment the engine tries a base of `radius`, in order:
    every 0.005" (AOD-D9)."""
    return np.arange(0.0, 2 * radius + 0.1, 0.005)


def _reposition(
    position: AodPosition,
    track: Track,
    hit: Hit,
    feat: Terrain,
    entering: bool,
    direction: tuple[float, float],
) -> Pose | None:
    """Smallest move along `direction` that puts the base entirely on / off (AOD-D9),
    within 0.01": candidates every 0.005", judged in one vectorised call."""
    base = track.base
    facing = track.end.facing
    poly = feat.shape
    ds = reposition_steps(base.radius)
    xs = hit.pose.x + direction[0] * ds
    ys = hit.pose.y + direction[1] * ds
    fs = np.full_like(ds, facing)
    if entering:
        # Entirely on: no part of the base is more than 0.01" outside the polygon.
        outside = shapely.difference(
            shapely.box(*poly.buffer(base.radius + 1).bounds), poly.buffer(CONTACT)
        )
        cores, r = bodies_at(base, xs, ys, fs)
        ok = (shapely.distance(cores, outside) - r >= 0) & shapely.contains_xy(
            poly.buffer(CONTACT), xs, ys
        )
    else:
        cores, r = bodies_at(base, xs, ys, fs, OVERLAP)
        ok = shapely.distance(cores, poly) - r >= 0
    idx = np.nonzero(ok)[0]
    if len(idx) == 0:
        return None
    d = float(ds[idx[0]])
    return Pose(hit.pose.x + direction[0] * d, hit.pose.y + direction[1] * d, facing)


def _pt(p: tuple[float, float] | None) -> str:
    return "?" if p is None else fmt_point(p)
