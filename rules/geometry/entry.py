"""Where a moving base, having been clear of a set of features, first comes into one.

"Moving from clear" is any stretch along which the base touches none of the features
(distance > 0.01"), including one after it has left them; "entering" is the first
contact after such a stretch (distance 0). Judged by the centre instead, clear means
the centre farther than 0.001" from every feature and entering means the centre
reaching one. aod's hindering terrain is read this way (000 [32], AOD-D3, AOD-D4):
moving from one touching feature into the next, never clear, is no entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point

from rules.geometry.bases import box_gaps
from rules.geometry.contact import Hit, hit_at
from rules.geometry.sweeps import first_beyond, first_within
from rules.geometry.tolerance import CONTACT, EVENT, LENGTH
from rules.geometry.track import BOX_MARGIN, Track


def first_entry_from_clear(
    track: Track, features: Sequence[Any], by_centre: bool = False
) -> tuple[Hit, int] | None:
    """The first entry after a clear stretch, and the index of the feature entered
    (the nearest one there), or None when the path never enters from clear."""
    if not features or not track.translates:
        return None
    if by_centre or track.base.is_circle:
        # Both judged by the centre, exactly: a circle base touches a feature when its
        # centre is within its radius of it.
        grow = 0.0 if by_centre else track.base.diameter / 2
        clear_from = first_beyond(track, list(features), grow + (LENGTH if by_centre else CONTACT))
        if clear_from is None:
            return None
        # Entering is reaching a feature (distance 0, section 4), by the centre too: the
        # 0.001" that makes the centre clear is no entry, else the clear point would be
        # its own entry and no move could leave (AOD-D3 option, AOD-D4).
        entries = [first_within(track, g, grow + EVENT, clear_from) for g in features]
        found = [t for t in entries if t is not None]
        hit = hit_at(track, min(found) if found else None)
    else:
        hit = _sampled_entry(track, features)
    if hit is None:
        return None
    if by_centre:
        p = Point(hit.at)
        nearest = min(range(len(features)), key=lambda i: float(p.distance(features[i])))
    else:
        body = track.body_at(hit.tau)
        nearest = min(range(len(features)), key=lambda i: body.distance(features[i]))
    return hit, nearest


def _sampled_entry(track: Track, features: Sequence[Any]) -> Hit | None:
    """The same for a rect base, by the sampled search (its distance is 0 inside)."""
    feats = np.empty(len(features), dtype=object)
    feats[:] = list(features)
    boxes = shapely.bounds(feats)

    def dist(ts: Any) -> Any:
        """The distance to the nearest feature: exact, but computed only to the features
        whose box is no farther than the nearest box's feature (a box's gap bounds the
        distance from below; BOX_MARGIN outweighs its float error)."""
        cores, radius = track.bodies_for(ts)  # built once for every feature
        gaps = box_gaps(shapely.bounds(cores)[:, None, :], boxes[None, :, :])
        best = shapely.distance(cores, feats[np.argmin(gaps, axis=1)])
        rows, cols = np.nonzero(gaps <= best[:, None] + BOX_MARGIN)
        np.minimum.at(best, rows, shapely.distance(cores[rows], feats[cols]))
        return best - radius

    if float(dist(np.array([0.0]))[0]) > CONTACT:
        clear_from: float | None = 0.0
    else:
        clear_from = track.crossing(dist, CONTACT, above=True)
    if clear_from is None:
        return None
    near = (
        np.any([track.stretches_near(g, EVENT) for g in features], axis=0)
        if track.turns_rect
        else None
    )
    return hit_at(track, track.crossing(dist, EVENT, after=clear_from, near=near))
