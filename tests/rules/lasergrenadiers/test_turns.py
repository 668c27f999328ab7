"""The live table's order of play (LG-D31, LG-D37): alternate activations of single
pieces, each at most once a turn; the turn ends when no piece is left or every side has
passed; `moved`, `transfers` and `activated` reset; the first initiative alternates."""

from __future__ import annotations

from typing import Any

from rules import SYSTEMS, state_from_json
from rules.referee.offers import available_actions

TURNS = SYSTEMS["lasergrenadiers"].turn_structure


def position(state: dict[str, Any] | None = None) -> dict[str, Any]:
    def unit(uid: str, side: str, **extra: Any) -> dict[str, Any]:
        return {
            "id": uid,
            "side": side,
            "type": "grav",
            "move": 36,
            "base": {"shape": "circle", "diameter": 2},
            "position": [10, 10],
            "facing": 0,
            **extra,
        }

    return {
        "system": "lasergrenadiers",
        "table": {"width": 48, "height": 48},
        "terrain": [],
        "units": [unit("G", "P1", name="Grav tank"), unit("H", "P2"), unit("K", "P2")],
        "state": state or {},
    }


def test_the_battle_begins_with_the_first_side_and_no_active_piece() -> None:
    turn, _ = TURNS.begin(["P1", "P2"], position())
    assert turn["turn"] == 1 and turn["active_side"] == "P1"
    assert not turn.get("active_unit")


def test_the_piece_that_acts_is_active_and_no_other_piece_may_act() -> None:
    turn, pos = TURNS.begin(["P1", "P2"], position())
    assert TURNS.refusal(turn, pos, "P1", {"unit": "G", "type": "move"}) is None
    turn = TURNS.acted(turn, pos, {"unit": "G", "type": "move"})
    assert turn["active_unit"] == "G"
    refused = TURNS.refusal(turn, pos, "P2", {"unit": "H", "type": "move"})
    assert refused is not None and refused.code == "not_your_turn"
    pos["units"].append({**pos["units"][0], "id": "G2"})
    other = TURNS.refusal(turn, pos, "P1", {"unit": "G2", "type": "move"})
    assert other is not None and other.code == "not_your_turn"
    assert TURNS.refusal(turn, pos, "P1", {"unit": "G", "type": "unload"}) is None


def test_ending_the_activation_passes_the_initiative_and_the_piece_is_done() -> None:
    turn, pos = TURNS.begin(["P1", "P2"], position())
    turn = TURNS.acted(turn, pos, {"unit": "G", "type": "move"})
    turn, pos = TURNS.end_part(turn, pos)
    assert turn["active_side"] == "P2" and not turn.get("active_unit")
    assert pos["state"]["activated"] == ["G"]
    again = TURNS.refusal({**turn, "active_side": "P1"}, pos, "P1", {"unit": "G", "type": "move"})
    assert again is not None and again.code == "not_your_turn"
    assert not TURNS.unit_may_take(state_from_json(pos), "G", "move")


def test_a_side_with_no_piece_left_passes_and_the_turn_ends_when_none_is_left() -> None:
    turn, pos = TURNS.begin(["P1", "P2"], position({"moved": {"G": 12}, "transfers": []}))
    for uid, side in (("G", "P1"), ("H", "P2")):
        assert turn["active_side"] == side
        turn, pos = TURNS.end_part(TURNS.acted(turn, pos, {"unit": uid, "type": "move"}), pos)
    assert turn["active_side"] == "P2" and turn["turn"] == 1  # P1 has no piece left
    turn, pos = TURNS.end_part(TURNS.acted(turn, pos, {"unit": "K", "type": "move"}), pos)
    assert turn["turn"] == 2
    assert turn["active_side"] == "P2"  # the first initiative alternates
    assert not {"moved", "transfers", "activated"} & set(pos["state"])


def test_the_turn_ends_when_every_side_passes_in_a_row() -> None:
    turn, pos = TURNS.begin(["P1", "P2"], position())
    turn, pos = TURNS.end_part(turn, pos)
    turn, pos = TURNS.end_part(turn, pos)
    assert turn["turn"] == 2


def test_the_header_shows_the_active_piece_its_allowance_left_and_its_speed_band() -> None:
    turn, pos = TURNS.begin(["P1", "P2"], position({"moved": {"G": 24}}))
    turn = TURNS.acted({**turn, "turn": 2}, pos, {"unit": "G", "type": "move"})
    assert (
        TURNS.summary(turn, state_from_json(pos))
        == 'Turn 2 · P1 to act · Grav tank: 12" left, moderate'
    )


def test_the_board_offers_unload_to_the_vehicle_the_active_piece_is_aboard() -> None:
    """LG-D31: pieces aboard activate on their own to unload; the vehicle that carries the
    active piece may unload it, so the board offers that vehicle Unload (no other piece of
    the side acts while the piece is active)."""
    turn, pos = TURNS.begin(["P1", "P2"], position())
    carrier = {**pos["units"][0], "id": "C", "type": "wheeled", "move": 24}
    # Aboard, its position is ignored (scenario-format.md, UNIT `aboard`), but the position
    # must still read as a scenario: the offers are the engine's, judged on the parsed state.
    troopers = {**pos["units"][0], "id": "T", "type": "foot", "move": 6, "aboard": "C"}
    empty = {**carrier, "id": "E"}
    pos["units"] += [carrier, troopers, empty]
    turn = TURNS.acted(turn, pos, {"unit": "T", "type": "unload"})

    def offered(uid: str) -> set[str]:
        return {spec.type for spec in available_actions(pos, uid, turn)}

    assert "unload" in offered("C")
    assert offered("E") == set()  # another vehicle waits for the activation to end
    # A proposal still names the pieces: one that leaves the active piece aboard is refused.
    named_other = {"unit": "C", "type": "unload", "passengers": [{"unit": "X"}]}
    refused = TURNS.refusal(turn, pos, "P1", named_other)
    assert refused is not None and refused.code == "not_your_turn"


def test_a_piece_aboard_an_enemy_vehicle_is_not_offered_the_unload_the_judge_refuses() -> None:
    """003 Transport: a vehicle transports friendly pieces; the judge refuses an unload
    from an enemy's ("is not a friendly vehicle"), and the board must not offer it (the
    offer read only that the vehicle was one, on the table)."""
    from rules import validate

    turn, pos = TURNS.begin(["P1", "P2"], position())
    enemy = {**pos["units"][1], "id": "E", "type": "wheeled", "move": 24, "position": [20, 20]}
    trooper = {**pos["units"][0], "id": "T", "type": "foot", "move": 6, "aboard": "E"}
    pos["units"] += [enemy, trooper]
    offered = {spec.type for spec in available_actions(pos, "T", turn)}
    assert "unload" not in offered
    unload = {"unit": "T", "type": "unload", "passengers": [{"unit": "T", "position": [20, 22.5]}]}
    verdict = validate(state_from_json({**pos, "turn": turn}), unload)
    assert not verdict.legal
    assert any("is not a friendly vehicle" in r.message for r in verdict.reasons)
