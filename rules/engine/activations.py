"""Alternating activations of single units: the turn structure apskirmish (apskirmish.md
6b, APS-D23) and lasergrenadiers (lasergrenadiers.md 12b, LG-D31) share.

The active side picks one unit that has not activated this turn by acting with it; that
unit's activation runs (the table's turn keeps `active_unit`) while it makes any number
of actions, and no other unit of any side acts meanwhile (`not_your_turn`). Ending the
part ends the activation, marks the unit as activated, and hands over to the next side,
in the turn's order, that still has a unit to activate: a side with nobody left passes.
When nobody is left, the turn (a round) ends.

A system says, through the hooks below, how it marks an activation (a flag on the unit,
a list in the turn state), which units are still waiting, which actions are not part of
an activation (a reaction), what an end with no unit activated means (a pass, or the
first waiting unit's activation), and whether every side passing in a row ends the turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rules.engine.turns import Json, TurnStructure, without
from rules.engine.verdict import Violation
from rules.model.state import GameState


class ActivationTurns(TurnStructure):
    end_part_label = "End activation"
    #: The decision that orders the activations, cited by a refusal.
    cite: ClassVar[str] = ""
    #: Every side passing in a row ends the turn (LG-D31); the table's turn then counts
    #: the passes in a row under `passes`.
    all_passing_ends_turn: ClassVar[bool] = False

    # -- hooks -------------------------------------------------------------------------
    def activates(self, action_type: Any) -> bool:
        """Hook: whether an action of this type is part of an activation; a reaction
        (an apskirmish Dodge) is not, and any side may make it at any time."""
        return True

    def running(self, turn: Json, state: Mapping[str, Any]) -> str | None:
        """Hook: the unit whose activation runs, from the table's turn (or the position's
        turn state, where the system keeps it there too)."""
        found = turn.get("active_unit")
        return str(found) if found else None

    def acts_for_running(self, action: Json, running: str, position: Json) -> bool:
        """Hook: whether another unit's action is part of the running activation (a
        lasergrenadiers vehicle unloading the active piece, LG-D31)."""
        return False

    def refused_again(self, position: Json, unit_id: str) -> Violation | None:
        """Hook: the refusal of a unit that has already activated this turn, or None."""
        raise NotImplementedError

    def has_activated(self, position: GameState, unit_id: str) -> bool:
        """Hook: whether the unit has activated this turn, read from the engine's
        position (for the board's offers)."""
        raise NotImplementedError

    def waiting(self, position: Json, side: str) -> list[str]:
        """Hook: the units of `side` that may still activate this turn."""
        raise NotImplementedError

    def mark_activated(self, position: Json, unit_id: str) -> Json:
        """Hook: the position once the unit's activation has ended."""
        raise NotImplementedError

    def stands_in(self, position: Json, side: str) -> str | None:
        """Hook: the unit whose activation an end of the part with no unit activated
        uses up; None: the side passes."""
        return None

    def activation_ended(self, position: Json) -> Json:
        """Hook: what the position keeps of an activation once it ends (apskirmish
        clears its `state.active_unit`)."""
        return position

    # -- who may act now ---------------------------------------------------------------
    def refusal(
        self, turn: Json, position: Json, side: str, action: Json | None = None
    ) -> Violation | None:
        if action is not None and not self.activates(action.get("type")):
            return None
        refused = super().refusal(turn, position, side, action)
        if refused is not None or not action or not action.get("unit"):
            return refused
        unit_id = str(action["unit"])
        running = self.running(turn, position.get("state") or {})
        if running is None:
            return self.refused_again(position, unit_id)
        if running != unit_id and not self.acts_for_running(action, running, position):
            return Violation(
                "not_your_turn",
                f"{running} is active: end its activation before {unit_id} acts",
                None,
                self.cite,
            )
        return None

    def unit_may_take(self, position: GameState, unit_id: str, action_type: str) -> bool:
        if not self.activates(action_type):
            return True
        running = self.running({}, position.turn)
        if running is not None:
            return running == unit_id
        return not self.has_activated(position, unit_id)

    def acted(self, turn: Json, position: Json, action: Json) -> Json:
        """The unit that acted is the active one until its side ends the activation."""
        if not action.get("unit") or turn.get("active_unit"):
            return turn
        if not self.activates(action.get("type")):
            return turn
        return {**turn, "active_unit": action["unit"], **self._passes(0)}

    # -- changes -----------------------------------------------------------------------
    def begin(self, sides: list[str], position: Json) -> tuple[Json, Json]:
        turn, position = super().begin(sides, position)
        return {**turn, **self._passes(0)}, position

    def end_part(
        self, turn: Json, position: Json, *, whole_turn: bool = False
    ) -> tuple[Json, Json]:
        """End the activation (or pass) and hand over to the next side with a unit to
        activate; the turn ends when nobody is left (or every side passed in a row)."""
        if whole_turn:
            return self.next_turn(turn, position)
        side = str(turn.get("active_side"))
        ended = self.running(turn, position.get("state") or {}) or self.stands_in(position, side)
        if ended is not None:
            position = self.mark_activated(position, ended)
        position = self.activation_ended(position)
        passes = 0 if ended else int(turn.get("passes", 0)) + 1
        new_turn = {**without(turn, ("active_unit",)), **self._passes(passes)}
        sides = self.order(turn)
        if self.all_passing_ends_turn and passes >= len(sides):
            return self.next_turn(new_turn, position)
        start = sides.index(side) if side in sides else -1
        for step in range(1, len(sides) + 1):
            candidate = sides[(start + step) % len(sides)]
            if self.waiting(position, candidate):
                return {**new_turn, "active_side": candidate}, position
        return self.next_turn(new_turn, position)

    def next_turn(self, turn: Json, position: Json) -> tuple[Json, Json]:
        new_turn, position = super().next_turn(without(turn, ("active_unit",)), position)
        return {**new_turn, **self._passes(0)}, position

    def _passes(self, count: int) -> Json:
        return {"passes": count} if self.all_passing_ends_turn else {}

    # -- what the board shows ----------------------------------------------------------
    def active_unit(self, turn: Json, position: GameState) -> str | None:
        """The unit whose activation runs, for the board to highlight: one on the table."""
        unit = position.unit(self.running(turn, position.turn) or "")
        return unit.id if unit is not None and unit.on_table else None
