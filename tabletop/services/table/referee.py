"""The one door to the rules engine (rules/): a position and an action in, a judgement out.

The table's state is exactly the engine's scenario position, so nothing is
translated. Dice come from `secrets`, on the server (the engine's own source
when no forced results are given; passed in explicitly where the facade takes one).
"""

import logging
from dataclasses import dataclass
from typing import Any

from shapely.geometry import mapping

import rules
from tabletop.services.errors import ServiceError

log = logging.getLogger(__name__)


class EngineFailure(ServiceError):
    """The engine could not judge at all (a bug, or a position it cannot read)."""

    code = "server_error"


@dataclass(frozen=True)
class Judgement:
    legal: bool
    #: The engine's VERDICT, as clients get it (scenario format).
    verdict: dict[str, Any]
    #: The position after a legal action (scenario shape); None when refused.
    state_after: dict[str, Any] | None


def _game(state: dict[str, Any]) -> Any:
    try:
        return rules.state_from_json(state)
    except rules.InvalidActionError as error:
        log.exception("the engine cannot read the battle's state")
        raise EngineFailure(f"the battle's position is unreadable: {error}") from None


def _malformed(error: Exception) -> ServiceError:
    key = getattr(error, "key", "") or ""
    field = key if key.startswith("action") else "action"
    return ServiceError(str(error), field=field, code="malformed")


def judge(state: dict[str, Any], action: dict[str, Any]) -> Judgement:
    """The engine's verdict on `action` in `state`, rolling any dice with `secrets`."""
    game = _game(state)
    try:
        parsed = rules.action_from_json(action, game)
        # No forced results: the engine rolls with `secrets` and reports every roll.
        verdict = rules.validate(game, parsed, dice=rules.make_dice())
    except rules.InvalidActionError as error:
        raise _malformed(error) from None
    except Exception as error:  # the referee must never take the table down
        log.exception("the engine failed on %r", action)
        raise EngineFailure(f"the rules engine failed: {error}") from None
    after = None
    if verdict.legal and verdict.state_after is not None:
        after = rules.state_to_json(verdict.state_after)
    return Judgement(verdict.legal, verdict.to_json(), after)


def reach_area(state: dict[str, Any], unit_id: str, action_type: str) -> dict[str, Any] | None:
    """Where the unit may legally end, as GeoJSON; None where the engine cannot say."""
    game = _game(state)
    try:
        return dict(mapping(rules.reach(game, unit_id, action_type).area))
    except (rules.InvalidActionError, NotImplementedError):
        return None
    except Exception:
        log.exception("reach failed for %s", unit_id)
        return None
