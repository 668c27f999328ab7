"""What the rules read from a soldier: its stance, distance per AP, AP and Threshold, and
what an action leaves on it (apskirmish.md 2, APS-D14, APS-D22, APS-D36)."""

from __future__ import annotations

from rules.model.state import Unit
from rules.systems.apskirmish.tables import DEFAULT_STANCE, RUN_MOVES, STANCE_MOVE


def stance(unit: Unit) -> str:
    return str(unit.get("stance", DEFAULT_STANCE))


def per_ap(unit: Unit) -> float:
    """Inches for 1 AP: the unit's own `move` if given, else its stance's (APS-D14)."""
    return unit.move if unit.move_given else STANCE_MOVE[stance(unit)]


def run_distance(unit: Unit) -> float:
    """A run is three AP moves in one line: 9" for a standing soldier (APS-D25)."""
    return RUN_MOVES * per_ap(unit)


def ap_left(unit: Unit) -> float | None:
    """AP left, or None when the position does not count them (APS-D36)."""
    ap = unit.get("ap")
    return None if ap is None else float(ap)


def threshold(unit: Unit) -> int:
    return int(unit.get("threshold", 0) or 0)


def after_spending(unit: Unit, ap: int, activates: bool, extra_threshold: int = 0) -> Unit:
    """The soldier after paying for an action: AP deducted (where counted), `activated`
    set by an activation's actions (not by a Dodge, APS-D34), Threshold taken."""
    changes: dict[str, object] = {}
    left = unit.get("ap")
    if left is not None and ap:
        changes["ap"] = left - ap
    if activates:
        changes["activated"] = True
    if extra_threshold:
        changes["threshold"] = threshold(unit) + extra_threshold
    return unit.with_props(**changes) if changes else unit
