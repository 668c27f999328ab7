"""The GM's other powers: move a piece by fiat, set the spectators' broadcast delay."""

from typing import Any

from tabletop.events import reason
from tabletop.models import Battle
from tabletop.services.table import command
from tabletop.services.table.actor import Actor
from tabletop.services.table.command import Change, Refusal


def battle_fiat(
    *,
    battle_id: int,
    actor: Actor,
    client_msg_id: str,
    unit_id: str,
    position: list[float],
    facing: float | None = None,
    reason_text: str = "",
) -> dict[str, Any]:
    """Puts a unit anywhere on the table, without asking the engine; the event says so."""
    command.require_gm(actor)

    def decide(battle: Battle) -> Change | Refusal:
        state = battle.state
        units = state.get("units", [])
        unit = next((u for u in units if u.get("id") == unit_id), None)
        if unit is None:
            return Refusal([reason("unknown_unit", f"There is no unit {unit_id!r} on the table.")])
        table = state.get("table", {})
        x, y = position[0], position[1]
        if not (0 <= x <= table.get("width", 0) and 0 <= y <= table.get("height", 0)):
            return Refusal([reason("off_table", f"({x:g}, {y:g}) is off the table.", [x, y])])
        moved = {**unit, "position": position}
        if facing is not None:
            moved["facing"] = facing % 360
        new_units = [moved if u is unit else u for u in units]
        return Change(
            "fiat", {"unit": unit_id, "reason": reason_text}, state={**state, "units": new_units}
        )

    return command.run(battle_id=battle_id, actor=actor, client_msg_id=client_msg_id, decide=decide)


def battle_set_delay(
    *, battle_id: int, actor: Actor, client_msg_id: str, seconds: int
) -> dict[str, Any]:
    """Tournament play: spectators see the table `seconds` late from now on."""
    command.require_gm(actor)
    return command.run(
        battle_id=battle_id,
        actor=actor,
        client_msg_id=client_msg_id,
        decide=lambda battle: Change("delay", {"seconds": seconds}, delay_s=seconds),
    )
