"""The battles this process last wrote or locked, as it left them: a guess at each one's
row, which a move made in one round trip (one_trip.py) decides on and its statement checks.

A guess only: another process may have written since, or a service outside the table's
commands (a result, a restored database). The statement that writes the move checks
every field a move's decision reads against the row as it is, so a stale guess costs a
round trip and the locked way, never a move decided on the wrong position.
"""

import copy
import threading
from collections import OrderedDict

from django.db import connection, transaction

from tabletop.models import Battle

#: Battles kept per process; one per live table it serves is enough.
SIZE = 512

#: Each battle as last seen committed, and the JSON text of its {"state", "turn"} when
#: this process wrote that text itself (a move's statement), else None.
_kept: OrderedDict[int, tuple[Battle, str | None]] = OrderedDict()
_lock = threading.Lock()


def get(battle_id: int) -> Battle | None:
    """A copy of the battle as this process last saw it committed (the caller may change
    it), or None."""
    with _lock:
        kept = _kept.get(battle_id)
        if kept is None:
            return None
        _kept.move_to_end(battle_id)
    return copy.copy(kept[0])


def keep(battle: Battle, written: str | None = None) -> None:
    """`written`: the JSON text of {"state": battle.state, "turn": battle.turn_state} that
    was stored, which the next move's statement compares the row with (`written_text`)."""
    kept = copy.copy(battle)
    with _lock:
        _kept[battle.pk] = (kept, written)
        _kept.move_to_end(battle.pk)
        while len(_kept) > SIZE:
            _kept.popitem(last=False)


def written_text(battle_id: int, state: object, turn: object) -> str | None:
    """The JSON text kept with the battle for {"state": state, "turn": turn}, when `state`
    and `turn` are the very objects kept with it (a copy from `get` shares them: the
    position a move was decided on), else None: the caller writes the text itself. A
    position is never changed in place, only replaced, so the same objects are the same
    position."""
    with _lock:
        kept = _kept.get(battle_id)
    if kept is None or kept[1] is None:
        return None
    battle, text = kept
    return text if battle.state is state and battle.turn_state is turn else None


def forget(battle_id: int) -> None:
    with _lock:
        _kept.pop(battle_id, None)


def keep_on_commit(battle: Battle) -> None:
    """Keeps `battle` as it is now once the transaction commits (PostgreSQL only: only
    there does a move go in one round trip)."""
    if connection.vendor == "postgresql":
        kept = copy.copy(battle)
        transaction.on_commit(lambda: keep(kept))
