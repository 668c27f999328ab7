"""Positions and scenarios read by the system they name, looked up in the registry."""

from __future__ import annotations

from typing import Any

from rules.engine.scenario import Scenario, position_from_json, scenario_from_json
from rules.model.state import GameState
from rules.systems.registry import get_system


def state_from_json(raw: Any) -> GameState:
    """A position (scenario-shaped dict; actions/expect/dice are ignored here)."""
    return position_from_json(raw, get_system)


def load_scenario(raw: Any) -> Scenario:
    """Parse a whole scenario dict; raise InvalidActionError naming the bad key."""
    return scenario_from_json(raw, get_system)
