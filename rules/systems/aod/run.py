"""The run allowance of aod (AOD-D2, 000 [15])."""

from __future__ import annotations

import math

from rules.engine.allowance import Allowance
from rules.engine.numbers import fmt
from rules.model.state import Unit


def run_allowance(unit: Unit, run_multiplier: float) -> Allowance:
    """Run = `run_move`, else move x run_multiplier, rounded up (AOD-D2, 000 [15])."""
    rm = unit.get("run_move")
    if isinstance(rm, int | float) and not isinstance(rm, bool):
        return Allowance(float(rm), "its run move", "AOD-D2")
    return Allowance(
        float(math.ceil(unit.move * run_multiplier - 1e-9)),
        f"a run: move x {fmt(run_multiplier)}",
        "AOD-D2",
    )
