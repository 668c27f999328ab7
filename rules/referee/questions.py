"""The board's three questions, answered by the engine (scenario-format.md, "Other commands").

What the board shades (`reach_answer`), proposes after a refusal (`alternative_answer`) and
offers (`offers_answer`) comes from these functions and nowhere else: the live table
(tabletop/services/table/) and `python -m rules reach|alternative|offers` both call them,
so that what a player is shown is what the referee rules (ui.md, "One truth").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from shapely.geometry import GeometryCollection, mapping

from rules.engine.catalogue import ActionSpec
from rules.model.actions import Action
from rules.model.errors import InvalidActionError
from rules.model.state import GameState
from rules.referee.alternative import nearest_alternative
from rules.referee.offers import is_offered, offered_types
from rules.systems.registry import get_system


def reach_answer(state: GameState, action: Action) -> dict[str, Any]:
    """Where `action`'s unit may end with one action of its type: {"unit", "type",
    "area": GeoJSON | None, "complete", "horizon"}. `area` is None for a type that does not
    move the unit; an empty GeometryCollection where it can end nowhere."""
    system = get_system(state.system)
    out: dict[str, Any] = {"unit": action.unit, "type": action.type}
    if not moves_the_unit(action.type, system.actions):
        return {**out, "area": None, "complete": True, "horizon": 0.0}
    if not is_offered(state, action.unit, action.type):
        # Refused whatever the path (no orders or points left, not its turn, the wrong
        # kind of unit): there is nowhere it may end with this action now.
        return {**out, "area": mapping(GeometryCollection()), "complete": True, "horizon": 0.0}
    try:
        found = system.reach(state, action.unit, action.type)
    except NotImplementedError:
        return {**out, "area": None, "complete": True, "horizon": 0.0}
    except InvalidActionError:
        # A unit aboard, or not on the table: there is nowhere it may end.
        return {**out, "area": mapping(GeometryCollection()), "complete": True, "horizon": 0.0}
    if found.area is None:
        return {**out, "area": None, "complete": True, "horizon": 0.0}
    return {
        **out,
        "area": dict(mapping(found.area)),
        "complete": found.complete,
        "horizon": round(found.horizon, 3),
    }


def moves_the_unit(action_type: str, catalogue: Sequence[ActionSpec]) -> bool:
    """Whether an action of this type can move its unit: every catalogue type with a path
    (free, straight, or a placement); not one drawn with none or a turn in place (a vent,
    a free spin, a dodge)."""
    spec = next((s for s in catalogue if s.type == action_type), None)
    return spec is not None and spec.path not in ("none", "turn")


def alternative_answer(state: GameState, action: Action, legal: bool) -> dict[str, Any]:
    """{"legal", "alternative"}: for a refused action the nearest legal one the engine
    finds (an ACTION `validate` accepts in `state`), or None."""
    if legal:
        return {"legal": True, "alternative": None}
    found = nearest_alternative(state, action)
    return {"legal": False, "alternative": None if found is None else found.to_json()}


def offers_answer(state: GameState, table_turn: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """{"offers": {unit id: [action types]}} for every unit of the position."""
    return {"offers": offered_types(state, table_turn)}
