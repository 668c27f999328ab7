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

from rules.engine.numbers import LENGTH_TOL, ceil_half, fmt
from rules.engine.verdict import Violation
from rules.model.state import Point2, Unit


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

    def violation(
        self, unit: Unit, cost: float, at: Point2 | None, turning: tuple[float, float] = (0.0, 0.0)
    ) -> Violation:
        """ "M1 needs 9" but has 8"", with what halved the allowance or what the base value
        is where that is not plain Move; `turning` ((cost, degrees) of the turns in place,
        `PricedLegs.turning`) splits the cost into path and turning. The citations go to
        `cite`, every halving's with the base value's."""
        if self.halvings:
            context = " (half speed: " + "; ".join(w for w, _ in self.halvings) + ")"
            cites = [c for _, c in self.halvings]
        else:
            context = "" if self.label.lower() == "move" else f" ({self.label})"
            cites = [self.cite]
        cite = ", ".join(dict.fromkeys(r.strip() for c in cites for r in c.split(",")))
        return Violation(
            self.code,
            needs_message(unit.id, cost, self.value, self.unit_label, turning, context),
            at,
            cite,
        )


def needs_message(
    name: str,
    cost: float,
    has: float,
    unit_label: str,
    turning: tuple[float, float] = (0.0, 0.0),
    context: str = "",
) -> str:
    """What a move costs against what the unit has, in a player's words: with the share
    spent on turning in place when there is one, since a short line refused for a long
    turn otherwise reads as a mistake ("Jetpack squad needs 56.6\": 28.0\" of path and
    28.6\" to turn 180°; it has 24\"")."""
    u = unit_label
    turn_cost, degrees = turning
    if turn_cost < 0.05:
        return f"{name} needs {fmt(cost)}{u} but has {fmt(has)}{u}{context}"
    return (
        f"{name} needs {cost:.1f}{u}: {cost - turn_cost:.1f}{u} of path and "
        f"{turn_cost:.1f}{u} to turn {degrees:.0f}°; it has {fmt(has)}{u}{context}"
    )
