"""The kernel's path-ordered verdict builder with the speed band every lasergrenadiers
verdict carries (lasergrenadiers.md 8, 12)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.engine.judgement import AFTER, BEFORE, PathJudgement, moved_event
from rules.engine.verdict import Verdict
from rules.model.state import GameState

__all__ = ["AFTER", "BEFORE", "SpeedBandJudgement", "moved_event"]


@dataclass
class SpeedBandJudgement(PathJudgement):
    speed_band: str = "stationary"

    def verdict(self, after: GameState | None = None) -> Verdict:
        """The path-ordered verdict, with the unit's speed band (lasergrenadiers.md 8): a
        verdict note (catalogue.VERDICT_NOTES)."""
        return replace(super().verdict(after), notes={"speed_band": self.speed_band})
