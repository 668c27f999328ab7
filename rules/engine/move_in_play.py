"""One move as the kernel plays it (`Play.move`, rules/engine/play.py): what every hook of
the move is given, as one argument.

The kernel makes it with what the move starts from (the judgement it adds its findings
to, the position, the unit, the action, the dice) and fills in what each step finds, in
order: the `allowance` (for `measure_path` on), the `priced` path (for `check_moved`
on), and the `moved` unit (for `move_events` and `after_move`). A hook that reads a
step not yet taken is a bug of the kernel's order: it fails loudly.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rules.engine.allowance import Allowance
from rules.engine.dice import Dice, make_dice
from rules.engine.judgement import PathJudgement
from rules.engine.priced_path import PricedTrack
from rules.engine.verdict import Roll
from rules.model.actions import Action
from rules.model.state import Unit


@dataclass(frozen=True)
class MoveInPlay:
    """A move being played: what it starts from, and what its steps have found so far."""

    #: Where the hooks add what they find (and the cost, allowance, rolls and events).
    judgement: PathJudgement
    #: The system's position (its `position_type`).
    position: Any
    unit: Unit
    action: Action
    dice: Dice
    _allowance: Allowance | None = None
    _priced: PricedTrack | None = None
    _moved: Unit | None = None

    @classmethod
    def asked(cls, position: Any, unit: Unit, action: Action) -> MoveInPlay:
        """A move asked about before it is played (the reach's budget): nothing rolled."""
        return cls(
            PathJudgement(position.state), position, unit, action, make_dice(unresolved=True)
        )

    @property
    def allowance(self) -> Allowance:
        """How far the unit may go (the `allowance` hook's)."""
        assert self._allowance is not None, "the allowance is not known yet"
        return self._allowance

    @property
    def priced(self) -> PricedTrack:
        """The path as `measure_path` priced it: what it costs and where it ends."""
        assert self._priced is not None, "the path is not measured yet"
        return self._priced

    @property
    def moved(self) -> Unit:
        """The unit as the legal move leaves it (`end_of_move`)."""
        assert self._moved is not None, "the move has not ended yet"
        return self._moved

    @property
    def last_roll(self) -> Roll | None:
        """The last roll the move made (a Dodge's), None where it made none."""
        rolls = self.judgement.rolls
        return rolls[-1] if rolls else None

    def with_allowance(self, allowance: Allowance) -> MoveInPlay:
        return replace(self, _allowance=allowance)

    def with_priced(self, priced: PricedTrack) -> MoveInPlay:
        return replace(self, _priced=priced)

    def with_moved(self, moved: Unit) -> MoveInPlay:
        return replace(self, _moved=moved)
