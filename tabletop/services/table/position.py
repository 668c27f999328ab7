"""A table position (the engine's state + the table's turn) and the patches between two.

Clients apply patches and never need rules knowledge: changed units whole,
removed unit ids, the engine's turn state and the table's turn structure, and
the engine's words for them (the header line, the actions each unit is offered).
"""

import hashlib
from typing import Any

import rules
from tabletop.services import game_systems
from tabletop.services.table import canonical_json


def hashed_form(state: dict[str, Any], turn: dict[str, Any]) -> bytes:
    """The canonical form of a position that its hash is taken of (docs/protocol.md): the
    JSON Canonicalization Scheme (RFC 8785) of {"state", "turn"}, with `state.units` sorted
    by id (by UTF-16 code units, as JCS sorts keys). JCS writes numbers as ECMAScript does
    (10.0 is `10`, 1e-05 is `0.00001`) and strings as UTF-8, so a browser reproduces it
    exactly (static/js/board/jcs.js); Python's own JSON (`\\u` escapes, `1e-05`) did not."""
    units = sorted(state.get("units", []), key=lambda u: str(u.get("id")).encode("utf-16-be"))
    return canonical_json.dumps({"state": {**state, "units": units}, "turn": turn})


def position_hash(state: dict[str, Any], turn: dict[str, Any]) -> str:
    """sha256 (hex) of the position's canonical form; the order of units does not count."""
    return hashlib.sha256(hashed_form(state, turn)).hexdigest()


def patch(
    before: dict[str, Any],
    after: dict[str, Any],
    turn: dict[str, Any],
    game: rules.GameState | None = None,
) -> dict[str, Any]:
    """The public keys of a table event that takes `before` to `after` (engine states):
    the change, and what the board shows after it (header line, actions on offer), read
    from `game`, the engine's own `after` where the verdict left it."""
    old = {u["id"]: u for u in before.get("units", [])}
    new = {u["id"]: u for u in after.get("units", [])}
    return {
        "units": [u for uid, u in new.items() if old.get(uid) != u],
        "removed": [uid for uid in old if uid not in new],
        "state": after.get("state", {}),
        "turn": turn,
        **game_systems.table_view(after, turn, game),
    }


def apply_patch(state: dict[str, Any], event: dict[str, Any]) -> tuple[dict, dict]:
    """(engine state, turn) after a table event frame; what every client does."""
    units = {u["id"]: u for u in state.get("units", [])}
    for uid in event.get("removed", []):
        units.pop(uid, None)
    order = [u["id"] for u in state.get("units", [])]
    for unit in event.get("units", []):
        if unit["id"] not in units:
            order.append(unit["id"])
        units[unit["id"]] = unit
    new_state = {
        **state,
        "units": [units[uid] for uid in order if uid in units],
        "state": event.get("state", state.get("state", {})),
    }
    return new_state, event["turn"]
