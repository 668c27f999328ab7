"""Reach of `move`, `run` and `traverse` (apskirmish.md 3-5): where the soldier's centre
can end. A move or run is one straight line from where it stands, measured front to front
(004 Standard Movement), within the stance distance (or the run's) and clear of what
refuses a line: obstacles (crossed or too narrow a gap), enemy bases, the table edge;
friendly bases are passed but not ended on (004 Base Blocking); rough ground only asks
for a roll. The kernel shades such a line (rules/engine/line_reach.py); a Traverse's
landings are this system's own (reach_traverse.py).
"""

from __future__ import annotations

from shapely.geometry import Point

from rules.engine.line_reach import straight_reach
from rules.engine.reach import Reach, no_ends
from rules.engine.reach_template import ReachTemplate
from rules.model.state import Unit
from rules.systems.apskirmish.board import ApsPosition, FriendsPass
from rules.systems.apskirmish.reach_traverse import traverse_reach


class ApsReach(ReachTemplate):
    """The kernel's reach template (rules/engine/reach_template.py) for a soldier: the
    actions it may take now are the judge's preconditions (soldiers.py, through
    `may_take`: whose activation, AP, a run's stance, an obstacle within 1"); the
    regions, one straight line measured front to front (004 Standard Movement) or a
    Traverse's landings (reach_traverse.py)."""

    shaded_types = frozenset({"move", "run", "traverse"})

    def unreached(self, unit: Unit, action_type: str, budget: float) -> Reach:
        start = unit.position
        if action_type == "traverse":
            return no_ends(unit.id, action_type)
        return Reach(
            unit.id, action_type, Point(start), 0.0, lambda p: [start] if p == start else None
        )

    def reach_region(
        self, position: ApsPosition, unit: Unit, action_type: str, budget: float
    ) -> Reach | None:
        if action_type == "traverse":
            return traverse_reach(position, unit)
        if budget <= 0:
            return None
        return straight_reach(
            position, unit, action_type, budget, position.obstacles, FriendsPass()
        )
