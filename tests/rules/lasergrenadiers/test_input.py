"""Malformed lasergrenadiers input raises InvalidActionError naming the key (design.md,
style 1; scenario-format.md: the system's keys)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from rules import InvalidActionError
from tests.rules.lasergrenadiers.build import area, board, piece


@pytest.mark.parametrize(
    "units,terrain,state,options,key",
    [
        ([piece(damage_levels=3)], [], {}, {}, "units[0].damage_levels"),
        ([piece(size=math.inf)], [], {}, {}, "units[0].size"),
        ([piece()], [area("S", "slope", 0, 0, 4, 4)], {}, {}, "terrain[0].uphill"),
        ([piece()], [], {"moved": {"U": -1}}, {}, "state.moved"),
        ([piece()], [], {"transfers": [{"vehicle": "V"}]}, {}, "state.transfers[0]"),
        ([piece()], [], {}, {"turn_bands": [[90, 0.5]]}, "table.options.turn_bands"),
        ([piece()], [], {}, {"rubble_multiplier": 0}, "table.options.rubble_multiplier"),
    ],
)
def test_malformed_input_names_its_key(
    units: list[Any], terrain: list[Any], state: dict[str, Any], options: dict[str, Any], key: str
) -> None:
    with pytest.raises(InvalidActionError) as raised:
        board(units, terrain, state, options)
    assert raised.value.key == key
