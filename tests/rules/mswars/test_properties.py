"""Property tests for mswars beyond those every system shares (which
tests/rules/test_properties.py runs over mswars scenes too: invariance, collinear split,
reach soundness, reach from base contact): reach in the open, and validate never raises."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rules import reach, state_from_json, validate
from tests.rules.mswars.scenes import scenes
from tests.rules.test_properties import FAST


def test_reach_is_not_empty_for_a_walker_in_the_open() -> None:
    """A walker with Move 6 in the open reaches 6" ahead and, with its free turn, 6" to
    its side; behind it costs 2 of the 6 to turn about (180 - 90 free = 90 = 2")."""
    state = state_from_json(
        {
            "system": "mswars",
            "table": {"width": 36, "height": 36},
            "units": [
                {
                    "id": "U",
                    "side": "P1",
                    "type": "walker",
                    "move": 6,
                    "base": {"shape": "circle", "diameter": 1},
                    "position": [18, 18],
                    "facing": 0,
                }
            ],
        }
    )
    found = reach(state, "U")
    assert found.contains((23.9, 18)) and found.contains((18, 23.9))
    assert found.contains((14.1, 18)) and not found.contains((13.9, 18))
    assert found.area.area > 50


ACTION_TYPES = [
    "standard_move",
    "run",
    "climb",
    "break_away",
    "jump",
    "manoeuvre",
    "enter_unit",
    "carrier_unloading",
    "unit_exiting",
    "charge",
]


@FAST
@given(scenes(), st.sampled_from(ACTION_TYPES), st.sampled_from([None, "O0", "O1", "U", "T0"]))
def test_validate_never_raises_for_a_well_formed_action(
    scene: dict[str, Any], action_type: str, target: str | None
) -> None:
    """design.md: validate() never raises for an illegal move; it returns a Verdict with a
    code for every reason."""
    action = dict(scene["action"], type=action_type)
    if target is not None:
        action["target"] = target
        action["carrier"] = target
    if action_type == "carrier_unloading":
        action["unload"] = [
            {"unit": u["id"], "position": u["position"]} for u in scene["units"][1:]
        ]
    v = validate(state_from_json(scene), action, dice=[6] * 12, outcomes=[True] * 4)
    assert v.legal == (not v.reasons)
    assert all(r.code for r in v.reasons)
