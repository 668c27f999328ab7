"""A base's path as a sequence of motions (straight segments and rotations in place).

`Track` is the poses along the path (`PosePath`, rules/geometry/track_path.py) with the
base that takes them, and answers the geometry's questions about it through one part
per job: its dense samples and the bodies there (track_samples.py: rotations of rect
bases are sampled so that no corner moves more than 0.005" between samples, AOD-D17),
what the base sweeps (track_sweeps.py), and where an event first happens along it
(track_search.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Any

from rules.geometry.bases import Body, body_at
from rules.geometry.track_path import Motion, Pose, PosePath, motions_from_steps, shortest_turn
from rules.geometry.track_samples import TrackSamples
from rules.geometry.track_search import CrossingSearch
from rules.geometry.track_sweeps import BOX_MARGIN, NEAR_MARGIN, TrackSweeps
from rules.model.actions import Step
from rules.model.state import BaseShape

__all__ = ["BOX_MARGIN", "NEAR_MARGIN", "Motion", "Pose", "Track", "shortest_turn"]


class Track(PosePath):
    """The poses a base goes through along a path. Immutable once built."""

    def __init__(self, base: BaseShape, start: Pose, motions: Sequence[Motion]) -> None:
        super().__init__(start, motions)
        self.base = base

    @classmethod
    def from_steps(
        cls, base: BaseShape, start: Pose, steps: Sequence[Step], final_facing: float | None = None
    ) -> Track:
        return cls(base, start, motions_from_steps(start, steps, final_facing))

    # -- its parts, each built when first asked for ---------------------------------
    @cached_property
    def sampled(self) -> TrackSamples:
        return TrackSamples(self, self.base)

    @cached_property
    def sweeps(self) -> TrackSweeps:
        return TrackSweeps(self, self.base, self.sampled)

    @cached_property
    def search(self) -> CrossingSearch:
        return CrossingSearch(self, self.base, self.sampled)

    # -- the base at a pose, and at the samples ------------------------------------------
    def body_at(self, tau: float, shrink: float = 0.0) -> Body:
        p = self.pose_at(tau)
        return body_at(self.base, p.x, p.y, p.facing, shrink)

    @property
    def turns_rect(self) -> bool:
        """A rect base turns somewhere along the path (sampled in 0.005" corner steps)."""
        return self.sampled.turns_rect

    @property
    def samples(self) -> tuple[Any, Any, Any, Any]:
        """(tau, x, y, facing) arrays of dense poses, start and end included."""
        return self.sampled.samples

    def sample_distances(self, geom: Any, shrink: float = 0.0, taus: Any = None) -> Any:
        """Body-to-geometry distance at every sample, or at `taus` (<= 0: touching)."""
        return self.sampled.distances(geom, shrink, taus)

    def bodies_for(self, taus: Any = None, shrink: float = 0.0) -> tuple[Any, float]:
        """The bodies at `taus` (every sample when None)."""
        return self.sampled.bodies_for(taus, shrink)

    def bounds_for(self, taus: Any = None, shrink: float = 0.0) -> tuple[Any, float]:
        """The bounds of the bodies' cores at `taus`, and their radius."""
        return self.sampled.bounds_for(taus, shrink)

    # -- sweeps ----------------------------------------------------------------------
    def swept(self, shrink: float = 0.0) -> Body:
        """The union of the base over every pose of the path (section 4)."""
        return self.sweeps.swept(shrink)

    def stretch_bounds(self) -> Any:
        """Per stretch, the bounding box of the base at every pose of that stretch."""
        return self.sweeps.stretch_bounds()

    def stretches_near(self, geom: Any, within: float, shrink: float = 0.0) -> Any:
        """Per stretch, whether the base may come within `within` of geom along it."""
        return self.sweeps.stretches_near(geom, within, shrink)

    # -- locating events -------------------------------------------------------------
    @property
    def crossing(self) -> Callable[..., float | None]:
        """The first tau where a value crosses a limit (`CrossingSearch.crossing`)."""
        return self.search.crossing
