"""Whether a unit is offered an action type now: the offers' preconditions (turn, orders or
points left, the unit's state this turn), asked once per position.

Reach and the nearest alternative read it so that the board never shades, nor proposes, a
move of a type the referee would refuse whatever its path (issue 20, "One truth"): where
the type is not offered, there is nowhere the unit may end with it.
"""

from __future__ import annotations

from rules.engine.model import GameState
from rules.engine.offers import offered_types


def is_offered(state: GameState, unit_id: str, action_type: str) -> bool:
    offers = state.memo("engine.offered_now", lambda: offered_types(state))
    return action_type in offers.get(unit_id, ())
