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
    whole = {**state, "units": units}
    if not all(type(k) is str for k in whole):
        return canonical_json.dumps({"state": whole, "turn": turn})
    # JCS is compositional: an object's form is its members' forms, keys sorted by UTF-16
    # code units. So each unit and each other key of the state is written apart, and a
    # part unchanged since an earlier move (every unit but the one that moved) is not
    # written again (_PartForms): a served move hashes its position on every event.
    members = [
        canonical_json.dumps(key)
        + b":"
        + (b"[" + b",".join(map(_forms.of, units)) + b"]" if key == "units" else _forms.of(value))
        for key, value in sorted(whole.items(), key=lambda kv: kv[0].encode("utf-16-be"))
    ]
    return b'{"state":{' + b",".join(members) + b'},"turn":' + canonical_json.dumps(turn) + b"}"


class _PartForms:
    """The canonical forms of parts of positions lately hashed, under a key that tells
    their contents apart (`repr`: every float exactly, 1, 1.0, True and "1" apart, keys in
    their order), so that equal contents are written once. Bounded: emptied when full.
    16,384 parts hold every unit of 2,000 tables of 4 units a side (the capacity bench's)
    or of 340 tables of 24 a side, in about 8 MB. Past that a move's hash costs more than
    writing the whole form did (docs/benchmarks.md, "the engine's CPU per served move")."""

    def __init__(self, size: int = 16384) -> None:
        self.size = size
        self._kept: dict[str, bytes] = {}

    def of(self, value: Any) -> bytes:
        key = repr(value)
        found = self._kept.get(key)
        if found is None:
            found = canonical_json.dumps(value)
            if len(self._kept) >= self.size:
                self._kept.clear()
            self._kept[key] = found
        return found


_forms = _PartForms()


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
