"""Tiny Skirmish: a game system that lives only in the tests, installed by its entry point
(site/tinyskirmish-0.1.dist-info) like any third party's. Scouts move their `move` in
inches, open ground 1" an inch, woods 2", marsh 3"; no one enters lava."""

from __future__ import annotations

from rules.engine.allowance import Allowance
from rules.engine.bases_policy import BasePolicy
from rules.engine.catalogue import ActionSpec, TerrainKind
from rules.engine.dice import Dice
from rules.engine.judgement import PathJudgement, moved_event
from rules.engine.position import Position
from rules.engine.priced_path import check_priced_path, steps_with_final_facing
from rules.engine.pricing import TerrainAlong
from rules.engine.system import System
from rules.engine.verdict import Verdict
from rules.geometry.track import Pose
from rules.model.actions import Action
from rules.model.state import GameState, Terrain, Unit

#: Inches of allowance an inch of each terrain costs; None: a scout may not be there.
RATES: dict[str, float | None] = {"woods": 2.0, "marsh": 3.0, "lava": None}
CITES = {"prohibited_terrain": "TS 2", "off_table": "TS 1"}


class Rates:  # the kernel's TerrainRates: what each feature costs a scout
    def rate(self, feature: Terrain | None) -> float | None:
        return 1.0 if feature is None else RATES[feature.type]

    def rank(self, feature: Terrain) -> float:
        return RATES[feature.type] or 99.0  # lava governs where features overlap

    def name(self, feature: Terrain | None) -> str:
        return "open ground" if feature is None else f"{feature.id} ({feature.type})"

    def direction(self, facing: float, dx: float, dy: float) -> tuple[float, bool, str]:
        return 1.0, True, "any"  # a scout moves any way it likes

    def turn_cost(self, angle: float, rate: float, free: float) -> float:
        return 0.0  # and turns for free


class TinySkirmish(System):
    key = "tinyskirmish"
    name = "Tiny Skirmish"
    actions = (ActionSpec("move", "Move", drag=True),)
    terrain_kinds = tuple(TerrainKind(t, t.capitalize()) for t in RATES)
    terrain_types = frozenset(RATES)
    unit_types = frozenset({"scout"})
    action_types = frozenset({"move"})

    def judge(self, state: GameState, unit: Unit, action: Action, dice: Dice) -> Verdict:
        allowance = Allowance(unit.move, cite="TS 1")
        rates = TerrainAlong(Rates(), [(t, t.shape) for t in state.terrain])
        pose, steps = Pose(*unit.position, unit.facing), steps_with_final_facing(unit, action)
        priced, found = check_priced_path(
            Position(state), unit, pose, steps, rates, allowance, BasePolicy(), cites=CITES
        )
        moved = unit.moved(priced.end.xy, priced.end.facing)
        events = [] if found else [moved_event(moved)]
        judgement = PathJudgement(state, priced.cost, allowance.value, found=found, events=events)
        return judgement.verdict(state.with_units(moved))
