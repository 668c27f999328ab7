"""Formations (000 [29], 11.1) and capture / captors (001 [26-27], 11.3)."""

from __future__ import annotations

from typing import Any

from rules import validate
from tests.rules.scenes import scene, unit


def trio(**c: Any) -> Any:
    return scene(
        [
            unit("A", type="infantry", move=4, position=(10, 10), faction="X"),
            unit("B", type="infantry", move=5, position=(11, 10), faction="X"),
            unit(
                "C",
                **{"type": "wheeled", "move": 8, "position": (12, 10), "faction": "Mercenary", **c},
            ),
        ]
    )


def moves(dy: float = 3, **over: Any) -> dict[str, Any]:
    ms = [{"unit": u, "path": [[x, 10 + dy]]} for u, x in (("A", 10), ("B", 11), ("C", 12))]
    for m in ms:
        if m["unit"] in over:
            m["path"] = over[m["unit"]]
    return {"unit": "A", "type": "formation_move", "moves": ms}


def test_a_grouped_formation_moves_as_one_order_at_the_slowest_speed() -> None:
    """Max. speed = slowest (000 [29], AOD-D25); one order for all members."""
    v = validate(trio(), moves(3))
    assert v.legal, v.reasons
    assert sorted(v.state_after.turn["ordered"]) == ["A", "B", "C"]
    assert v.state_after.turn["orders_used"] == 1


def test_a_member_faster_than_the_slowest_is_speed_exceeded() -> None:
    v = validate(trio(), moves(4.5))
    assert "speed_exceeded" in v.codes


def test_a_member_left_behind_breaks_the_grouping() -> None:
    """Each member touches another before and after (AOD-D12)."""
    v = validate(trio(), moves(3, C=[[14, 10]]))
    assert "formation_invalid" in v.codes


def test_vtols_never_join_formations() -> None:
    """000 [18]."""
    v = validate(trio(type="vtol"), moves(3))
    assert "formation_invalid" in v.codes or "order_not_allowed" in v.codes


def test_two_factions_cannot_share_a_formation_but_mercenaries_can() -> None:
    assert validate(trio(faction="Y"), moves(3)).codes == ["formation_invalid"]


def test_two_members_are_too_few() -> None:
    s = scene(
        [
            unit("A", type="infantry", move=4, position=(10, 10)),
            unit("B", type="infantry", move=4, position=(11, 10)),
        ]
    )
    v = validate(
        s,
        {
            "unit": "A",
            "type": "formation_move",
            "moves": [{"unit": "A", "path": [[10, 12]]}, {"unit": "B", "path": [[11, 12]]}],
        },
    )
    assert v.codes == ["formation_invalid"]


def captive_scene() -> Any:
    return scene(
        [
            unit("I", type="infantry", move=4, position=(10, 10)),
            unit("E", side="P2", type="wheeled", move=6, position=(11, 10)),
        ]
    )


def test_a_successful_capture_marks_the_captive() -> None:
    v = validate(captive_scene(), {"unit": "I", "type": "capture", "target": "E"}, outcomes=[True])
    assert v.legal
    assert v.state_after.unit("E").get("captive_of") == "I"


def test_a_capture_without_forced_outcome_is_unresolved_and_changes_no_capture_state() -> None:
    """AOD-D32."""
    v = validate(captive_scene(), {"unit": "I", "type": "capture", "target": "E"})
    assert v.legal
    assert v.events[0]["result"] == "unresolved"
    assert v.state_after.unit("E").get("captive_of") is None


def test_a_capture_needs_base_contact() -> None:
    s = scene(
        [
            unit("I", type="infantry", move=4, position=(10, 10)),
            unit("E", side="P2", type="wheeled", move=6, position=(13, 10)),
        ]
    )
    assert validate(s, {"unit": "I", "type": "capture", "target": "E"}).codes == [
        "order_not_allowed"
    ]


def test_a_captor_carries_its_captive_at_the_slower_speed() -> None:
    """Captors move at min(captor, captive) and keep the captive in contact (001 [27])."""
    s = scene(
        [
            unit("I", type="infantry", move=6, position=(10, 10)),
            unit("E", side="P2", type="wheeled", move=4, position=(11, 10), captive_of="I"),
        ]
    )
    ok = validate(s, {"unit": "I", "type": "move", "path": [[10, 14]]})
    assert ok.legal and ok.state_after.unit("E").position == (11.0, 14.0)
    too_far = validate(s, {"unit": "I", "type": "move", "path": [[10, 15]]})
    assert too_far.codes == ["speed_exceeded"]


def test_a_captor_may_only_be_given_move_orders() -> None:
    s = scene(
        [
            unit("I", type="infantry", move=6, position=(10, 10)),
            unit("E", side="P2", type="wheeled", move=4, position=(11, 10), captive_of="I"),
        ]
    )
    assert validate(s, {"unit": "I", "type": "capture", "target": "E"}).codes == [
        "order_not_allowed"
    ]
