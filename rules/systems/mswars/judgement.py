"""Assembling a verdict: every code that applies, ordered along the path (mswars.md 9)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.engine.model import GameState, Point2, Unit
from rules.engine.verdict import Roll, Verdict, Violation

#: Orders of violations that have no place on the path: before it, and after it.
BEFORE = -1.0
AFTER = 1e12


@dataclass
class Judgement:
    state: GameState
    cost: float = 0.0
    allowance: float = 0.0
    found: list[tuple[float, Violation]] = field(default_factory=list)
    rolls: list[Roll] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)

    def add(self, code: str, message: str, at: Point2 | None, cite: str,
            order: float = BEFORE) -> None:
        if at is not None:
            at = (float(at[0]), float(at[1]))
        self.found.append((order, Violation(code, message, at, cite)))

    @property
    def codes(self) -> set[str]:
        return {v.code for _, v in self.found}

    @property
    def legal(self) -> bool:
        return not self.found

    def verdict(self, after: GameState | None = None) -> Verdict:
        ordered = tuple(v for _, v in sorted(self.found, key=lambda ov: ov[0]))
        legal = not ordered
        return Verdict(legal, self.cost, self.allowance, ordered, tuple(self.rolls),
                       tuple(self.events), state_after=after if legal and after is not None
                       else self.state, changed=legal and after is not None)


def moved_event(u: Unit) -> dict[str, Any]:
    return {"type": "moved", "unit": u.id,
            "to": [round(u.position[0], 4), round(u.position[1], 4)],
            "facing": round(u.facing % 360.0, 4)}
