"""`battle_preview`: the verdict an act would get now, for the sender only. Writes nothing."""

from typing import Any

from tabletop import events
from tabletop.models import Battle
from tabletop.services.table import command, referee
from tabletop.services.table.act import table_refusal
from tabletop.services.table.actor import Actor


def battle_preview(
    *, battle_id: int, actor: Actor, action: dict[str, Any], reach: bool = False
) -> dict[str, Any]:
    """{"seq", "verdict", "reach"}: the same checks as `battle_act`, the same engine call,
    with the dice unresolved (design.md, "The life of a move" 6)."""
    command.require_player(actor)
    battle = Battle.objects.get(pk=battle_id)
    refused = table_refusal(battle, actor, action["unit"])
    if refused:
        return {"seq": battle.last_seq, "verdict": events.refusal_verdict([refused]), "reach": None}
    key = (battle.id, battle.last_seq)
    # The same engine call as the act's, but no die is rolled: a roll a commit would
    # make is reported as pending (its `needed`), and only the act rolls it.
    verdict = referee.judge(battle.state, action, key, preview=True).verdict
    area = referee.reach_area(battle.state, action["unit"], action["type"], key) if reach else None
    return {"seq": battle.last_seq, "verdict": verdict, "reach": area}
