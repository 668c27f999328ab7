"""Rounds and activations (apskirmish.md 6b, APS-D22, APS-D23), as the kernel alternates
single-soldier activations (rules/engine/activations.py).

The running activation is also the position's `state.active_unit` (the live position
keeps the key from the battle's start, None between activations; the engine sets it
when a soldier acts, moves.py). A side that ends its part without having picked anyone
has its first soldier not yet activated stand for its activation, so that a round always
ends. A new round gives `ap` back (`ap_max`, else the table option `ap_per_round`, 3),
clears `activated` and Running tokens. A Dodge is a reaction: any side, any time.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.activations import ActivationTurns
from rules.engine.judgement import who
from rules.engine.turns import Json, without
from rules.engine.verdict import Violation
from rules.model.errors import InvalidActionError
from rules.model.state import GameState
from rules.systems.apskirmish.tables import ACTIONS, DEFAULT_AP_PER_ROUND


def _units(position: Json) -> list[Json]:
    return [u for u in position.get("units", []) if not u.get("aboard")]


def new_round(position: Json) -> Json:
    """Every soldier gets its AP back, is not activated, and loses its Running token."""
    options = (position.get("table") or {}).get("options") or {}
    per_round = options.get("ap_per_round", DEFAULT_AP_PER_ROUND)  # without `ap_max` (APS-D22)
    units = [
        {
            **without(u, ("running",)),
            "ap": per_round if u.get("ap_max") is None else u["ap_max"],
            "activated": False,
        }
        for u in position.get("units", [])
    ]
    return {
        **position,
        "units": units,
        "state": {**(position.get("state") or {}), "active_unit": None},
    }


class ApsTurns(ActivationTurns):
    """Rounds of single-soldier activations; the soldier keeps its `activated` flag
    (apskirmish.md 2), and the position its `state.active_unit` (APS-D3)."""

    turn_word = "Round"
    cite = "APS-D23"

    def activates(self, action_type: Any) -> bool:
        """A Dodge is a reaction, out of turn (004 Dodging, APS-D34)."""
        return action_type not in ACTIONS or ACTIONS[action_type].activates

    def running(self, turn: Json, state: Mapping[str, Any]) -> str | None:
        """The position's `state.active_unit` (its turn state), else the table's turn's."""
        found = state.get("active_unit") or turn.get("active_unit")
        return str(found) if found else None

    def refused_again(self, position: Json, unit_id: str) -> Violation | None:
        unit = next((u for u in _units(position) if u.get("id") == unit_id), {})
        if not unit.get("activated"):
            return None
        name = unit.get("name")
        name = name if isinstance(name, str) and name else unit_id
        return Violation(
            "action_not_allowed", f"{name} has already activated this round.", None, self.cite
        )

    def has_activated(self, position: GameState, unit_id: str) -> bool:
        unit = position.unit(unit_id)
        return unit is not None and unit.on_table and unit.flag("activated")

    def waiting(self, position: Json, side: str) -> list[str]:
        return [
            str(u["id"])
            for u in _units(position)
            if u.get("side") == side and not u.get("activated")
        ]

    def mark_activated(self, position: Json, unit_id: str) -> Json:
        units = [
            {**u, "activated": True} if u.get("id") == unit_id else u
            for u in position.get("units", [])
        ]
        return {**position, "units": units}

    def stands_in(self, position: Json, side: str) -> str | None:
        return next(iter(self.waiting(position, side)), None)

    def activation_ended(self, position: Json) -> Json:
        return {**position, "state": {**(position.get("state") or {}), "active_unit": None}}

    def begin(self, sides: list[str], position: Json) -> tuple[Json, Json]:
        turn, position = super().begin(sides, position)
        return turn, self.new_turn_units(position)

    def new_turn_units(self, position: Json) -> Json:
        return new_round(position)

    def budget(self, turn: Json, position: GameState) -> str:
        """The active soldier's AP left, or how many soldiers the side has to activate."""
        running = self.running(turn, position.turn)
        unit = position.unit(running) if running else None
        if unit is not None and unit.on_table:
            ap = unit.get("ap")
            return (
                f"{who(unit)}: {ap:g} AP left"
                if isinstance(ap, int | float)
                else f"{who(unit)} activating"
            )
        side = turn.get("active_side")
        waiting = sum(
            1 for u in position.units if u.on_table and u.side == side and not u.flag("activated")
        )
        return f"{waiting} soldier{'s' if waiting != 1 else ''} to activate"


def check_turn(turn: Mapping[str, Any], key: str = "state") -> None:
    active = turn.get("active_unit")
    if active is not None and not isinstance(active, str):
        raise InvalidActionError(f"{key}.active_unit", "expected a unit id")
