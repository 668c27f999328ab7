"""How far a unit may go this order (aod.md section 2).

Every derived allowance is rounded up (000 [15]); halvings compound, each
rounded up (AOD-D27). The code names the binding limit: a halved one is
`half_speed_exceeded`, otherwise `speed_exceeded`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from rules.engine.model import Point2, Unit
from rules.engine.numbers import LENGTH_TOL, ceil_half, fmt
from rules.engine.verdict import Violation


@dataclass(frozen=True)
class Allowance:
    base: float
    #: What the base value is and its citation, e.g. ("move", "001 [16]").
    label: str = "move"
    cite: str = "001 [16]"
    #: Why it was halved, each with its citation, e.g. ("boarding", "000 [18]").
    halvings: tuple[tuple[str, str], ...] = ()

    @property
    def value(self) -> float:
        v = float(self.base)
        for _ in self.halvings:
            v = ceil_half(v)
        return v

    @property
    def code(self) -> str:
        return "half_speed_exceeded" if self.halvings else "speed_exceeded"

    def halve(self, why: str, cite: str) -> Allowance:
        return replace(self, halvings=self.halvings + ((why, cite),))

    def exceeded(self, cost: float) -> bool:
        return cost > self.value + LENGTH_TOL

    def violation(self, unit: Unit, cost: float, at: Point2 | None) -> Violation:
        if self.halvings:
            why = "; ".join(f"{w}, {c}" for w, c in self.halvings)
            detail = f"half speed: {why}"
            cite = self.halvings[-1][1]
        else:
            detail = f"{self.label}, {self.cite}"
            cite = self.cite
        return Violation(self.code, f"{unit.id} needs {fmt(cost)}\" but has "
                         f"{fmt(self.value)}\" ({detail})", at, cite)


def run_allowance(unit: Unit, run_multiplier: float) -> Allowance:
    """Run = `run_move`, else move x run_multiplier, rounded up (AOD-D2, 000 [15])."""
    rm = unit.get("run_move")
    if isinstance(rm, int | float) and not isinstance(rm, bool):
        return Allowance(float(rm), "run allowance (run_move)", "AOD-D2")
    return Allowance(float(math.ceil(unit.move * run_multiplier - 1e-9)),
                     f"run allowance (move x {fmt(run_multiplier)})", "AOD-D2")
