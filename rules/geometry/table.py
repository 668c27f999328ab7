"""Table edges: a swept base may not reach more than 0.01" past them (AOD-D20)."""

from __future__ import annotations

from typing import Any

import numpy as np

from rules.geometry.bases import Body
from rules.geometry.contact import Hit, hit_at
from rules.geometry.tolerance import CONTACT
from rules.geometry.track import NEAR_MARGIN, Track
from rules.model.state import Table


def body_off_table(body: Body, table: Table) -> bool:
    """Does the body reach more than 0.01" past an edge?"""
    minx, miny, maxx, maxy = body.bounds
    return (
        minx < -CONTACT
        or miny < -CONTACT
        or maxx > table.width + CONTACT
        or maxy > table.height + CONTACT
    )


def leaves_table(track: Track, table: Table) -> Hit | None:
    """First pose at which the base reaches beyond the table (None if it never does)."""
    if track.motions and not track.base.is_circle:
        # The stretches' boxes hold the swept base's and cost no exact sweep.
        minx, miny, _, _ = track.stretch_bounds().min(axis=0)
        _, _, maxx, maxy = track.stretch_bounds().max(axis=0)
        if not (
            minx < -CONTACT
            or miny < -CONTACT
            or maxx > table.width + CONTACT
            or maxy > table.height + CONTACT
        ):
            return None
    elif not body_off_table(track.swept(), table):
        return None
    return reaches_past_edge(track, table, CONTACT)


def reaches_past_edge(track: Track, table: Table, beyond: float) -> Hit | None:
    """First pose at which the base reaches more than `beyond` past an edge of the table
    (a negative `beyond`: comes that close to it), or None."""

    def overshoot(ts: Any) -> Any:
        """How far the base reaches past the nearest edge (1-Lipschitz)."""
        b, r = track.bounds_for(ts)  # the bodies' bounds, no polygons built
        return np.max(
            [-(b[:, 0] - r), -(b[:, 1] - r), b[:, 2] + r - table.width, b[:, 3] + r - table.height],
            axis=0,
        )

    if not track.turns_rect:  # few samples: searched in one pass
        return hit_at(track, track.crossing(overshoot, beyond, above=True))
    # Only stretches whose sweep reaches past `beyond` can hold the crossing.
    b = track.stretch_bounds()
    near = (
        np.max([-b[:, 0], -b[:, 1], b[:, 2] - table.width, b[:, 3] - table.height], axis=0)
        > beyond - NEAR_MARGIN
    )
    return hit_at(track, track.crossing(overshoot, beyond, above=True, near=near))
