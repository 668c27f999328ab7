"""aod's header budget and turn refusal count the side's orders wherever they come from:
`state.orders_available`, else ceil(points / 150) (001 [13], AOD-D22)."""

from __future__ import annotations

from typing import Any

import pytest

from rules import SYSTEMS, GameState, state_from_json

TURNS = SYSTEMS["aod"].turn_structure
P1 = {"turn": 1, "active_side": "P1", "sides": ["P1", "P2"]}


def position(
    state: dict[str, Any], points: tuple[int, ...] = (), options: dict[str, Any] | None = None
) -> dict[str, Any]:
    units = [
        {
            "id": f"M{i}",
            "side": "P1",
            "type": "mech",
            "move": 8,
            "points": p,
            "base": {"shape": "circle", "diameter": 2},
            "position": [5 + 3 * i, 5],
        }
        for i, p in enumerate(points)
    ]
    return {
        "system": "aod",
        "table": {"width": 36, "height": 36, "options": options or {}},
        "terrain": [],
        "units": units,
        "state": state,
    }


def read(
    state: dict[str, Any], points: tuple[int, ...] = (), options: dict[str, Any] | None = None
) -> GameState:
    """The position as the engine holds it: the header reads the parsed position."""
    return state_from_json(position(state, points, options))


def test_the_header_counts_orders_given_by_points() -> None:
    # 250 points: ceil(250 / 150) = 2 orders (AOD-D22); one used, one left.
    assert TURNS.budget(P1, read({"orders_used": 1}, (150, 100))) == "1 order left"


def test_the_header_counts_the_gms_orders_first() -> None:
    assert TURNS.budget(P1, read({"orders_available": 3}, (150,))) == "3 orders left"


def test_the_header_says_nothing_where_orders_are_not_limited() -> None:
    assert TURNS.budget(P1, read({})) == ""
    assert TURNS.budget(P1, read({}, (300,), {"orders_from_points": False})) == ""


def test_a_side_with_2_of_2_orders_from_points_is_refused_the_next() -> None:
    refused = TURNS.refusal(
        P1, position({"orders_used": 2}, (150, 100)), "P1", {"unit": "M0", "type": "move"}
    )
    assert refused is not None and refused.code == "no_actions_left"
    assert "2 orders" in refused.message


def test_the_board_reads_a_positions_order_count_once(monkeypatch) -> None:
    """Section 3 (orders per turn, 001 [13]) is asked of every unit for every order type
    when the board's offers are made; the turn state is read once per position."""
    import json
    from pathlib import Path

    from rules import load_scenario
    from rules.referee.board_view import board_view
    from rules.systems.aod.turn import AodTurn

    golden = Path(__file__).parents[1] / "golden" / "aod"
    state = load_scenario(
        json.loads(
            (golden / "03_two_of_two_orders_used_no_unit_is_offered_a_move.json").read_text()
        )
    ).state
    reads = []
    real = AodTurn.of.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(
        AodTurn, "of", classmethod(lambda cls, turn: reads.append(1) or real(cls, turn))
    )
    view = board_view(state, {"turn": 1, "active_side": "P2", "sides": ["P1", "P2"]})
    assert len(state.units) > 1 and "move" in view["actions"]["M9"]
    assert len(reads) == 1


class PointsRead(dict):
    """A unit's JSON that records each read of its `points`."""

    reads: list[str] = []

    def get(self, key: str, default: Any = None) -> Any:
        if key == "points":
            PointsRead.reads.append(str(self["id"]))
        return super().get(key, default)


def test_the_gms_orders_are_counted_without_reading_a_units_points() -> None:
    # 001 [13], AOD-D22: `state.orders_available` (the GM's) gives the side's orders; its
    # units' points then count for nothing, and the board asks the turn's refusal for
    # every unit and order type, so they are not read.
    given = position({"orders_available": 3, "orders_used": 1}, (150, 100, 50))
    given["units"] = [PointsRead(u) for u in given["units"]]
    PointsRead.reads = []
    move = {"unit": "M0", "type": "move"}
    assert TURNS.refusal(P1, given, "P1", move) is None
    spent = {**given, "state": {"orders_available": 1, "orders_used": 1}}
    assert TURNS.refusal(P1, spent, "P1", move) is not None
    assert PointsRead.reads == []
    # Without the GM's figure the points count: ceil(300 / 150) = 2 orders, 1 used.
    assert TURNS.refusal(P1, {**given, "state": {"orders_used": 1}}, "P1", move) is None
    assert sorted(PointsRead.reads) == ["M0", "M1", "M2"]


@pytest.mark.parametrize("state", [{}, {"orders_used": 2}, {"free_spin_pending": ["M0"]}])
def test_a_side_refused_every_action_is_refused_each_type(state) -> None:
    # Section 3: sides give their orders in turn; out of its turn a side may give no
    # order, nor a free spin (000 FREE SPINS). The board asks that once per side
    # (`refuses_every_action`): it must agree with the refusal of every type.
    from rules.systems.aod.catalogue import ACTIONS

    given = position(state, (150, 100))
    for side, turn in (("P1", P1), ("P2", P1), ("P1", {**P1, "active_side": "P2"})):
        every = TURNS.refuses_every_action(turn, given, side)
        refused = [
            TURNS.refusal(turn, given, side, {"unit": "M0", "type": spec.type}) is not None
            for spec in ACTIONS
        ]
        assert every == (side != turn["active_side"])
        assert not every or all(refused)
