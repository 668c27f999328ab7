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

from rules.engine.activations import ActivationTurns
from rules.engine.judgement import who
from rules.engine.numbers import fmt
from rules.engine.turns import Json
from rules.engine.verdict import Violation
from rules.model.errors import InvalidActionError
from rules.model.state import GameState
from rules.systems.lasergrenadiers.accounting import moved, remaining, speed_band

CITE = "LG-D31"


class LgTurns(ActivationTurns):
    """Activations of single pieces; the turn state keeps `activated` (LG-D37)."""

    reset_each_turn = ("moved", "transfers", "activated", "translated")
    first_side_alternates = True
    cite = CITE
    all_passing_ends_turn = True

    def acts_for_running(self, action: Json, running: str, position: Json) -> bool:
        return _unloads(action, running, position)

    def refused_again(self, position: Json, unit_id: str) -> Violation | None:
        if unit_id not in position.get("state", {}).get("activated", []):
            return None
        return Violation("not_your_turn", f"{unit_id} has already activated this turn", None, CITE)

    def has_activated(self, position: GameState, unit_id: str) -> bool:
        return unit_id in position.turn.get("activated", [])

    def mark_activated(self, position: Json, unit_id: str) -> Json:
        state = position.get("state", {})
        return {**position, "state": {**state, "activated": [*state.get("activated", []), unit_id]}}

    def waiting(self, position: Json, side: str) -> list[str]:
        """Pieces of `side` that may still activate this turn (on the table or aboard)."""
        state = position.get("state", {})
        done = set(state.get("activated", [])) | set(state.get("left_board", []))
        return [
            u["id"]
            for u in position.get("units", [])
            if u.get("side") == side and u.get("id") not in done
        ]

    # -- what the board shows --------------------------------------------------------------
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
