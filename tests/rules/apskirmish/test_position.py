"""What a position of this system may hold (scenario-format.md, apskirmish; APS-D36): a
soldier without `move` (the stance table applies) reads and writes back without one;
ill-typed keys and unknown options are refused naming the key."""

from __future__ import annotations

import pytest

from rules import InvalidActionError, state_from_json, state_to_json
from tests.rules.apskirmish.build import board, soldier


def test_a_soldier_without_move_reads_back_without_one() -> None:
    state = board([soldier()])
    written = state_to_json(state)
    assert "move" not in written["units"][0]
    assert state_from_json(written) == state


def test_a_soldier_with_move_keeps_it() -> None:
    assert state_to_json(board([soldier(move=5)]))["units"][0]["move"] == 5


def test_other_systems_still_need_move() -> None:
    with pytest.raises(InvalidActionError) as err:
        state_from_json(
            {
                "system": "aod",
                "table": {"width": 10, "height": 10},
                "units": [
                    {
                        "id": "M",
                        "side": "P1",
                        "type": "mech",
                        "base": {"shape": "circle", "diameter": 1},
                        "position": [5, 5],
                    }
                ],
            }
        )
    assert err.value.key == "units[0].move"


@pytest.mark.parametrize(
    ("extra", "key"),
    [
        ({"stance": "kneeling"}, "units[0].stance"),
        ({"ap": -1}, "units[0].ap"),
        ({"activated": "yes"}, "units[0].activated"),
        ({"stats": {"PSQ": "high"}}, "units[0].stats.PSQ"),
        ({"threshold": 1.5}, "units[0].threshold"),
    ],
)
def test_an_ill_typed_soldier_key_is_refused_naming_it(extra: dict[str, object], key: str) -> None:
    with pytest.raises(InvalidActionError) as err:
        board([soldier(**extra)])
    assert err.value.key == key


@pytest.mark.parametrize(
    ("options", "key"),
    [
        ({"tests": "d6"}, "table.options.tests"),
        ({"ap_per_round": -2}, "table.options.ap_per_round"),
        ({"hover_column": True}, "table.options.hover_column"),
    ],
)
def test_table_options_are_the_notes_own(options: dict[str, object], key: str) -> None:
    with pytest.raises(InvalidActionError) as err:
        board([soldier()], options=options)
    assert err.value.key == key
