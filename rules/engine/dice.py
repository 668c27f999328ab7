"""Where dice come from: forced lists (scenarios, tests) or `secrets` (live play).

Every roll is reported in the verdict; a forced list that runs out is an error
(`dice_exhausted`), never a silent random roll (contract).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from rules.engine.errors import DiceExhaustedError, InvalidActionError


@dataclass
class Dice:
    """Mutable cursor over forced results; one instance per scenario run."""

    forced_dice: list[int] | None = None
    forced_outcomes: list[bool] | None = None
    _d: int = 0
    _o: int = 0

    def d6(self, what: str) -> int:
        if self.forced_dice is None:
            return secrets.randbelow(6) + 1
        if self._d >= len(self.forced_dice):
            raise DiceExhaustedError(f"dice ({what})")
        r = self.forced_dice[self._d]
        self._d += 1
        return r

    def outcome(self, what: str) -> bool | None:
        """A pass/fail result; None when the scenario forces none (unresolved)."""
        if self.forced_outcomes is None:
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
    raise InvalidActionError(key, f"expected \"success\" or \"fail\", got {value!r}")


def make_dice(dice: Sequence[int] | None = None,
              outcomes: Sequence[bool] | None = None) -> Dice:
    return Dice(None if dice is None else list(dice),
                None if outcomes is None else list(outcomes))
