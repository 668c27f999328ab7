"""A terrain polygon that repeats a vertex is the same feature as the clean polygon.

Scenario files and the map editor may repeat a point (a double click, a closing
point equal to the first). The contract's polygon is the area, so hindering
(aod.md 6.2, 000 [32]), elevated (6.4, 000 [33]) and abrupt elevated access
(6.5, 000 [34], AOD-D34) must give the verdict they give for the clean polygon.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules import state_from_json, validate
from tests.rules.scenes import scene, unit

CLEAN = [[12, 6], [20, 6], [20, 14], [12, 14]]
#: The same square written with a repeated vertex, in each way a file may repeat one.
REPEATS = {
    "a vertex doubled": [[12, 6], [20, 6], [20, 6], [20, 14], [12, 14]],
    "the first vertex doubled": [[12, 6], [12, 6], [20, 6], [20, 14], [12, 14]],
    "a closing vertex": [[12, 6], [20, 6], [20, 14], [12, 14], [12, 6]],
    "a closing vertex doubled": [[12, 6], [20, 6], [20, 14], [12, 14], [12, 14], [12, 6]],
}


def feature(kind: str, polygon: list[list[float]], **extra: Any) -> dict[str, Any]:
    return {"id": "T1", "type": kind, "polygon": polygon, **extra}


def verdict(
    kind: str,
    polygon: list[list[float]],
    path: list[list[float]],
    start: tuple[float, float] = (8, 10),
    **extra: Any,
) -> tuple[bool, list[str], float]:
    s = scene([unit("M1", move=12, position=start, diameter=2)], [feature(kind, polygon, **extra)])
    v = validate(s, {"unit": "M1", "type": "move", "path": path})
    return v.legal, v.codes, round(v.cost, 4)


@pytest.mark.parametrize("how", REPEATS)
def test_a_repeated_vertex_is_dropped_when_the_polygon_is_read(how: str) -> None:
    s = scene([unit("M1")], [feature("hindering", REPEATS[how])])
    assert s.terrain[0].polygon == tuple((float(x), float(y)) for x, y in CLEAN)


@pytest.mark.parametrize("how", REPEATS)
def test_entering_hindering_with_a_repeated_vertex_still_must_stop(how: str) -> None:
    """000 [32]: moving from clear, the unit must stop at first contact."""
    path = [[14, 10]]
    assert verdict("hindering", REPEATS[how], path) == verdict("hindering", CLEAN, path)
    assert verdict("hindering", REPEATS[how], path)[1] == ["must_stop_hindering"]


@pytest.mark.parametrize("how", REPEATS)
def test_occupying_elevated_with_a_repeated_vertex_still_must_stop(how: str) -> None:
    """000 [33], AOD-D38: the unit stops upon occupying elevated terrain."""
    path = [[16, 10]]
    assert verdict("elevated", REPEATS[how], path) == verdict("elevated", CLEAN, path)
    assert verdict("elevated", REPEATS[how], path)[1] == ["must_stop_hindering"]


@pytest.mark.parametrize("how", REPEATS)
def test_stopping_at_the_elevated_edge_with_a_repeated_vertex_is_legal(how: str) -> None:
    """000 [33]: a path that ends where the centre crosses the edge is legal."""
    path = [[12, 10]]
    assert verdict("elevated", REPEATS[how], path) == verdict("elevated", CLEAN, path)
    assert verdict("elevated", REPEATS[how], path)[0]


@pytest.mark.parametrize("how", REPEATS)
def test_abrupt_access_with_a_repeated_vertex_is_judged_as_for_the_clean_polygon(how: str) -> None:
    """000 [34], AOD-D34: the crossing must lie on an access segment (here it does)."""
    access = {"access": [[[12, 9], [12, 11]]]}
    for path in ([[12, 10]], [[12, 7.5]]):
        expected = verdict("abrupt_elevated", CLEAN, path, **access)
        assert verdict("abrupt_elevated", REPEATS[how], path, **access) == expected


def test_a_polygon_of_fewer_than_three_distinct_points_is_malformed() -> None:
    """Contract: a polygon needs an area; repeats do not count as points."""
    from rules import InvalidActionError

    raw = {
        "system": "aod",
        "table": {"width": 36, "height": 36},
        "terrain": [feature("hindering", [[1, 1], [1, 1], [5, 5], [5, 5]])],
        "units": [],
    }
    with pytest.raises(InvalidActionError) as err:
        state_from_json(raw)
    assert err.value.key == "terrain[0].polygon"
