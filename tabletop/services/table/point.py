"""`battle_point`: a ping, a pulse on everyone's board where a player points, with their name.

Transient: no event, nothing stored, no sequence number; it is broadcast at once to the
GM and the players, and to the spectators their delay late (what a player points at now
would tell them what the delay holds back). Spectators watch and do not ping. How often
a user may ping is the consumer's per-user `pings` bucket (limits.UserLimits).
"""

from typing import Any

from tabletop import events
from tabletop.models import Battle
from tabletop.services.errors import ServiceError
from tabletop.services.table import command
from tabletop.services.table.actor import Actor


def battle_point(*, battle_id: int, actor: Actor, at: list[float]) -> None:
    command.require_player(actor)
    # The table's size alone: the whole position (terrain and all) is not read for a ping.
    found = (
        Battle.objects.filter(pk=battle_id).values_list("state__table", "spectator_delay_s").first()
    )
    if found is None:
        raise ServiceError("This battle no longer exists.", code="forbidden")
    table, delay_s = found[0] or {}, found[1]
    x, y = at
    if not (0 <= x <= table.get("width", 0) and 0 <= y <= table.get("height", 0)):
        raise ServiceError(f"({x:g}, {y:g}) is off the table.", code="off_table", field="at")
    frame: dict[str, Any] = events.point(user=actor.name, role=actor.role, at=[x, y])
    events.send_point(battle_id, frame, delay_s)
