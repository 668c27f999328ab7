"""Tiny Skirmish: a game system that lives only in the tests, installed by its entry point
(site/tinyskirmish-0.1.dist-info) like any third party's. Scouts move their `move` in
inches, open ground 1" an inch, woods 2", marsh 3"; no one enters lava. The kernel plays
the move (rules/engine/play.py) and shades its reach (rules/engine/reach_template.py):
the system gives its tables."""

from __future__ import annotations

from rules.engine.catalogue import ActionSpec, TerrainKind
from rules.engine.system import System

#: Inches of allowance an inch of each terrain costs; None: a scout may not be there.
RATES: dict[str, float | None] = {"woods": 2.0, "marsh": 3.0, "lava": None}


class TinySkirmish(System):
    key = "tinyskirmish"
    name = "Tiny Skirmish"
    actions = (ActionSpec("move", "Move", drag=True),)
    terrain_kinds = tuple(TerrainKind(t, t.capitalize()) for t in RATES)
    terrain_types = frozenset(RATES)
    unit_types = frozenset({"scout"})
    terrain_costs = RATES
    shaded_types = frozenset({"move"})
    path_cites = {"prohibited_terrain": "TS 2", "off_table": "TS 1", "move": "TS 1"}
