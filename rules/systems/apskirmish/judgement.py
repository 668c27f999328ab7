"""The kernel's verdict builder, keeping every code that applies in the order the line
meets them, `at` the first (APS-D26)."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.engine import judgement
from rules.engine.model import GameState, Point2
from rules.engine.path_checks import Found, in_path_order
from rules.engine.verdict import Verdict, Violation

moved_event = judgement.moved_event

#: The order of violations that are not on the line: before it.
BEFORE = -1.0


@dataclass
class Judgement(judgement.Judgement):
    found: list[Found] = field(default_factory=list)

    def add(self, code: str, message: str, at: Point2 | None, cite: str,
            order: float = BEFORE) -> None:
        at = None if at is None else (float(at[0]), float(at[1]))
        self.found.append((order, Violation(code, message, at, cite)))

    @property
    def legal(self) -> bool:
        return not self.found

    def verdict(self, after: GameState | None = None) -> Verdict:
        """Legal when nothing was found; only a legal action changes the state."""
        self.reasons = list(in_path_order(self.found))
        return super().verdict(None if self.found else after)
