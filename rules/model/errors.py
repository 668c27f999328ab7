"""Errors for malformed input. An *illegal* move is never an error: it is a Verdict."""

from __future__ import annotations


class InvalidActionError(ValueError):
    """Malformed scenario, state or action. `key` names the offending key (dotted path)."""

    def __init__(self, key: str, message: str, code: str = "malformed") -> None:
        super().__init__(f"{key}: {message}" if key else message)
        self.key = key
        self.code = code
        self.detail = message


class DiceExhaustedError(InvalidActionError):
    """A scenario forced dice or outcomes and needed more than it gave (contract)."""

    def __init__(self, what: str) -> None:
        super().__init__(
            what, "needs more forced results than the scenario gives", code="dice_exhausted"
        )
