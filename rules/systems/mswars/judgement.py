"""mswars judges with the kernel's path-ordered verdict builder: every code that applies,
in path order, `at` the first (mswars.md section 9)."""

from __future__ import annotations

from rules.engine.judgement import AFTER, BEFORE, moved_event
from rules.engine.judgement import PathJudgement as Judgement
from rules.model.state import Unit

__all__ = ["AFTER", "BEFORE", "Judgement", "moved_event", "who"]


def who(unit: Unit) -> str:
    """What players call the unit: its name if the roster gives one."""
    name = unit.get("name")
    return name if isinstance(name, str) and name else unit.id
