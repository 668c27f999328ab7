"""A reach narrowed to some of its ends: those in contact with a target (a charge), those
that leave room for what the action sets down (an unloading), those still touching every
base touched at the start (a manoeuvre). The path to such an end is the wider reach's;
an end off them has none."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import shapely
from shapely.geometry import Point

from rules.engine.reach import Reach
from rules.model.state import Point2


def narrowed(
    found: Reach,
    area: Any,
    near: float,
    cut_at: float | None,
    keys_at: Callable[[Point2], dict[str, Any]] | None = None,
) -> Reach:
    """`found`'s ends within `near` of `area` (an alternative's end is rounded a hair off
    it); `cut_at` as `Reach.cut_at`."""

    def path_to(p: Point2) -> list[Any] | None:
        return found.path_to(p) if area.dwithin(Point(p), near) else None

    return Reach(found.unit_id, found.action_type, area, found.allowance, path_to, cut_at, keys_at)


def owned_ends(
    found: Reach, ends: Sequence[tuple[Any, Mapping[str, Any]]], near: float, cut_at: float | None
) -> Reach:
    """`found`'s ends within `near` of one of `ends`, each a region with the action keys an
    end in it needs (the target it touches); an end belongs to the first that holds it."""
    for region, _ in ends:
        shapely.prepare(region)

    def owner(p: Point2) -> Mapping[str, Any] | None:
        q = Point(p)
        return next((keys for region, keys in ends if region.dwithin(q, near)), None)

    def keys_at(p: Point2) -> dict[str, Any]:
        keys = owner(p)
        return {} if keys is None else dict(keys)

    def path_to(p: Point2) -> list[Any] | None:
        return None if owner(p) is None else found.path_to(p)

    area = shapely.union_all([region for region, _ in ends]) if ends else shapely.Polygon()
    shapely.prepare(area)  # the board asks whether it holds the pointer on every drag
    return Reach(found.unit_id, found.action_type, area, found.allowance, path_to, cut_at, keys_at)
