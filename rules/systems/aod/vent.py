"""`vent`: a 'Mech's order that moves nothing (001 [22])."""

from __future__ import annotations

from rules.engine.judgement import Judgement, moved_event
from rules.engine.path_checks import track_for
from rules.engine.verdict import Verdict
from rules.model.actions import Action
from rules.model.state import Unit
from rules.systems.aod.orders import check_order, refused
from rules.systems.aod.position import AodPosition
from rules.systems.aod.turn import order_given


def vent(position: AodPosition, unit: Unit, action: Action) -> Verdict:
    judgement = Judgement(position.state)
    pre = check_order(position.state, unit, "vent")
    if action.translates:
        pre.append(refused(unit, "a vent order has no movement", "001 [22]"))
    if pre:
        return judgement.refuse(*pre)
    end = track_for(unit, action.path, action.facing).end
    turned = unit.moved(unit.position, end.facing)
    # Counts as an order but gives no order token (001 [22]); tokens are bookkeeping.
    after = order_given(position.state, (unit.id,), "vent", [turned], [])
    judgement.events.append({"type": "vented", "unit": unit.id})
    if turned.facing != unit.facing:
        judgement.events.append(moved_event(turned))
    return judgement.verdict(after)
