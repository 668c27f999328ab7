"""The states a piece shows, as each system's catalogue declares them (issue 23, "Markers
on pieces"): read from a scenario-shaped position by the engine, never by the web side."""

import rules
from tests.rules.scenes import unit

TABLE = {"width": 24, "height": 24}


def labels(system: str, position: dict) -> dict[str, list[str]]:
    """Each piece's marker labels, read from the position as the engine holds it."""
    state = rules.state_from_json({"system": system, **position})
    return {
        uid: [m["label"] for m in marks]
        for uid, marks in rules.SYSTEMS[system].markers(state).items()
    }


def pieces(kind: str, *keys: dict) -> list[dict]:
    """Pieces of one type, a row apart, each with its keys."""
    return [unit(k["id"], type=kind, position=(5 + 3 * i, 5), **k) for i, k in enumerate(keys)]


def test_a_unit_key_shows_by_its_value_and_a_state_list_by_the_ids_it_holds():
    units = pieces(
        "soldier",
        {"id": "S1", "stance": "prone", "activated": True},
        {"id": "S2", "stance": "standing", "running": True},
        {"id": "S3", "stance": "crouching", "aboard": "T1"},
        {"id": "T1"},  # what S3 is aboard, showing nothing
    )
    assert labels("apskirmish", {"table": TABLE, "terrain": [], "units": units}) == {
        "S1": ["activated", "prone"],
        "S2": ["running"],
        "S3": ["crouching", "aboard"],
    }
    aod = pieces("mech", {"id": "M1", "shutdown": True}, {"id": "M2", "evade": False}, {"id": "M3"})
    position = {"table": TABLE, "terrain": [], "units": aod, "state": {"ordered": ["M3"]}}
    assert labels("aod", position) == {
        "M1": ["shut down"],
        "M3": ["ordered"],
    }


def test_a_lasergrenadiers_piece_shows_its_speed_band_once_it_has_spent_allowance():
    """003 Movement and fire: 8 of a 24 rate is slow, 16 moderate (LG-D27, bounds inclusive)."""
    base = {"shape": "circle", "diameter": 1}
    units = [
        {"id": f"G{i}", "side": "P1", "type": "grav", "move": 24, "base": base,
         "position": [5 + 3 * i, 5], "facing": 0}
        for i in range(3)
    ]  # fmt: skip
    position = {
        "table": {"width": 48, "height": 48},
        "terrain": [],
        "units": units,
        "state": {"moved": {"G0": 8, "G1": 16}, "activated": ["G0"]},
    }
    assert labels("lasergrenadiers", position) == {
        "G0": ["activated", "slow speed"],
        "G1": ["moderate speed"],
    }


def test_every_system_declares_its_states_with_a_label_and_help():
    for system in rules.SYSTEMS.values():
        assert system.state_markers, system.key
        for marker in system.state_markers:
            assert marker.label and marker.help and marker.source in ("unit", "state")
