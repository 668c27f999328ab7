"""What is built from a map's terrain, built once per map rather than once per position.

A live table's position changes at every act, and a GM's fiat changes it as cheaply,
but its terrain does not: parsing and checking the features (their shapely polygons),
their spatial index, the features that matter to sight, the obstacles a base of a given
size makes of them, all depend on the terrain alone. `state_from_json` keeps the parsed
features of the maps it read lately in `MAPS`, keyed by a digest of the terrain's JSON
with the system and table it was read for, and every position read from the same JSON
shares one `MapGeometry` (carried on `GameState.geometry`, and by `replace` to the
positions that follow from it). Derived data goes in its `memo` (`GameState.map_memo`).

Both are safe across threads (the server judges in two engine threads) and bounded:
`MAPS` keeps the `size` maps read last, a map's memo at most `MEMO_ENTRIES` items (the map
limits of the web side bound what one item costs, docs/rules-engine.md, "Map limits").
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

import shapely

if TYPE_CHECKING:
    from rules.model.state import Terrain

T = TypeVar("T")

#: Derived items kept per map (a FeatureIndex, the obstacles for each base radius...):
#: past this the memo starts again, so that no stream of odd radii grows it for ever.
MEMO_ENTRIES = 256


class MapGeometry:
    """One map's parsed features and what is derived from them alone."""

    def __init__(self, terrain: tuple[Terrain, ...]) -> None:
        self.terrain = terrain
        self._memo: dict[str, Any] = {}
        self._lock = threading.RLock()

    def memo(self, key: str, factory: Callable[[], T]) -> T:
        """`factory()` built once for this map (under a lock: two threads asking at once
        build it once; a factory may itself ask for another item)."""
        with self._lock:
            if key not in self._memo:
                if len(self._memo) >= MEMO_ENTRIES:
                    self._memo.clear()
                self._memo[key] = factory()
            return cast(T, self._memo[key])


class MapCache:
    """The maps read lately, by digest: the `size` used last are kept."""

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self._kept: OrderedDict[str, MapGeometry] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, digest: str | None) -> MapGeometry | None:
        if digest is None:
            return None
        with self._lock:
            found = self._kept.get(digest)
            if found is not None:
                self._kept.move_to_end(digest)
            return found

    def keep(self, digest: str | None, terrain: tuple[Terrain, ...]) -> MapGeometry:
        """A MapGeometry for `terrain`, kept under `digest` (not kept when None)."""
        geometry = MapGeometry(terrain)
        if digest is None:
            return geometry
        # Shared by threads from now on: prepared here, once, rather than by whichever
        # thread asks first (a prepared geometry's later `prepare` does nothing).
        shapely.prepare([t.shape for t in terrain])
        with self._lock:
            self._kept[digest] = geometry
            self._kept.move_to_end(digest)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return geometry

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


MAPS = MapCache()


def map_digest(raw: Mapping[str, Any]) -> str | None:
    """A digest of what the parsed terrain depends on: the system, the table and the
    terrain as given. None where it is not plain JSON (then nothing is cached)."""
    try:
        text = json.dumps(
            [raw.get("system"), raw.get("table"), raw.get("terrain", [])],
            separators=(",", ":"),
            allow_nan=True,
        )
    except (TypeError, ValueError, RecursionError):
        return None
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
