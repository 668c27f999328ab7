"""The answer to an action: legal or not, why, at what cost, and what happened."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rules.engine.numbers import json_number
from rules.model.state import GameState, Point2

if TYPE_CHECKING:
    from rules.engine.consequences import Consequence


@dataclass(frozen=True)
class Violation:
    """One broken rule. `code` is stable (contract section "Reason codes"); `message` says
    what is wrong in a player's words, with no citation; `cite` is the seed reference(s)
    and decision id(s) ("000 [33], AOD-D14"); `rule` names the rule for a player
    ("Turning, LaserGrenadiers rules"), filled in by the system (rules/engine/rule_names.py)."""

    code: str
    message: str
    at: Point2 | None = None
    cite: str = ""
    rule: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        out["at"] = None if self.at is None else [json_number(self.at[0]), json_number(self.at[1])]
        if self.cite:
            out["cite"] = self.cite
        if self.rule:
            out["rule"] = self.rule
        return out


@dataclass(frozen=True)
class Roll:
    """One die the engine rolled, or (in a preview) would roll: then `result` and
    `success` are None and the roll is pending (design.md, "The life of a move" 6)."""

    what: str
    die: str
    result: int | None
    needed: str
    success: bool | None
    forced: bool = False
    #: What the roll decides, in a player's words; shown with a pending roll.
    decides: str = ""

    @property
    def pending(self) -> bool:
        return self.result is None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "what": self.what,
            "die": self.die,
            "result": self.result,
            "needed": self.needed,
            "success": self.success,
        }
        if self.pending:
            # Only a preview's rolls carry these: a rolled die keeps the contract's shape.
            out["pending"] = True
            if self.decides:
                out["decides"] = self.decides
        return out


#: The fields every verdict has, which no system's note may be called (`System.verdict_notes`).
SHARED_FIELDS = frozenset(
    {"legal", "cost", "allowance", "reasons", "rolls", "events", "consequences"}
)


@dataclass(frozen=True)
class Verdict:
    legal: bool
    cost: float
    allowance: float
    reasons: tuple[Violation, ...] = ()
    rolls: tuple[Roll, ...] = ()
    events: tuple[dict[str, Any], ...] = ()
    #: The new state when legal (or a failed breakaway, AOD-D23); else the unchanged one.
    state_after: GameState | None = field(default=None, compare=False, repr=False)
    #: True when state_after must be stored: every legal verdict, and the one illegal
    #: verdict that still changes the game (a failed breakaway spends the order, AOD-D23).
    changed: bool = False
    #: The system's own notes on the action, by the keys its catalogue declares
    #: (`System.verdict_notes`: lasergrenadiers' `speed_band`), beside the shared fields.
    notes: Mapping[str, Any] = field(default_factory=dict)
    #: What the action does besides moving, in words, for the preview and the log
    #: (rules/engine/consequences.py); empty where nothing else happens.
    consequences: tuple[Consequence, ...] = ()

    @property
    def codes(self) -> list[str]:
        return [r.code for r in self.reasons]

    @property
    def pending(self) -> tuple[Roll, ...]:
        """The rolls a commit would make (a preview's verdict): while any is pending the
        verdict is what the action gives if every such roll succeeds, and it is never
        applied."""
        return tuple(r for r in self.rolls if r.pending)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "legal": self.legal,
            "cost": json_number(self.cost),
            "allowance": json_number(self.allowance),
            "reasons": [r.to_json() for r in self.reasons],
            "rolls": [r.to_json() for r in self.rolls],
            "events": [dict(e) for e in self.events],
        }
        # A note is a key of the verdict's own (scenario-format.md: "verdict adds `speed_band`").
        out.update(self.notes)
        if self.consequences:
            out["consequences"] = [c.to_json() for c in self.consequences]
        return out
