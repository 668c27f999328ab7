"""`battle_preview`: the verdict an act would get now, for the sender only. Writes nothing."""

import logging
from typing import Any

import rules
from rules import alternative_answer
from tabletop import events
from tabletop.models import Battle
from tabletop.services.table import command, referee
from tabletop.services.table.act import table_refusal
from tabletop.services.table.actor import Actor

log = logging.getLogger(__name__)


def battle_preview(
    *,
    battle_id: int,
    actor: Actor,
    action: dict[str, Any],
    reach: bool = False,
    alternative: bool = False,
) -> dict[str, Any]:
    """{"seq", "verdict", "reach", "alternative"}: the same checks as `battle_act`, the
    same engine call, with the dice unresolved (design.md, "The life of a move" 6).

    With `alternative`, an illegal verdict comes with the nearest legal alternative the
    engine can find (rules/referee/alternative.py; ui.md "Moving a piece" 4): the legal
    action ending nearest to where the piece was dropped, judged legal, or None."""
    command.require_player(actor)
    battle = Battle.objects.get(pk=battle_id)
    refused = table_refusal(battle, actor, action["unit"], action)
    if refused:
        return {
            "seq": battle.last_seq,
            "verdict": events.refusal_verdict([refused]),
            "reach": None,
            "alternative": None,
        }
    key = (battle.id, battle.last_seq)
    # The same engine call as the act's, but no die is rolled: a roll a commit would
    # make is reported as pending (its `needed`), and only the act rolls it.
    verdict = referee.judge(battle.state, action, key, preview=True).verdict
    area = referee.reach_area(battle.state, action["unit"], action["type"], key) if reach else None
    offer = None
    if alternative and not verdict.get("legal"):
        offer = _alternative(battle, action, key)
    return {"seq": battle.last_seq, "verdict": verdict, "reach": area, "alternative": offer}


def _alternative(
    battle: Battle, action: dict[str, Any], key: tuple[int, int]
) -> dict[str, Any] | None:
    """The engine's nearest legal alternative as JSON, or None; never fails the preview."""
    game = referee.positions.get(key, battle.state)
    try:
        # The engine's own answer (what `python -m rules alternative` prints), within
        # its deadline, so that a costly map cannot hold up the table: past it, the one
        # found so far, or none.
        with rules.deadline(referee.ALTERNATIVE_DEADLINE):
            answer = alternative_answer(game, rules.action_from_json(action, game), legal=False)
    except rules.InvalidActionError:
        return None
    except Exception:  # an alternative is a courtesy: the verdict still stands without it
        log.exception("no alternative for %r", action)
        return None
    offer: dict[str, Any] | None = answer["alternative"]
    return offer
