"""How the board and the battle report draw a terrain type: one table per system
(`System.terrain_styles`), read by both, so that a wood is the same green on the table and
in the report. The web side draws what the engine says and names no terrain type itself."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: The marks drawn over a fill, so that players who do not tell the colours apart still
#: tell the types apart (static/js/render/terrain.js draws each).
PATTERNS = frozenset(
    {"none", "hatch", "dots", "cross", "grid", "horizontal", "vertical", "waves", "rings", "steps"}
)
#: A feature's outline, where its style names none of its own.
OUTLINE = "#30363d"


@dataclass(frozen=True)
class TerrainStyle:
    """A terrain type's look: its fill colour, the pattern over it, its outline."""

    fill: str
    pattern: str = "none"
    stroke: str = OUTLINE

    def to_json(self) -> dict[str, Any]:
        return {"fill": self.fill, "pattern": self.pattern, "stroke": self.stroke}


#: What a type its system does not style gets, on the board and in the report alike
#: (a map drawn before its system knew the type, a system that publishes no styles).
UNSTYLED = TerrainStyle("#b07aa1", "dots")

# Common looks a system's table may name (the seed systems share most of them); a system
# may as well write its own.
OPEN_GROUND = TerrainStyle("#e8efd9")
ROAD = TerrainStyle("#d9d2c3", "vertical")
LIGHT_WOODS = TerrainStyle("#7fb069", "hatch")
WOODS = TerrainStyle("#5f9c4a", "hatch")
DENSE_WOODS = TerrainStyle("#3f7d32", "cross")
ROUGH = TerrainStyle("#c2a878", "dots")
SOFT = TerrainStyle("#c9b98f", "dots")
DIFFICULT = TerrainStyle("#b08d57", "cross")
VERY_DIFFICULT = TerrainStyle("#8c6a3b", "cross")
BLOCKING = TerrainStyle("#5b5f66", "grid")
HIGH_WALL = TerrainStyle("#4a4d52", "grid")
OBSTACLE = TerrainStyle("#8a6f5a", "grid")
LOW_OBSTACLE = TerrainStyle("#a38b73", "vertical")
SHALLOW_WATER = TerrainStyle("#9cc9e6", "horizontal")
RUNNING_WATER = TerrainStyle("#4f93c9", "waves")
DEEP_WATER = TerrainStyle("#2f6ea5", "waves")
HILL = TerrainStyle("#d6b26e", "rings")
SLOPE = TerrainStyle("#dcc08a", "rings")
CLIFF = TerrainStyle("#b8862f", "steps")
