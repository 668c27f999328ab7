"""Assembling a Verdict, and applying a legal order to the state (section 3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.engine.model import GameState, Unit
from rules.engine.verdict import Roll, Verdict, Violation
from rules.systems.aod.turn import spent


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
        legal = not self.reasons
        return Verdict(legal=legal, cost=self.cost, allowance=self.allowance,
                       reasons=tuple(self.reasons), rolls=tuple(self.rolls),
                       events=tuple(self.events),
                       state_after=after if after is not None else self.state,
                       changed=after is not None)


def order_given(state: GameState, unit_ids: tuple[str, ...], action_type: str,
                changed: list[Unit], free_spin_pending: list[str],
                removed: tuple[str, ...] = ()) -> GameState:
    """The state after an order: units replaced, order spent, entitlements reset."""
    after = state.with_units(*changed)
    units = tuple(u for u in after.units if u.id not in removed) if removed else after.units
    turn = spent(state.turn, unit_ids, action_type, free_spin_pending)
    return GameState(after.system, after.table, after.terrain, units, turn)


def moved_event(u: Unit) -> dict[str, Any]:
    return {"type": "moved", "unit": u.id, "to": [round(u.position[0], 4),
                                                  round(u.position[1], 4)],
            "facing": round(u.facing % 360.0, 4)}
