"""How far a unit may go in one action: a base value, its halvings and a rounding policy.

Systems differ in how a halved allowance is rounded: aod rounds every derived
allowance up to a whole inch (000 [15], AOD-D27: halvings compound, each rounded
up); mswars halves exactly, because half inches are allowed (MSW-D21). The code
names the binding limit: a halved one is `half_speed_exceeded`, otherwise
`speed_exceeded` (contract, reason codes).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from rules.engine.model import Point2, Unit
from rules.engine.numbers import LENGTH_TOL, ceil_half, fmt
from rules.engine.verdict import Violation


def exact_half(x: float) -> float:
    """half(x) = x / 2, for systems that measure half inches (MSW-D21)."""
    return x / 2


#: Rounding policies by name, so that a system names its policy as data.
ROUNDING: dict[str, Callable[[float], float]] = {"ceil": ceil_half, "exact": exact_half}


@dataclass(frozen=True)
class Allowance:
    base: float
    #: What the base value is and its citation, e.g. ("move", "001 [16]").
    label: str = "move"
    cite: str = "001 [16]"
    #: Why it was halved, each with its citation, e.g. ("boarding", "000 [18]").
    halvings: tuple[tuple[str, str], ...] = ()
    #: How a halving rounds: "ceil" (whole inches, rounded up) or "exact".
    rounding: str = "ceil"
    #: The unit players read after a number: '"' (inches) or " MP".
    unit_label: str = '"'

    @property
    def value(self) -> float:
        halve = ROUNDING[self.rounding]
        v = float(self.base)
        for _ in self.halvings:
            v = halve(v)
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
        u = self.unit_label
        return Violation(self.code, f"{unit.id} needs {fmt(cost)}{u} but has "
                         f"{fmt(self.value)}{u} ({detail})", at, cite)
