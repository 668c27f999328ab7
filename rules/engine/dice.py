"""Where dice come from: forced lists (scenarios, tests), `secrets` (live play), or
nowhere at all (a preview: the roll stays unresolved).

Every roll is reported in the verdict; a forced list that runs out is an error
(`dice_exhausted`), never a silent random roll (contract). A preview never rolls
(design.md, "The life of a move" 6): in unresolved mode a die is not rolled and a
test reports the roll a commit would make ("breakaway 3-6") with no result, so a
player cannot preview until the dice favour them.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from rules.engine.verdict import Roll
from rules.model.errors import DiceExhaustedError, InvalidActionError


@dataclass
class Dice:
    """Mutable cursor over forced results; one instance per scenario run or act.

    `unresolved`: the preview mode. No die is rolled, no forced result is consumed,
    `d` and `outcome` give None and `test` a pending Roll.
    """

    forced_dice: list[int] | None = None
    forced_outcomes: list[bool] | None = None
    unresolved: bool = False
    _d: int = 0
    _o: int = 0

    def d(self, sides: int, what: str) -> int | None:
        """One die of `sides` faces (1..sides); None when unresolved (a preview)."""
        if sides < 2:
            raise ValueError(f"a die has at least 2 sides, not {sides} ({what})")
        if self.unresolved:
            return None
        if self.forced_dice is None:
            return secrets.randbelow(sides) + 1
        if self._d >= len(self.forced_dice):
            raise DiceExhaustedError(f"dice ({what})")
        result = self.forced_dice[self._d]
        self._d += 1
        return result

    def d6(self, what: str) -> int | None:
        return self.d(6, what)

    def test(
        self, what: str, sides: int, at_least: int, decides: str = "", at_most: int | None = None
    ) -> Roll:
        """A pass/fail roll of one die: success on `at_least` or more ("3-6" on a d6), and
        at most `at_most` where given (a roll under a stat: at_least 1, "1-4" on a d10).

        `decides` says what the result decides (shown with a pending roll). In
        unresolved mode the Roll is pending: `result` and `success` are None."""
        result = self.d(sides, what)
        top = sides if at_most is None else at_most
        return Roll(
            what,
            f"d{sides}",
            result,
            f"{at_least}-{top}",
            None if result is None else result >= at_least and (at_most is None or result <= top),
            forced=self.forced_dice is not None,
            decides=decides,
        )

    def outcome(self, what: str) -> bool | None:
        """A pass/fail result given as such (capture, DFA); None when unresolved:
        the scenario forces none, or this is a preview."""
        if self.unresolved or self.forced_outcomes is None:
            return None
        if self._o >= len(self.forced_outcomes):
            raise DiceExhaustedError(f"outcomes ({what})")
        r = self.forced_outcomes[self._o]
        self._o += 1
        return r


def parse_outcome(value: object, key: str) -> bool:
    if isinstance(value, bool):
        return value
    if value in ("success", "succeed", "pass", "hit"):
        return True
    if value in ("fail", "failure", "miss"):
        return False
    raise InvalidActionError(key, f'expected "success" or "fail", got {value!r}')


def make_dice(
    dice: Sequence[int] | None = None,
    outcomes: Sequence[bool] | None = None,
    *,
    unresolved: bool = False,
) -> Dice:
    """Forced results where given, else `secrets`; `unresolved=True` for a preview,
    which rolls nothing."""
    return Dice(
        None if dice is None else list(dice),
        None if outcomes is None else list(outcomes),
        unresolved,
    )
