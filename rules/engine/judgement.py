"""Assembling one action's Verdict while a system judges it.

A system's handler records the cost and allowance it found, the rules broken (in the
order the path meets them), the dice rolled and the events, then asks for the verdict:
illegal changes nothing (contract), legal carries the state after. The one exception a
system's rules may make is an illegal verdict that still changes the game (aod's
failed breakaway spends the order, AOD-D23): the handler passes the state after it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.engine.model import GameState, Unit
from rules.engine.verdict import Roll, Verdict, Violation


@dataclass
class Judgement:
    """A mutable builder for one action's verdict."""

    state: GameState
    cost: float = 0.0
    allowance: float = 0.0
    reasons: list[Violation] = field(default_factory=list)
    rolls: list[Roll] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)

    def refuse(self, *violations: Violation) -> Verdict:
        """Illegal: nothing changes (contract)."""
        self.reasons.extend(violations)
        return self.verdict(None)

    def verdict(self, after: GameState | None) -> Verdict:
        """Legal when no rule is broken. `after` is the state to store: the new position
        of a legal action, or of an illegal one that still changes the game."""
        legal = not self.reasons
        return Verdict(legal=legal, cost=self.cost, allowance=self.allowance,
                       reasons=tuple(self.reasons), rolls=tuple(self.rolls),
                       events=tuple(self.events),
                       state_after=after if after is not None else self.state,
                       changed=after is not None)


def moved_event(u: Unit) -> dict[str, Any]:
    """The event the board animates: where a unit now stands and faces."""
    return {"type": "moved", "unit": u.id, "to": [round(u.position[0], 4),
                                                  round(u.position[1], 4)],
            "facing": round(u.facing % 360.0, 4)}
