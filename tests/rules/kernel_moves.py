"""Which actions the kernel's movement handler (rules/engine/play.py `Play.move`) plays:
a system's tests check that its moves go through it (issue 24)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.engine.play import Play


def played_by_kernel(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The action types `Play.move` plays from now on, in order (the test's monkeypatch
    undoes the wrapping)."""
    played: list[str] = []
    kernel_move = Play.move

    def move(self: Play, position: Any, unit: Any, action: Any, dice: Any) -> Any:
        played.append(action.type)
        return kernel_move(self, position, unit, action, dice)

    monkeypatch.setattr(Play, "move", move)
    return played
