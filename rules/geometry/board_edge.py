"""A base that enters the table from an edge or leaves it for good.

Systems where pieces come on at an edge and may leave the board (lasergrenadiers 003
Leaving the board, LG-D14; `enter_board`) need more than "never past an edge"
(table.leaves_table): where along a track the base is first wholly on the table,
whether it goes past an edge after that, and whether a base is wholly off.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely

from rules.geometry.bases import Body, bodies_at, body_at
from rules.geometry.contact import Hit, hit_at
from rules.geometry.table import leaves_table
from rules.geometry.tolerance import CONTACT
from rules.geometry.track import Track
from rules.model.state import Table


def overshoot(track: Track, table: Table) -> Any:
    """A probe: how far the base reaches past the nearest edge at each tau (1-Lipschitz)."""

    def probe(ts: Any) -> Any:
        xs, ys, fs = track.poses(ts)
        cores, r = bodies_at(track.base, xs, ys, fs)
        b = shapely.bounds(cores)
        return np.max(
            [-(b[:, 0] - r), -(b[:, 1] - r), b[:, 2] + r - table.width, b[:, 3] + r - table.height],
            axis=0,
        )

    return probe


def first_wholly_on(track: Track, table: Table) -> float | None:
    """The first tau at which the base is wholly on the table (within 0.01")."""
    return track.crossing(overshoot(track, table), CONTACT)


def goes_off_after(track: Track, table: Table, after: float) -> Hit | None:
    """The first pose after `after` where the base reaches more than 0.01" past an edge."""
    return hit_at(track, track.crossing(overshoot(track, table), CONTACT, above=True, after=after))


def back_on_after(track: Track, table: Table, after: float) -> Hit | None:
    """The first pose after `after` where the base is wholly on the table again."""
    return hit_at(track, track.crossing(overshoot(track, table), CONTACT, after=after))


def wholly_off(body: Body, table: Table) -> bool:
    """No part of the base lies more than 0.01" inside the table."""
    minx, miny, maxx, maxy = body.bounds
    if (
        maxx <= CONTACT
        or maxy <= CONTACT
        or minx >= table.width - CONTACT
        or miny >= table.height - CONTACT
    ):
        return True
    inner = shapely.box(CONTACT, CONTACT, table.width - CONTACT, table.height - CONTACT)
    return not body.polygon().intersects(inner)


def exit_from_table(
    track: Track, table: Table, entering: bool = False
) -> tuple[str, Hit | None] | None:
    """How a track meets the table's edges where a base may leave the board only wholly,
    at the end of its move (lasergrenadiers LG-D14); for a base `entering` from an edge,
    from when it is first wholly on. None: it stays on; ("leaves", None): it ends wholly
    off and never comes back; ("never_on", None); or ("partly_off" | "back_on", where it
    first goes off): it ends partly off, or goes off and comes back."""
    if entering:
        on = first_wholly_on(track, table)
        if on is None:
            return "never_on", None
        off = goes_off_after(track, table, on + 1e-9) if on < track.tau_end else None
    else:
        off = leaves_table(track, table)
    if off is None:
        return None
    if not wholly_off(body_at(track.base, track.end.x, track.end.y, track.end.facing), table):
        return "partly_off", off
    return ("leaves", None) if back_on_after(track, table, off.tau) is None else ("back_on", off)
