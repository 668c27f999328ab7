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

from rules.engine.path_checks import Found, in_path_order
from rules.engine.verdict import Roll, Verdict, Violation
from rules.model.state import GameState, Point2, Unit

#: Orders of findings that have no place on the path: before it, and after it.
BEFORE = -1.0
AFTER = 1e12


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
        return Verdict(
            legal=legal,
            cost=self.cost,
            allowance=self.allowance,
            reasons=tuple(self.reasons),
            rolls=tuple(self.rolls),
            events=tuple(self.events),
            state_after=after if after is not None else self.state,
            changed=after is not None,
        )


@dataclass
class PathJudgement(Judgement):
    """A builder that keeps every finding with its place along the path, and reports them
    all in path order, `at` the first (mswars.md 9, APS-D26): a system adds what it finds
    as it goes, in any order. Only a legal action changes the state."""

    found: list[Found] = field(default_factory=list)
    #: The state a refused action still leaves, where the system's rules say so (aod's
    #: failed breakaway spends the order, AOD-D23); None: a refusal changes nothing.
    refused_after: GameState | None = None

    def add(
        self, code: str, message: str, at: Point2 | None, cite: str, order: float = BEFORE
    ) -> None:
        """A finding at path length `order` (BEFORE the path, AFTER it, or on it)."""
        at = None if at is None else (float(at[0]), float(at[1]))
        self.found.append((order, Violation(code, message, at, cite)))

    def has(self, code: str) -> bool:
        return any(v.code == code for _, v in self.found)

    @property
    def legal(self) -> bool:
        return not self.found

    def verdict(self, after: GameState | None = None) -> Verdict:
        """Legal when nothing was found; only a legal action changes the state (or a
        refused one that leaves `refused_after`)."""
        self.reasons = list(in_path_order(self.found))
        return super().verdict(self.refused_after if self.found else after)


def who(unit: Unit) -> str:
    """What players call the unit: its name if the roster gives one, else its id."""
    name = unit.get("name")
    return name if isinstance(name, str) and name else unit.id


def moved_event(u: Unit) -> dict[str, Any]:
    """The event the board animates: where a unit now stands and faces."""
    return {
        "type": "moved",
        "unit": u.id,
        "to": [round(u.position[0], 4), round(u.position[1], 4)],
        "facing": round(u.facing % 360.0, 4),
    }
