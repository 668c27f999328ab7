"""What a system offers a player: its actions and terrain types, as data the board reads.

The web side never names a system or an action; it shows what the catalogue says
(labels, the keys an action needs, how its path is drawn, what its cost counts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: How an action's path is drawn: a polyline with turns ("free"), one straight line
#: ("straight"), a single placement point ("placement"), or none at all ("none").
PATH_SHAPES = frozenset({"free", "straight", "placement", "none"})
#: What an action's cost counts: inches, movement points or action points.
COST_UNITS = {"in": '"', "MP": " MP", "AP": " AP"}


@dataclass(frozen=True)
class ActionSpec:
    type: str
    label: str
    #: Keys the action needs beyond unit/type/path/facing ("target", "carrier", ...).
    keys: tuple[str, ...] = ()
    path: str = "free"
    cost_unit: str = "in"
    #: Offered when a player drags a piece (a move in the usual sense).
    drag: bool = False
    help: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "label": self.label, "keys": list(self.keys),
                "path": self.path, "cost_unit": self.cost_unit, "drag": self.drag,
                "help": self.help}


@dataclass(frozen=True)
class TerrainKind:
    type: str
    label: str
    #: Keys a feature of this type may carry beyond id/type/polygon ("height", ...).
    keys: tuple[str, ...] = ()
    #: Keys it must carry (a slope's uphill bearing).
    required: tuple[str, ...] = ()
    help: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "label": self.label, "keys": list(self.keys),
                "required": list(self.required), "help": self.help}
