"""What an action will do besides moving, in a player's words, before the drop.

ui.md, "One truth": "what a move will do besides moving (a roll, a loss, leaving the
table) is said before the drop, and a move that loses the player's own piece asks once".
The engine says it, so that the board never names a system: a legal verdict gets
`consequences`, built here from its events, its rolls, the pieces it takes off the table
and the system's notes on it; each system words its own through the `System` hooks
(`event_consequence`, `roll_consequence`, `note_consequence`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from rules.engine.verdict import Roll, Verdict
from rules.model.state import GameState, Unit

if TYPE_CHECKING:
    from rules.engine.system import System
    from rules.model.actions import Action

#: The kinds a consequence may be (docs/rules-engine.md), beside the key of each of the
#: system's verdict notes (`System.verdict_notes`): the board asks the player to confirm a
#: `loses_unit` before it sends the order; the rest it shows.
KINDS = frozenset({"loses_unit", "removes_unit", "roll", "breakaway", "effect"})


@dataclass(frozen=True)
class Consequence:
    """One thing the action does besides moving. `text` is said before the drop (units by
    id, which the board shows by name); `done` is the log's past tense, where it differs."""

    kind: str
    text: str
    unit: str | None = None
    done: str = ""
    cite: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text}
        if self.unit is not None:
            out["unit"] = self.unit
        if self.done:
            out["done"] = self.done
        if self.cite:
            out["cite"] = self.cite
        return out


def with_consequences(
    system: System, state: GameState, action: Action, verdict: Verdict
) -> Verdict:
    """The verdict with its consequences: only a legal one has any (an illegal action
    changes nothing, or, refused with a consequence, says why in its reasons)."""
    if not verdict.legal:
        return verdict
    found = consequences(system, state, action, verdict)
    return replace(verdict, consequences=found) if found else verdict


def consequences(
    system: System, state: GameState, action: Action, verdict: Verdict
) -> tuple[Consequence, ...]:
    # The rolls come first: the order is carried out only as far as they allow.
    out = [
        c
        for r in verdict.rolls
        if r.pending
        if (c := system.roll_consequence(state, action, r)) is not None
    ]
    for event in verdict.events:
        said = system.event_consequence(state, action, event)
        if said is not None:
            out.append(said)
    covered = {c.unit for c in out if c.kind in ("loses_unit", "removes_unit")}
    actor = state.unit(action.unit)
    for unit in taken_off(state, verdict.state_after):
        if unit.id not in covered:
            out.append(removed(unit, actor))
    for note in system.verdict_notes:
        if note.key in verdict.notes:
            said = system.note_consequence(state, action, note, verdict.notes[note.key])
            if said is not None:
                out.append(said)
    return tuple(out)


def taken_off(before: GameState, after: GameState | None) -> list[Unit]:
    """Pieces on the table before that are neither on it nor aboard anything after."""
    if after is None:
        return []
    left = {u.id for u in after.units}
    return [u for u in before.units if u.aboard is None and u.id not in left]


def removed(unit: Unit, actor: Unit | None) -> Consequence:
    """A piece the action takes off the table: the player's own is a loss."""
    own = actor is not None and unit.side == actor.side
    if own:
        return Consequence(
            "loses_unit",
            f"{unit.id} is taken off the table: a loss",
            unit.id,
            f"{unit.id} was taken off the table",
        )
    return Consequence(
        "removes_unit",
        f"{unit.id} is taken off the table",
        unit.id,
        f"{unit.id} was taken off the table",
    )


def roll_words(roll: Roll) -> str:
    """ "Needs a breakaway roll of 4-6 on d6; on 4-6 the unit breaks away ..."."""
    on = f" on {roll.die}" if roll.die else ""
    decides = f"; {roll.decides}" if roll.decides else ""
    return f"Needs a {roll.what} roll of {roll.needed}{on}{decides}"
