"""What a base covers along a track: the union of its poses (section 4), per motion and
per stretch of samples, and the prefilter that proves a stretch never comes near a target.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import shapely
from shapely.geometry import GeometryCollection, LineString, Point

from rules.geometry.bases import Body, bodies_at, body_at, box_gaps
from rules.geometry.rotation_sweep import rect_turn_sweeps
from rules.geometry.track_path import PosePath
from rules.geometry.track_samples import TrackSamples
from rules.model.state import BaseShape

#: Float slack when a motion's sweep proves a target out of reach (inches).
NEAR_MARGIN = 1e-7
#: Slack on a gap between boxes, far above their float error (inches).
BOX_MARGIN = 1e-9


class TrackSweeps:
    """The areas `base` sweeps along `path`, each built once per shrink."""

    def __init__(self, path: PosePath, base: BaseShape, sampled: TrackSamples) -> None:
        self.path = path
        self.base = base
        self.sampled = sampled
        self._swept: dict[float, Body] = {}
        self._motion_sweeps: dict[float, tuple[list[Any], float]] = {}
        self._stretch_sweeps: dict[float, tuple[Any, Any]] = {}
        self._stretch_boxes: dict[float, Any] = {}

    def swept(self, shrink: float = 0.0) -> Body:
        """The union of the base over every pose of the path (section 4)."""
        if shrink in self._swept:
            return self._swept[shrink]
        if self.base.is_circle:
            pts = self.path.points()
            r = self.base.diameter / 2 - shrink
            body = Body(None, r, xy=pts[0]) if len(pts) == 1 else Body(None, r, line=pts)
        else:
            # Exact: each motion's sweep (a translation's hull of both rects, a turn's
            # rects and corner sectors), so no pose by pose union (rotation_sweep).
            start = self.path.start
            parts = [body_at(self.base, *start.xy, start.facing, shrink).core]
            pieces = self.motion_sweeps(shrink)[0]
            if pieces:
                parts.extend(shapely.get_parts(np.array(pieces, dtype=object)))
            body = Body(
                parts[0] if len(parts) == 1 else GeometryCollection(parts),
                body_at(self.base, 0, 0, 0, shrink).radius,
            )
        self._swept[shrink] = body
        return body

    def motion_sweeps(self, shrink: float = 0.0) -> tuple[list[Any], float]:
        """Per motion, a core geometry that, grown by the returned radius, holds the base
        at every pose of that motion (exactly its sweep, arcs within ARC_TOLERANCE)."""
        if shrink in self._motion_sweeps:
            return self._motion_sweeps[shrink]
        motions = self.path.motions
        pieces: list[Any] = []
        if self.base.is_circle:
            radius = self.base.diameter / 2 - shrink
            for m in motions:
                pieces.append(
                    Point(m.start.xy) if m.is_rotation else LineString([m.start.xy, m.end.xy])
                )
        else:
            radius = body_at(self.base, 0, 0, 0, shrink).radius
            w = max(self.base.width - 2 * shrink, 1e-6)
            ln = max(self.base.length - 2 * shrink, 1e-6)
            turning = [i for i, m in enumerate(motions) if m.is_rotation]
            moving = [i for i, m in enumerate(motions) if not m.is_rotation]
            out = np.empty(len(motions), dtype=object)
            out[turning] = rect_turn_sweeps(
                [
                    (m.start.x, m.start.y, m.start.facing, m.end.facing)
                    for m in (motions[i] for i in turning)
                ],
                w,
                ln,
            )
            if moving:
                # A translation sweeps the convex hull of its start and end rects.
                ms = [motions[i] for i in moving]
                xs = np.array([[m.start.x, m.end.x] for m in ms]).ravel()
                ys = np.array([[m.start.y, m.end.y] for m in ms]).ravel()
                fs = np.repeat([m.start.facing for m in ms], 2)
                rects, _ = bodies_at(self.base, xs, ys, fs, shrink)
                corners = shapely.get_coordinates(rects).reshape(len(ms), -1, 2)
                out[moving] = shapely.convex_hull(shapely.multipoints(corners))
            pieces = list(out)
        self._motion_sweeps[shrink] = (pieces, radius)
        return pieces, radius

    def stretch_sweeps(self, shrink: float = 0.0) -> tuple[Any, Any]:
        """Per stretch, a core geometry and a reach such that the core grown by the reach
        holds the base at every pose of the stretch: for a rect, the convex hull of its
        first and last pose, grown by the most a corner's arc bulges out of its chord
        (none for a translation: that hull is its sweep)."""
        if shrink in self._stretch_sweeps:
            return self._stretch_sweeps[shrink]
        if self.base.is_circle or not self.path.motions:
            pieces, radius = self.motion_sweeps(shrink)
            out = (np.array(pieces, dtype=object), np.full(len(pieces), radius))
        else:
            counts = self.sampled.counts
            taus = np.array(
                [(i + k0 / counts[i], i + k1 / counts[i]) for i, k0, k1 in self.sampled.stretches]
            ).ravel()
            xs, ys, fs = self.path.poses(taus)
            rects, radius = bodies_at(self.base, xs, ys, fs, shrink)
            corners = shapely.get_coordinates(rects).reshape(len(taus) // 2, -1, 2)
            half_turn = np.radians(np.abs(np.diff(fs.reshape(-1, 2), axis=1)[:, 0])) / 2
            d = (
                math.hypot(
                    max(self.base.width - 2 * shrink, 1e-6),
                    max(self.base.length - 2 * shrink, 1e-6),
                )
                / 2
            )
            bulge = d * (1 - np.cos(np.minimum(half_turn, math.pi / 2))) + 1e-12
            out = (shapely.convex_hull(shapely.multipoints(corners)), radius + bulge)
        self._stretch_sweeps[shrink] = out
        return out

    def stretch_bounds(self) -> Any:
        """Per stretch, the bounding box (minx, miny, maxx, maxy rows) of the base at
        every pose of that stretch."""
        pieces, reach = self.stretch_sweeps()
        if not len(pieces):
            return np.zeros((0, 4))
        return shapely.bounds(pieces) + np.outer(reach, [-1, -1, 1, 1])

    def stretches_near(self, geom: Any, within: float, shrink: float = 0.0) -> Any:
        """Per stretch, whether the base (shrunk by `shrink`) may come within `within` of
        geom along it: False proves it never does (a prefilter for `crossing`)."""
        pieces, reach = self.stretch_sweeps(shrink)
        if not len(pieces):
            return np.zeros(0, dtype=bool)
        # The gap between boxes bounds the distance from below: the exact distance is
        # needed only where the box of a stretch's sweep comes near geom's box
        # (BOX_MARGIN outweighs the float error of either, so the answer is the same).
        gaps = box_gaps(self.stretch_boxes(shrink), np.asarray(geom.bounds)) - reach
        near = gaps <= within + NEAR_MARGIN + BOX_MARGIN
        if near.any():
            near[near] = shapely.distance(pieces[near], geom) - reach[near] <= within + NEAR_MARGIN
        return near

    def stretch_boxes(self, shrink: float) -> Any:
        """Per stretch, the bounds of its sweep's core (see `stretch_sweeps`)."""
        if shrink not in self._stretch_boxes:
            self._stretch_boxes[shrink] = shapely.bounds(self.stretch_sweeps(shrink)[0])
        return self._stretch_boxes[shrink]
