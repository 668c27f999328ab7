"""What is built from a map's terrain is built once per map, not once per position (issue 21;
rules/model/map_geometry.py): positions read from the same terrain share its parsed
features and what is derived from them, whatever their units and turn state, and the
verdicts do not change (aod 000 [33]: a unit may not enter blocking terrain)."""

from __future__ import annotations

import copy
import threading
import time
from typing import Any

import pytest

from rules import reach, state_from_json, validate
from rules.engine import scenario
from rules.engine.position import Position
from rules.model.errors import InvalidActionError
from rules.model.map_geometry import MapCache, MapGeometry, map_digest
from tests.rules.scenes import position, square, unit


@pytest.fixture
def builds(monkeypatch: Any) -> list[str]:
    """The keys of what each map builds, as they are built (a fresh cache of maps)."""
    monkeypatch.setattr(scenario, "MAPS", MapCache())
    built: list[str] = []
    real = MapGeometry.memo

    def counting(self: MapGeometry, key: str, factory: Any) -> Any:
        return real(self, key, lambda: (built.append(key), factory())[1])

    monkeypatch.setattr(MapGeometry, "memo", counting)
    return built


def walled(at: tuple[float, float]) -> dict[str, Any]:
    """M1 south of a blocking wall, M2 (the piece a fiat moves) at `at`."""
    return position(
        [unit("M1", position=(10, 5)), unit("M2", side="P2", position=at)],
        [square("R1", "blocking", 6, 9, 14, 11), square("W1", "hindering", 20, 2, 24, 6)],
    )


def test_a_new_position_on_the_same_map_reuses_its_features_and_their_index(
    builds: list[str], monkeypatch: Any
) -> None:
    parsed: list[Any] = []
    real_parse = scenario.parse_terrain
    monkeypatch.setattr(
        scenario, "parse_terrain", lambda raw, key: parsed.append(key) or real_parse(raw, key)
    )
    first = state_from_json(walled((30, 30)))
    reach(first, "M1")
    after_fiat = state_from_json(walled((30, 28)))  # a new dict: as read at a new seq
    reach(after_fiat, "M1")
    assert parsed == ["terrain[0]", "terrain[1]"]  # once, for the first position
    assert after_fiat.terrain is first.terrain and after_fiat.geometry is first.geometry
    assert builds.count("engine.terrain_index") == 1
    assert Position(after_fiat).terrain is Position(first).terrain


def test_the_position_after_an_action_keeps_the_map_it_was_played_on(builds: list[str]) -> None:
    state = state_from_json(walled((30, 30)))
    verdict = validate(state, {"unit": "M1", "type": "move", "path": [[10, 8]]})
    assert verdict.legal and verdict.state_after is not None
    assert verdict.state_after.geometry is state.geometry
    reach(state, "M1")
    reach(verdict.state_after, "M1")
    assert builds.count("engine.terrain_index") == 1


def test_other_terrain_or_another_table_is_another_map(builds: list[str]) -> None:
    raw = walled((30, 30))
    moved = copy.deepcopy(raw)
    moved["terrain"][0]["polygon"][0] = [6.5, 9]
    wider = copy.deepcopy(raw) | {"table": {"width": 40, "height": 36}}
    states = [state_from_json(r) for r in (raw, moved, wider)]
    assert len({id(s.geometry) for s in states}) == 3
    assert states[1].terrain[0].polygon[0] == (6.5, 9.0)


def test_the_cached_map_gives_the_same_verdicts_as_a_fresh_one(monkeypatch: Any) -> None:
    """000 [33]: the wall refuses the move the same whether its map was parsed now or
    kept from an earlier position."""
    action = {"unit": "M1", "type": "move", "path": [[10, 12]]}
    fresh = validate(state_from_json(walled((30, 30))), action)
    kept = validate(state_from_json(walled((30, 29))), action)
    assert not fresh.legal and fresh.to_json() == kept.to_json()
    assert "blocking_terrain" in fresh.codes


def test_the_cache_of_maps_keeps_the_last_ones_read() -> None:
    maps = MapCache(size=2)
    for digest in ("a", "b", "c"):
        maps.keep(digest, ())
    assert maps.get("a") is None and maps.get("b") is not None and maps.get("c") is not None


def test_two_threads_asking_for_one_item_of_a_map_build_it_once() -> None:
    geometry = MapGeometry(())
    built: list[int] = []

    def slow() -> int:
        built.append(1)
        time.sleep(0.05)
        return len(built)

    answers: list[int] = []
    threads = [
        threading.Thread(target=lambda: answers.append(geometry.memo("k", slow))) for _ in range(2)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert built == [1] and answers == [1, 1]


def test_the_shared_cache_is_not_left_with_a_map_that_failed_to_parse(
    builds: list[str],
) -> None:
    raw = walled((30, 30))
    raw["units"][0]["move"] = -1  # refused after the terrain was read
    with pytest.raises(InvalidActionError, match="negative"):
        state_from_json(raw)
    assert scenario.MAPS.get(map_digest(raw)) is None
    raw["units"][0]["move"] = 10
    assert scenario.MAPS.get(map_digest(raw)) is None
    state_from_json(raw)
    assert scenario.MAPS.get(map_digest(raw)) is not None
