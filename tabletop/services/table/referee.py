"""The one door to the rules engine (rules/): a position and an action in, a judgement out.

The table's state is exactly the engine's scenario position, so nothing is
translated. Dice come from `secrets`, on the server (the engine's own source
when no forced results are given; passed in explicitly where the facade takes one),
and only when an act is judged: a preview's dice stay unresolved, so that a player
cannot preview a roll until it succeeds (design.md, "The life of a move" 5 and 6).
"""

import logging
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any

import rules
from rules import Action, reach_answer
from tabletop.services import game_systems
from tabletop.services.errors import ServiceError

log = logging.getLogger(__name__)

#: Seconds of CPU time (the engine thread's) the engine may spend on a preview's reach,
#: and on its nearest alternative (rules/geometry/deadline.py): past it the
#: search stops and says how far it is exact (`complete: false`, `to`), or offers the
#: alternative found in time (none). With the
#: map limits (tabletop/services/maps.py) a preview then stays near the 50 ms goal
#: (docs/rules-engine.md, "Map limits and deadlines"; docs/benchmarks.md).
REACH_DEADLINE = 0.040
#: The alternative's own reach counts against it, unless the same preview asked reach
#: first (the state keeps it): then it is the candidates' verdicts alone.
ALTERNATIVE_DEADLINE = 0.040


class EngineFailure(ServiceError):
    """The engine could not judge at all (a bug, or a position it cannot read)."""

    code = "server_error"


@dataclass(frozen=True)
class Ruling:
    """What the referee ruled on an action, as the table stores and sends it."""

    legal: bool
    #: The engine's VERDICT, as clients get it (scenario format).
    verdict: dict[str, Any]
    #: The position after the action (scenario shape) when the rules change the table:
    #: a legal action, or an illegal one whose consequence still applies (a failed
    #: breakaway spends the order, design.md 'the life of a move' 5). None when nothing
    #: changes, and in a preview.
    state_after: dict[str, Any] | None
    #: The same position as the engine's own (parsed) state; None with state_after.
    game_after: rules.GameState | None = None


class ParsedPositions:
    """The engine states of the positions this process judged lately.

    Parsing a position and building its indexes costs milliseconds; a piece being
    dragged sends a preview every few frames, and each act follows from the last. So
    each parsed state is kept under (battle id, sequence number), together with the
    dict it stands for: it is used only while the battle's stored state still equals
    that dict, so a stale entry (another process's write, a database restored) can
    only miss, never judge the wrong position. What is built from the map alone (its
    features, their index, the obstacles they make) is not rebuilt at a new sequence
    number: the engine keeps it per map (rules/model/map_geometry.py).
    """

    def __init__(self, size: int = 32) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[int, int], tuple[dict[str, Any], rules.GameState]]
        self._kept = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[int, int], state: dict[str, Any]) -> rules.GameState:
        game = self.find(key, state)
        if game is None:
            game = _parse(state)
            self.keep(key, state, game)
        return game

    def find(self, key: tuple[int, int], state: dict[str, Any]) -> rules.GameState | None:
        """The kept engine state of `state` under `key`; None when none is kept."""
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None and kept[0] == state:
                self._kept.move_to_end(key)
                return kept[1]
        return None

    def keep(self, key: tuple[int, int], state: dict[str, Any], game: rules.GameState) -> None:
        with self._lock:
            self._kept[key] = (state, game)
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)


positions = ParsedPositions()


def readable(key: tuple[int, int], state: dict[str, Any]) -> rules.GameState | None:
    """The engine's state of `state` (battle id, sequence number `key`), as kept or read
    now and kept for the judgements and snapshots that follow; None for a position the
    engine cannot read (its board shows no offers: game_systems.table_view)."""
    game = positions.find(key, state)
    if game is None:
        game = game_systems.engine_state(state)
        if game is not None:
            positions.keep(key, state, game)
    return game


def with_new_turn_keys(
    key: tuple[int, int], before: dict[str, Any], after: dict[str, Any]
) -> rules.GameState | None:
    """The engine's state of `after`, a position that differs from `before` (the battle's
    at `key`: battle id, sequence number) in its turn keys (`state`) alone, as an end of
    turn leaves it: the kept reading of `before` with those keys, checked by its system as
    a reading checks them. None when `before` is not kept, or more changed (the units, when
    a new turn moves them): then it is read whole (`readable`). An end of turn read whole
    again every unit's schema, a quarter of its CPU on the capacity bench's table."""
    if before.keys() != after.keys() or any(after[k] != before[k] for k in after if k != "state"):
        return None
    turn = after.get("state", {})
    game = positions.find(key, before)
    if game is None or not isinstance(turn, dict) or not _finite(turn):
        return None
    try:
        rules.get_system(game.system).check_turn(turn, "state")
    except (rules.InvalidActionError, KeyError):
        return None
    return replace(game, turn=dict(turn))


def _finite(value: Any) -> bool:
    """No NaN or infinity anywhere in `value` (a reading refuses them)."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    return True


def _parse(state: dict[str, Any]) -> rules.GameState:
    try:
        return rules.state_from_json(state)
    except rules.InvalidActionError as error:
        log.exception("the engine cannot read the battle's state")
        raise EngineFailure(f"the battle's position is unreadable: {error}") from None


def _game(state: dict[str, Any], key: tuple[int, int] | None) -> rules.GameState:
    return _parse(state) if key is None else positions.get(key, state)


def _malformed(error: Exception) -> ServiceError:
    key = getattr(error, "key", "") or ""
    field = key if key.startswith("action") else "action"
    return ServiceError(str(error), field=field, code="malformed")


def judge(
    state: dict[str, Any],
    action: dict[str, Any],
    key: tuple[int, int] | None = None,
    *,
    preview: bool = False,
    outcomes: list[bool] | None = None,
) -> Ruling:
    """The engine's verdict on `action` in `state`, rolling any dice with `secrets`;
    with `preview`, rolling none: the verdict then names each roll a commit would make
    (a pending roll, "breakaway 3-6") and changes nothing.

    `key` (battle id, sequence number) names the position, so that its parsed state
    can be reused (ParsedPositions). `outcomes`: pass/fail results given at the table
    (the GM's, for a roll the engine leaves to the GM), used in order."""
    game = _game(state, key)
    try:
        parsed = rules.action_from_json(action, game)
        # No forced dice: the engine rolls with `secrets` and reports every roll (the GM's
        # outcomes, where given, decide the rolls left to the GM);
        # a preview's dice are unresolved and roll nothing.
        dice = rules.make_dice(unresolved=True) if preview else rules.make_dice(outcomes=outcomes)
        verdict = rules.validate(game, parsed, dice=dice)
    except rules.InvalidActionError as error:
        raise _malformed(error) from None
    except Exception as error:  # the referee must never take the table down
        log.exception("the engine failed on %r", action)
        raise EngineFailure(f"the rules engine failed: {error}") from None
    applies = (verdict.legal or verdict.changed) and not verdict.pending
    if preview or not applies or verdict.state_after is None:
        return Ruling(verdict.legal, verdict.to_json(), None)
    after = rules.state_to_json(verdict.state_after)
    return Ruling(verdict.legal, verdict.to_json(), after, verdict.state_after)


def reach_area(
    state: dict[str, Any], unit_id: str, action_type: str, key: tuple[int, int] | None = None
) -> dict[str, Any] | None:
    """Where the unit may legally end, as GeoJSON; None where the engine cannot say.

    When the engine's bound on reach's work cut the search short, or its
    deadline did (REACH_DEADLINE), the area is exact only to `to` inches of
    path and says so: `"complete": false`. The engine's
    own answer (rules/referee/questions.py, what `python -m rules reach` prints), in the
    protocol's shape (docs/protocol.md, "preview")."""
    game = _game(state, key)
    try:
        with rules.deadline(REACH_DEADLINE):
            answer = reach_answer(game, Action(unit_id, action_type))
        if answer["area"] is None:
            return None
        area = dict(answer["area"])
        if not answer["complete"]:
            area.update({"complete": False, "to": round(answer["horizon"], 2)})
        return area
    except (rules.InvalidActionError, NotImplementedError):
        return None
    except Exception:
        log.exception("reach failed for %s", unit_id)
        return None
