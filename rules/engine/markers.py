"""A position's state markers: what the system's catalogue (`System.state_markers`)
says shows on each piece, read from the position the engine holds (a unit's key as the
scenario format writes it, scenario-format.md), for the board, the unit card and the
battle report."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules.engine.catalogue import StateMarker
from rules.model.state import GameState

#: {unit id: [{"key", "label", "help"}]}: the markers on each piece, in catalogue order.
Markers = dict[str, list[dict[str, str]]]


def _value(marker: StateMarker, unit: Mapping[str, Any], state: Mapping[str, Any]) -> Any:
    """The key's value for a unit (its scenario JSON) in the position's turn state."""
    if marker.source == "unit":
        return unit.get(marker.key)
    held = state.get(marker.key)
    if isinstance(held, Mapping):
        return held.get(unit.get("id"))
    if isinstance(held, list | tuple):
        return unit.get("id") in held
    return None


def markers_in(catalogue: Iterable[StateMarker], position: GameState) -> Markers:
    """Each piece's markers by the catalogue; a piece with none is left out."""
    state = position.turn
    out: Markers = {}
    for piece in position.units:
        unit = piece.to_json()  # every key as the scenario writes it (`aboard` among them)
        for marker in catalogue:
            label = marker.label_for(_value(marker, unit, state))
            if label is not None:
                out.setdefault(unit["id"], []).append(
                    {"key": marker.key, "label": label, "help": marker.help}
                )
    return out
