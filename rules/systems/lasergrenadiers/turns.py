"""The live table's order of play (LG-D31, LG-D37): the sides alternate activations of
single pieces. The side with the initiative names a piece by acting with it; that piece
makes any number of actions within its allowance; ending the part ends the activation
and passes the initiative. A piece activates at most once a turn (`state.activated`);
a side with no piece left passes; when no piece is left, or every side has passed in
a row, the turn ends and `moved`, `transfers` and `activated` start afresh. The first
initiative alternates from turn to turn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.judgement import who
from rules.engine.numbers import fmt
from rules.engine.turns import Json, TurnStructure, without
from rules.engine.verdict import Violation
from rules.model.errors import InvalidActionError
from rules.model.state import GameState
from rules.systems.lasergrenadiers.accounting import moved, remaining, speed_band

CITE = "LG-D31"


class LgTurns(TurnStructure):
    reset_each_turn = ("moved", "transfers", "activated", "translated")
    first_side_alternates = True
    end_part_label = "End activation"

    # -- who may act now ---------------------------------------------------------------
    def refusal(
        self, turn: Json, position: Json, side: str, action: Json | None = None
    ) -> Violation | None:
        refused = super().refusal(turn, position, side, action)
        if refused is not None or not action or not action.get("unit"):
            return refused
        active = turn.get("active_unit")
        uid = action["unit"]
        if active and uid != active and not _unloads(action, active, position):
            return Violation(
                "not_your_turn",
                f"{active} is active: end its activation before {uid} acts",
                None,
                CITE,
            )
        if not active and uid in position.get("state", {}).get("activated", []):
            return Violation("not_your_turn", f"{uid} has already activated this turn", None, CITE)
        return None

    def unit_may_take(self, position: GameState, unit_id: str, action_type: str) -> bool:
        return unit_id not in position.turn.get("activated", [])

    def acted(self, turn: Json, position: Json, action: Json) -> Json:
        """The piece that acted is the active one until its side ends the activation."""
        if not action.get("unit") or turn.get("active_unit"):
            return turn
        return {**turn, "active_unit": action["unit"], "passes": 0}

    # -- changes -----------------------------------------------------------------------
    def end_part(
        self, turn: Json, position: Json, *, whole_turn: bool = False
    ) -> tuple[Json, Json]:
        """End the activation (or pass) and hand the initiative on; the turn ends when no
        piece is left to any side or every side has passed in a row."""
        if whole_turn:
            return self.next_turn(without(turn, ("active_unit", "passes")), position)
        state = dict(position.get("state", {}))
        active = turn.get("active_unit")
        passes = 0 if active else int(turn.get("passes", 0)) + 1
        if active:
            state["activated"] = [*state.get("activated", []), active]
        position = {**position, "state": state}
        sides = self.order(turn)
        current = turn.get("active_side")
        start = sides.index(current) if current in sides else -1
        left = {s: self.pieces_left(position, s) for s in sides}
        new_turn = {**without(turn, ("active_unit",)), "passes": passes}
        if not any(left.values()) or passes >= len(sides):
            return self.next_turn(without(new_turn, ("passes",)), position)
        for k in range(1, len(sides) + 1):
            side = sides[(start + k) % len(sides)]
            if left[side]:
                new_turn["active_side"] = side
                return new_turn, position
        return self.next_turn(without(new_turn, ("passes",)), position)

    def pieces_left(self, position: Json, side: str) -> list[str]:
        """Pieces of `side` that may still activate this turn (on the table or aboard)."""
        state = position.get("state", {})
        done = set(state.get("activated", [])) | set(state.get("left_board", []))
        return [
            u["id"]
            for u in position.get("units", [])
            if u.get("side") == side and u.get("id") not in done
        ]

    def begin(self, sides: list[str], position: Json) -> tuple[Json, Json]:
        turn, position = super().begin(sides, position)
        return {**turn, "passes": 0}, position

    def next_turn(self, turn: Json, position: Json) -> tuple[Json, Json]:
        new_turn, position = super().next_turn(without(turn, ("active_unit",)), position)
        return {**new_turn, "passes": 0}, position

    # -- what the board shows --------------------------------------------------------------
    def active_unit(self, turn: Json, position: GameState) -> str | None:
        """The piece whose activation runs (LG-D31), for the board to highlight: one on
        the table (in the position and not aboard anything)."""
        active = position.unit(str(turn.get("active_unit") or ""))
        return active.id if active is not None and active.on_table else None

    def budget(self, turn: Json, position: GameState) -> str:
        """The active piece's allowance left and speed band: "Grav tank: 12\" left,
        moderate"."""
        # The header never names a piece off the table: one that left the board (a loss,
        # 003 Leaving the board 1) or went aboard has nothing left to show.
        active = self.active_unit(turn, position)
        unit = None if active is None else position.unit(active)
        if unit is None:
            return ""
        left = max(remaining(position, unit), 0.0)
        return f'{who(unit)}: {fmt(left)}" left, {speed_band(unit, moved(position, unit.id))}'


def _unloads(action: Json, active: str, position: Json) -> bool:
    """A vehicle unloading the active piece acts for it (LG-D31: pieces aboard activate on
    their own to unload). Asked with no `passengers` (the board asking what a vehicle may
    do now), an unload is open to the vehicle the active piece is aboard; the engine then
    judges the proposal, which must name the pieces."""
    if action.get("type") != "unload":
        return False
    if "passengers" not in action:
        return any(
            u.get("id") == active and u.get("aboard") == action.get("unit")
            for u in position.get("units", [])
        )
    passengers = action["passengers"]
    return isinstance(passengers, list) and any(
        isinstance(p, dict) and p.get("unit") == active for p in passengers
    )


def check_turn(turn: Mapping[str, Any], key: str = "state") -> None:
    """The types of the turn-state keys of lasergrenadiers.md 12 and 12b;
    other keys are the table's own and pass through."""
    spent = turn.get("moved", {})
    if not isinstance(spent, dict) or any(
        isinstance(v, bool) or not isinstance(v, int | float) or v < 0 for v in spent.values()
    ):
        raise InvalidActionError(f"{key}.moved", "expected {unit id: inches spent, >= 0}")
    for name in ("left_board", "activated", "translated"):
        value = turn.get(name, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise InvalidActionError(f"{key}.{name}", "expected a list of unit ids")
    events = turn.get("transfers", [])
    if not isinstance(events, list):
        raise InvalidActionError(f"{key}.transfers", "expected a list of transfer events")
    for i, e in enumerate(events):
        k = f"{key}.transfers[{i}]"
        if (
            not isinstance(e, dict)
            or not isinstance(e.get("vehicle"), str)
            or e.get("kind") not in ("load", "unload")
            or not isinstance(e.get("pieces", []), list)
        ):
            raise InvalidActionError(
                k, 'expected {"vehicle", "kind": "load" | "unload", "pieces": [ids]}'
            )
    areas = turn.get("entry_areas", {})
    if not isinstance(areas, dict):
        raise InvalidActionError(f"{key}.entry_areas", "expected {side: [segment, ...]}")
    for side, segments in areas.items():
        ok = isinstance(segments, list) and all(
            isinstance(s, list)
            and len(s) == 2
            and all(
                isinstance(p, list)
                and len(p) == 2
                and all(isinstance(c, int | float) and not isinstance(c, bool) for c in p)
                for p in s
            )
            for s in segments
        )
        if not ok:
            raise InvalidActionError(
                f"{key}.entry_areas.{side}", "expected a list of segments [[x, y], [x, y]]"
            )
