"""Line of sight as the engine rules it (rules/referee/sight_ruling.py): the kernel's
geometry, and each system's word on what blocks or hinders sight (`System.sight`)."""

from rules.referee.sight_ruling import sight_ruling
from tests.rules.scenes import scene, square, unit

WOOD = square("W1", "hindering", 8, 10, 12, 12)  # aod: hindering terrain hinders sight
ROCK = square("R1", "blocking", 8, 20, 12, 22)  # aod: blocking terrain blocks it


def test_a_line_across_open_ground_is_clear():
    state = scene([unit("M1", position=(2, 5))], [WOOD, ROCK])
    ruling = sight_ruling(state, "M1", (2, 30))
    assert ruling.verdict == "clear"
    assert ruling.to_json()["features"] == []


def test_a_line_through_a_wood_and_a_rock_is_blocked_at_the_rock_and_names_both_nearest_first():
    state = scene([unit("M1", position=(10, 5))], [ROCK, WOOD])
    ruling = sight_ruling(state, "M1", (10, 30))
    assert ruling.verdict == "blocked"
    assert [f.id for f in ruling.features] == ["W1", "R1"]
    assert [f.effect for f in ruling.features] == ["hinders", "blocks"]
    assert ruling.to_json()["blocked_at"] == [10, 20]
    # Terrain by the system's label, for the player (ui.md, "What the player reads").
    assert ruling.features[0].label == "Hindering terrain"


def test_a_line_through_a_wood_alone_is_hindered():
    state = scene([unit("M1", position=(10, 5))], [WOOD])
    assert sight_ruling(state, "M1", (10, 15)).verdict == "hindered"


def test_a_line_grazing_a_features_edge_is_not_in_its_way():
    state = scene([unit("M1", position=(12, 5))], [WOOD])
    assert sight_ruling(state, "M1", (12, 30)).verdict == "clear"


def test_a_piece_sees_out_of_the_feature_it_stands_in():
    state = scene([unit("M1", position=(10, 11))], [WOOD])
    assert sight_ruling(state, "M1", (10, 30)).verdict == "clear"


def test_the_target_units_own_wood_hinders_the_line_to_it():
    state = scene([unit("M1", position=(10, 2)), unit("M2", side="P2", position=(10, 11))], [WOOD])
    assert sight_ruling(state, "M1", "M2").verdict == "hindered"


def test_terrain_the_system_says_nothing_of_for_sight_is_ignored():
    # aod's deep water stops units, not sight (aod catalogue: sight "").
    state = scene([unit("M1", position=(10, 5))], [square("D1", "deep_water", 8, 10, 12, 12)])
    assert sight_ruling(state, "M1", (10, 30)).verdict == "clear"
