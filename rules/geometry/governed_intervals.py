"""Terrain under a centre path when the governing feature is chosen from the whole set.

`intervals.intervals_under` ranks features one against another. Some systems' overlap
rules cannot be written as a rank: lasergrenadiers lets a bridge override a river and
then takes the lowest multiplier of what is left (LG-D25), so a river beats a wall, a
wall beats a bridge, and a bridge beats a river. Here the caller's `govern` sees every
feature that holds a piece and returns the one that governs it (None: open ground).
Both live in `intervals` (the ranked versions are these with the highest rank governing).
"""

from __future__ import annotations

from rules.geometry.intervals import Govern, governed_feature_at, governed_intervals

__all__ = ["Govern", "governed_feature_at", "governed_intervals"]
