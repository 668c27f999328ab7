"""apskirmish judges with the kernel's path-ordered verdict builder: every code that
applies in the order the line meets them, `at` the first (APS-D26)."""

from __future__ import annotations

from rules.engine.judgement import BEFORE, moved_event
from rules.engine.judgement import PathJudgement as Judgement

__all__ = ["BEFORE", "Judgement", "moved_event"]
