"""The kernel's verdict builder with findings kept in path order and the speed band
every lasergrenadiers verdict carries (lasergrenadiers.md 8, 12)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from rules.engine import judgement
from rules.engine.model import GameState, Point2
from rules.engine.path_checks import Found, in_path_order
from rules.engine.verdict import Verdict, Violation

moved_event = judgement.moved_event

#: Orders of findings that have no place on the path: before it, and after it.
BEFORE = -1.0
AFTER = 1e12


@dataclass
class Judgement(judgement.Judgement):
    found: list[Found] = field(default_factory=list)
    speed_band: str = "stationary"

    def add(self, code: str, message: str, at: Point2 | None, cite: str,
            order: float = BEFORE) -> None:
        at = None if at is None else (float(at[0]), float(at[1]))
        self.found.append((order, Violation(code, message, at, cite)))

    def has(self, code: str) -> bool:
        return any(v.code == code for _, v in self.found)

    @property
    def legal(self) -> bool:
        return not self.found

    def verdict(self, after: GameState | None = None) -> Verdict:
        """Legal when nothing was found; only a legal action changes the state."""
        self.reasons = list(in_path_order(self.found))
        return replace(super().verdict(None if self.found else after),
                       speed_band=self.speed_band)
