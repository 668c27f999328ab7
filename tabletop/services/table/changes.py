"""A table event as a change: what it touched, never the whole position.

A table event's stored payload names the units it changed (whole) and removed, as every
client applies them (position.patch); `Event.change` holds the rest of the change as a
delta of the position (`delta`): the keys of the engine's turn state and of the table's
turn it touched (a list the event only appended to, by its new items), and anything else
it changed. Following the changes gives back exactly the position the table had, and so
its hash. Every SNAPSHOT_EVERY sequence numbers a table event keeps the whole position
before it (`Event.base`), so that reading the position at any seq follows at most that
many changes; one keeps it too when the position changed outside the log (deployment,
the battle's start), marked REBASE so that a reader following the log reads it.

The board's view of the position after an event (the actions each unit is offered, the
state markers: game_systems.table_view) and the event's whole engine turn state and turn
are sent live, never stored: the position gives them again (log.py).
"""

from typing import Any

from tabletop.models import Battle
from tabletop.services.table.position import apply_patch

#: A table event keeps its whole position (a base) once this many sequence numbers passed
#: since the last one that did: a position is read through at most this many changes.
SNAPSHOT_EVERY = 100
#: The keys of a table event's frame that the log does not keep: the board's view of the
#: position after it, and the whole engine turn state and turn (a delta in `change`).
NOT_STORED = ("actions", "unit_states", "state", "turn")
#: The change's mark of a base that differs from where the log's changes lead.
REBASE = "rebase"


def keeps_base(battle: Battle) -> bool:
    """Whether the next table event on `battle` keeps the whole position before it."""
    return battle.base_seq == 0 or battle.last_seq + 1 - battle.base_seq >= SNAPSHOT_EVERY


def stored(public: dict[str, Any]) -> dict[str, Any]:
    """A table event's public keys as the log keeps them."""
    return {k: v for k, v in public.items() if k not in NOT_STORED}


def change_of(
    before: dict[str, Any], after: dict[str, Any], payload: dict[str, Any], *, rebase: bool
) -> dict[str, Any] | None:
    """The `change` of a table event with (stored) `payload` from `before` to `after`: what
    the payload's units do not say; None when they say it all. `rebase`: the event keeps
    a base that the changes before it do not lead to."""
    found = delta(follow(before, payload, None), after)
    if rebase:
        found[REBASE] = True
    return found or None


def follow(
    position: dict[str, Any], payload: dict[str, Any], change: dict[str, Any] | None
) -> dict[str, Any]:
    """The position ({"state", "turn"}) after a table event with `payload` and `change`.
    A payload an older release stored (or a frame) carries the whole state and turn."""
    state, turn = apply_patch(position["state"], {"turn": position["turn"], **payload})
    patched = {"state": state, "turn": turn}
    return patched if not change else applied(patched, change)


# -- deltas of JSON values --------------------------------------------------------------
# {"set": {key: value}, "drop": [key], "add": {key: [items appended]}, "in": {key: delta}}


def delta(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """What takes the object `old` to `new` ({} when equal): applied(old, delta) == new."""
    found: dict[str, Any] = {}
    dropped = sorted((k for k in old if k not in new), key=_jsonb_order)
    if dropped:
        found["drop"] = dropped
    for key, value in new.items():
        if key in old and old[key] == value:
            continue
        was = old.get(key)
        if isinstance(was, dict) and isinstance(value, dict):
            found.setdefault("in", {})[key] = delta(was, value)
        elif isinstance(was, list) and isinstance(value, list) and value[: len(was)] == was:
            found.setdefault("add", {})[key] = value[len(was) :]
        else:
            found.setdefault("set", {})[key] = value
    return found


def _jsonb_order(key: str) -> tuple[int, bytes]:
    """The order PostgreSQL's jsonb keeps an object's keys in (shorter first, then byte by
    byte): a position read from the row has its keys so, one this process kept (a one-trip
    write's, one_trip.py) the engine's order; a drop list in this order is the same
    whichever it was, and as the locked way stored it before."""
    raw = key.encode()
    return len(raw), raw


def applied(old: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """`old` with `change` (a `delta`) applied; `old` is left as it was."""
    new = {k: v for k, v in old.items() if k not in change.get("drop", ())}
    for key, inner in change.get("in", {}).items():
        new[key] = applied(new[key], inner)
    for key, items in change.get("add", {}).items():
        new[key] = [*new[key], *items]
    new.update(change.get("set", {}))
    return new
