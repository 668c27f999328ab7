"""`battle_sight`: the referee's ruling on a line of sight, for the sender only. Writes nothing.

The engine draws the line and says what is in its way (rules/referee/sight_ruling.py,
with the system's word on what blocks sight); the board only draws the ruling. One
implementation: the browser computes no sight of its own (ui.md, "Tools")."""

from typing import Any

import rules
from rules import sight_ruling
from tabletop.models import Battle
from tabletop.services.errors import ServiceError
from tabletop.services.table import command, referee
from tabletop.services.table.actor import Actor


def battle_sight(
    *, battle_id: int, actor: Actor, origin: str | list[float], target: str | list[float]
) -> dict[str, Any]:
    """{"seq", "ruling"}: the line from `origin` to `target` (a unit id, or a point [x, y])
    on the live table. Players and the GM ask it: a spectator's table runs late
    (the spectator delay), and a ruling on the live one would tell what is still held back."""
    command.require_player(actor)
    battle = Battle.objects.get(pk=battle_id)
    game = referee.positions.get((battle.id, battle.last_seq), battle.state)
    ends = [e if isinstance(e, str) else (float(e[0]), float(e[1])) for e in (origin, target)]
    try:
        ruling = sight_ruling(game, ends[0], ends[1])
    except rules.InvalidActionError as error:
        raise ServiceError(str(error), field=error.key or "from", code="malformed") from None
    return {"seq": battle.last_seq, "ruling": ruling.to_json()}
