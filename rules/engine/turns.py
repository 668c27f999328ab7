"""The turn structure of a system: who may act now, what a change resets, what the board says.

The live table keeps two JSON objects: the position (scenario-shaped: `units`,
`state`, ...) and the table's turn, `{"turn": n, "active_side": s, "sides": [...],
"phase": p}` (phase where the system has phases; systems add keys such as the
active unit). The engine owns the rules that change them, so that the board, the
scenario files and the server agree (design.md, "the life of a move"). The hooks that
change the table or judge a request before the engine (begin, refusal, acted, end_part)
take and return plain JSON dicts; the hooks of what the board shows (the offers'
bookkeeping, the header, the active unit) read the position the engine already holds,
its GameState (scenario-format.md: its `state` is `GameState.turn`). None mutates its
arguments.

The base class is the common shape "sides in turn, within each phase": the active
side acts, then ends its part; when every side has ended, the next phase begins;
after the last phase, the next turn. A system overrides the hooks its notes change.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rules.engine.verdict import Violation
from rules.model.state import GameState

Json = dict[str, Any]


def without(mapping: Json, keys: tuple[str, ...]) -> Json:
    return {k: v for k, v in mapping.items() if k not in keys}


class TurnStructure:
    #: Phases of one turn, in order; (None,) where the system has none.
    phases: ClassVar[tuple[Any, ...]] = (None,)
    #: `state` keys that start afresh when a side hands over, each phase, each turn.
    reset_each_side: ClassVar[tuple[str, ...]] = ()
    reset_each_phase: ClassVar[tuple[str, ...]] = ()
    reset_each_turn: ClassVar[tuple[str, ...]] = ()
    #: The side that acts first changes from turn to turn.
    first_side_alternates: ClassVar[bool] = False
    #: What the board's button that ends a player's part says ("End activation");
    #: None: "End turn", or "End phase" where the system has phases (see `end_label`).
    end_part_label: ClassVar[str | None] = None
    #: What the header calls a turn ("Round" in apskirmish, APS-D23).
    turn_word: ClassVar[str] = "Turn"

    @property
    def phased(self) -> bool:
        return self.phases[0] is not None

    # -- the start ---------------------------------------------------------------
    def begin(self, sides: list[str], position: Json) -> tuple[Json, Json]:
        """The table's turn and the position when the battle goes live."""
        turn: Json = {"turn": 1, "active_side": sides[0], "sides": list(sides)}
        if self.phased:
            turn["phase"] = self.phases[0]
            position = {**position, "state": {**position.get("state", {}), "phase": self.phases[0]}}
        return turn, position

    # -- who may act now -----------------------------------------------------------
    def refusal(
        self, turn: Json, position: Json, side: str, action: Json | None = None
    ) -> Violation | None:
        """Why `side` may not make `action` now, or None. Judged before the engine."""
        active = turn.get("active_side")
        if active and side != active:
            return Violation("not_your_turn", f"It is {active}'s turn, not {side}'s.")
        return None

    def refuses_every_action(self, turn: Json, position: Json, side: str) -> bool:
        """Hook: whether `refusal` refuses `side` any action whatever its type and unit,
        so that the board's offers need not ask it type by type. Default: not known (a
        system whose refusal lets a reaction through out of turn, say, keeps it)."""
        return False

    def unit_may_take(self, position: GameState, unit_id: str, action_type: str) -> bool:
        """Hook: whether the turn's bookkeeping leaves the unit this action now, so that
        the board offers it (aod: one order a turn). The engine still judges a proposal."""
        return True

    def acted(self, turn: Json, position: Json, action: Json) -> Json:
        """The table's turn after a committed action (e.g. the active unit)."""
        return turn

    # -- changes -----------------------------------------------------------------
    def end_part(
        self, turn: Json, position: Json, *, whole_turn: bool = False
    ) -> tuple[Json, Json]:
        """(turn, position) after the active side ends its part, or the GM the turn.

        Order: within a turn, each phase; within a phase, each side in turn."""
        sides = self.order(turn)
        active = turn.get("active_side")
        index = sides.index(active) if active in sides else len(sides) - 1
        phase = turn.get("phase")
        phase_index = self.phases.index(phase) if phase in self.phases else 0
        state = without(position.get("state", {}), self.reset_each_side)
        new_turn = dict(turn)
        if not whole_turn and index + 1 < len(sides):
            new_turn["active_side"] = sides[index + 1]
            return new_turn, {**position, "state": state}
        if not whole_turn and phase_index + 1 < len(self.phases):
            phase = self.phases[phase_index + 1]
            new_turn["phase"] = phase
            new_turn["active_side"] = sides[0]
            state = {**without(state, self.reset_each_phase), "phase": phase}
            return new_turn, {**position, "state": state}
        return self.next_turn(new_turn, {**position, "state": state})

    def next_turn(self, turn: Json, position: Json) -> tuple[Json, Json]:
        """The first part of the next turn: per-turn keys reset, first side chosen."""
        new_turn = dict(turn)
        new_turn["turn"] = int(turn.get("turn", 1)) + 1
        state = without(position.get("state", {}), self.reset_each_turn)
        if self.phased:
            new_turn["phase"] = self.phases[0]
            state["phase"] = self.phases[0]
        new_turn["active_side"] = self.order(new_turn)[0]
        return new_turn, self.new_turn_units({**position, "state": state})

    def new_turn_units(self, position: Json) -> Json:
        """Hook: what a new turn changes on the units (mswars: a fallen unit straightens)."""
        return position

    def order(self, turn: Json) -> list[str]:
        """The sides in the order they act this turn."""
        sides = list(turn.get("sides") or [turn.get("active_side")])
        if self.first_side_alternates and sides:
            shift = (int(turn.get("turn", 1)) - 1) % len(sides)
            sides = sides[shift:] + sides[:shift]
        return sides

    # -- what the board shows ----------------------------------------------------
    def summary(self, turn: Json, position: GameState) -> str:
        """One line for the header, e.g. "Turn 2 · Phase 1 · P1 to act"."""
        parts = [f"{self.turn_word} {turn.get('turn', 1)}"]
        if turn.get("phase") is not None:
            parts.append(f"Phase {turn['phase']}")
        parts.append(f"{turn.get('active_side', '?')} to act")
        extra = self.budget(turn, position)
        if extra:
            parts.append(extra)
        return " · ".join(parts)

    def budget(self, turn: Json, position: GameState) -> str:
        """Hook: what the active side has left, e.g. "2 orders left" or "3 AP left"."""
        return ""

    def active_unit(self, turn: Json, position: GameState) -> str | None:
        """Hook: the unit whose activation runs now, for the board to highlight; None
        where the system has no activations (or none runs)."""
        return None

    def end_label(self) -> str:
        """The board's label for ending a player's part: the system's word, else
        "End phase" in a phased system, else "End turn"."""
        if self.end_part_label:
            return self.end_part_label
        return "End phase" if self.phased else "End turn"

    def to_json(self) -> Json:
        return {
            "phases": [p for p in self.phases if p is not None],
            "first_side_alternates": self.first_side_alternates,
        }
