"""Rounds and activations (apskirmish.md 6b, APS-D22, APS-D23).

Play is in rounds. The sides alternate: the active side picks one soldier that has not
activated this round; its activation runs (`state.active_unit`: the live position keeps
the key from the battle's start, None between activations, and the engine sets it when a
soldier acts, see activation.py) while it spends AP on any number of actions; ending the
part ends the activation and hands over to the next side that still has a soldier to
activate (a side with nobody left passes). A side that ends its part without having
picked anyone has its first soldier not yet activated stand for its activation, so that
every end of a part uses up one activation and a round always ends. When nobody is left,
the round ends: `ap` back to `ap_max` (else the table option `ap_per_round`, 3),
`activated` false, Running tokens cleared. A Dodge is a reaction: any side, any time.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.turns import Json, TurnStructure, without
from rules.engine.verdict import Violation
from rules.model.errors import InvalidActionError
from rules.model.state import GameState
from rules.systems.apskirmish.tables import ACTIONS, DEFAULT_AP_PER_ROUND


def _units(position: Json) -> list[Json]:
    return [u for u in position.get("units", []) if not u.get("aboard")]


def _name(unit: Json) -> str:
    name = unit.get("name")
    return name if isinstance(name, str) and name else str(unit.get("id"))


def active_unit(turn: Json, state: Mapping[str, Any]) -> str | None:
    """The soldier whose activation runs: the position's `state.active_unit` (its turn
    state), else the table's turn's."""
    found = state.get("active_unit") or turn.get("active_unit")
    return str(found) if found else None


def to_activate(position: Json, side: str) -> list[Json]:
    return [u for u in _units(position) if u.get("side") == side and not u.get("activated")]


def round_ap(unit: Json, position: Json) -> Any:
    """AP a soldier has each round: its roster `ap_max`, else the table option (APS-D22)."""
    if unit.get("ap_max") is not None:
        return unit["ap_max"]
    options = (position.get("table") or {}).get("options") or {}
    return options.get("ap_per_round", DEFAULT_AP_PER_ROUND)


def new_round(position: Json) -> Json:
    """Every soldier gets its AP back, is not activated, and loses its Running token."""
    units = []
    for u in position.get("units", []):
        fresh = {k: v for k, v in u.items() if k != "running"}
        fresh.update(ap=round_ap(u, position), activated=False)
        units.append(fresh)
    return {
        **position,
        "units": units,
        "state": {**(position.get("state") or {}), "active_unit": None},
    }


class ApsTurns(TurnStructure):
    #: A player ends one soldier's activation, not a turn (APS-D23).
    end_part_label = "End activation"

    def begin(self, sides: list[str], position: Json) -> tuple[Json, Json]:
        turn: Json = {"turn": 1, "active_side": sides[0], "sides": list(sides)}
        return turn, new_round(position)

    def refusal(
        self, turn: Json, position: Json, side: str, action: Json | None = None
    ) -> Violation | None:
        kind = None if action is None else action.get("type")
        if kind in ACTIONS and not ACTIONS[kind].activates:
            return None  # a Dodge is a reaction, out of turn (004 Dodging)
        refused = super().refusal(turn, position, side, action)
        if refused is not None or action is None or not action.get("unit"):
            return refused
        unit_id = str(action["unit"])
        running = active_unit(turn, position.get("state") or {})
        if running and running != unit_id:
            return Violation(
                "not_your_turn",
                f"{running} is activating; end its activation before another soldier acts.",
                cite="APS-D23",
            )
        unit = next((u for u in _units(position) if u.get("id") == unit_id), {})
        if unit.get("activated") and running != unit_id:
            return Violation(
                "action_not_allowed",
                f"{_name(unit)} has already activated this round.",
                cite="APS-D23",
            )
        return None

    def unit_may_take(self, position: GameState, unit_id: str, action_type: str) -> bool:
        if action_type in ACTIONS and not ACTIONS[action_type].activates:
            return True
        running = active_unit({}, position.turn)
        if running and running != unit_id:
            return False
        unit = position.unit(unit_id)
        activated = unit is not None and unit.on_table and unit.flag("activated")
        return not activated or running == unit_id

    def acted(self, turn: Json, position: Json, action: Json) -> Json:
        """An activation's action makes its soldier the active one (APS-D23)."""
        kind = action.get("type")
        if kind in ACTIONS and ACTIONS[kind].activates and action.get("unit"):
            return {**turn, "active_unit": action["unit"]}
        return turn

    def end_part(
        self, turn: Json, position: Json, *, whole_turn: bool = False
    ) -> tuple[Json, Json]:
        """The activation ends; the next side with a soldier to activate picks one."""
        if whole_turn:
            return self.next_turn(turn, position)
        side = turn.get("active_side")
        running = active_unit(turn, position.get("state") or {})
        if running is None:
            waiting = to_activate(position, str(side))
            running = str(waiting[0]["id"]) if waiting else None
        units = [
            {**u, "activated": True} if u.get("id") == running else u
            for u in position.get("units", [])
        ]
        position = {
            **position,
            "units": units,
            "state": {**(position.get("state") or {}), "active_unit": None},
        }
        new_turn = without(turn, ("active_unit",))
        sides = self.order(turn)
        start = sides.index(side) if side in sides else -1
        for step in range(1, len(sides) + 1):
            candidate = sides[(start + step) % len(sides)]
            if to_activate(position, candidate):
                return {**new_turn, "active_side": candidate}, position
        return self.next_turn(new_turn, position)

    def next_turn(self, turn: Json, position: Json) -> tuple[Json, Json]:
        new_turn = without(turn, ("active_unit",))
        new_turn["turn"] = int(turn.get("turn", 1)) + 1
        new_turn["active_side"] = self.order(new_turn)[0]
        return new_turn, new_round(position)

    def summary(self, turn: Json, position: GameState) -> str:
        parts = [f"Round {turn.get('turn', 1)}", f"{turn.get('active_side', '?')} to act"]
        extra = self.budget(turn, position)
        if extra:
            parts.append(extra)
        return " · ".join(parts)

    def active_unit(self, turn: Json, position: GameState) -> str | None:
        return active_unit(turn, position.turn)

    def budget(self, turn: Json, position: GameState) -> str:
        """The active soldier's AP left, or how many soldiers the side has to activate."""
        running = active_unit(turn, position.turn)
        unit = position.unit(running) if running else None
        if unit is not None and unit.on_table:
            ap, name = unit.get("ap"), _name({"id": unit.id, **unit.props})
            return (
                f"{name}: {ap:g} AP left" if isinstance(ap, int | float) else f"{name} activating"
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
