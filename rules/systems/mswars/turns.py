"""The mswars turn: two Movement Phases, sides in turn within each (MSW-D40), and the
turn state keys (mswars.md section 6: phase, actions_taken, action_points, free_turn_used)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.turns import Json, TurnStructure
from rules.model.errors import InvalidActionError
from rules.model.state import GameState


class MswarsTurns(TurnStructure):
    phases = (1, 2)
    reset_each_phase = ("free_turn_used",)
    reset_each_turn = ("actions_taken", "free_turn_used", "action_points")
    first_side_alternates = True

    def begin(self, sides: list[str], position: Json) -> tuple[Json, Json]:
        """The first turn's action points come from the roster too (MSW-D40)."""
        turn, position = super().begin(sides, position)
        if "action_points" in position.get("state", {}):
            return turn, position
        return turn, with_roster_points(position)

    def new_turn_units(self, position: Json) -> Json:
        """A unit that fell last turn must straighten up (002 Falling); action points come
        back from each unit's roster value, if it has one (MSW-D40)."""
        units = [
            {**u, "fallen": "straighten"} if u.get("fallen") == "this_turn" else u
            for u in position.get("units", [])
        ]
        return with_roster_points({**position, "units": units})

    def budget(self, turn: Json, position: GameState) -> str:
        points = position.turn.get("action_points")
        if not isinstance(points, Mapping):
            return ""
        side = turn.get("active_side")
        mine = [points[u.id] for u in position.units if u.side == side and u.id in points]
        return f"{sum(mine):g} AP left" if mine else ""


def roster_points(unit: Json) -> float | None:
    for key in ("action_points", "ap"):
        value = unit.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return value
    return None


def with_roster_points(position: Json) -> Json:
    """`state.action_points` from the units that have a roster value (else unchanged)."""
    points = {
        u["id"]: roster_points(u) for u in position.get("units", []) if roster_points(u) is not None
    }
    if not points:
        return position
    return {**position, "state": {**position.get("state", {}), "action_points": points}}


def phase_of(turn: Mapping[str, Any]) -> int:
    return int(turn.get("phase", 1))


def entries(turn: Mapping[str, Any], unit_id: str) -> list[Mapping[str, Any]]:
    """The move actions a unit has made this turn (MSW-D34)."""
    return list(turn.get("actions_taken", {}).get(unit_id, []))


def acted_in(turn: Mapping[str, Any], unit_id: str, phase: int) -> list[Mapping[str, Any]]:
    return [e for e in entries(turn, unit_id) if e.get("phase") == phase]


def check_turn(turn: Mapping[str, Any], key: str = "state") -> None:
    phase = turn.get("phase", 1)
    if phase not in (1, 2) or isinstance(phase, bool):
        raise InvalidActionError(f"{key}.phase", "expected 1 or 2")
    taken = turn.get("actions_taken", {})
    if not isinstance(taken, dict):
        raise InvalidActionError(f"{key}.actions_taken", "expected {unit id: [entries]}")
    for uid, items in taken.items():
        if not isinstance(items, list) or not all(
            isinstance(e, dict) and e.get("phase") in (1, 2) and isinstance(e.get("type"), str)
            for e in items
        ):
            raise InvalidActionError(
                f"{key}.actions_taken.{uid}", 'expected a list of {"phase": 1 or 2, "type": ...}'
            )
    for name, kind in (("action_points", (int, float)), ("free_turn_used", (bool,))):
        value = turn.get(name, {})
        if not isinstance(value, dict) or not all(
            isinstance(v, kind) and (kind == (bool,) or not isinstance(v, bool))
            for v in value.values()
        ):
            raise InvalidActionError(f"{key}.{name}", "expected {unit id: value}")
