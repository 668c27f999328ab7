"""Every golden file's actions with the position before each (rules.referee.check's
`Outcome.before`), run once per test session: the board's questions (reach, the nearest
legal alternative) are asked of the positions the golden files already judge."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rules.engine.verdict import Verdict
from rules.model.actions import Action, MalformedAction, Waypoint
from rules.model.state import GameState
from rules.referee.check import run_scenario
from rules.referee.positions import load_scenario

GOLDEN = Path(__file__).parent / "golden"
SYSTEMS = ("aod", "mswars", "lasergrenadiers", "apskirmish")


@dataclass(frozen=True)
class Judged:
    """One golden action, the position it was judged in, and its verdict."""

    file: str
    index: int
    before: GameState
    action: Action
    verdict: Verdict

    @property
    def name(self) -> str:
        return f"{self.file} action {self.index}"

    @property
    def moves(self) -> bool:
        """Whether the action names a place to go (a waypoint)."""
        return any(isinstance(s, Waypoint) for s in self.action.path)

    @property
    def codes(self) -> set[str]:
        return {r.code for r in self.verdict.reasons}


@cache
def judged(system: str) -> tuple[Judged, ...]:
    """Every well-formed action of `system`'s golden files that got a verdict."""
    out = []
    for path in sorted((GOLDEN / system).rglob("*.json")):
        scenario = load_scenario(json.loads(path.read_text()))
        for outcome in run_scenario(scenario):
            action = scenario.actions[outcome.index]
            if isinstance(action, MalformedAction) or outcome.verdict is None:
                continue
            assert outcome.before is not None
            out.append(
                Judged(
                    str(path.relative_to(GOLDEN)),
                    outcome.index,
                    outcome.before,
                    action,
                    outcome.verdict,
                )
            )
    return tuple(out)
