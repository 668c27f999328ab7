"""What an aod order does besides moving, in a player's words, before the drop
(rules/engine/consequences.py; aod.md 9, 11.3)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.consequences import Consequence, roll_words
from rules.engine.verdict import Roll


def roll_consequence(unit: str, roll: Roll) -> Consequence:
    """A unit in base contact with an opposing one breaks away by a d6 roll before it
    moves; a failure spends the order (000 BREAKAWAY [16-17], AOD-D23)."""
    if roll.what == "breakaway":
        return Consequence(
            "breakaway",
            f"{unit} breaks away from base contact. {roll_words(roll)}",
            unit,
            cite="000 [16-17]",
        )
    return Consequence("roll", roll_words(roll), unit)


def event_consequence(event: Mapping[str, Any]) -> Consequence | None:
    kind, uid = event.get("type"), str(event.get("unit", ""))
    by = str(event.get("by", ""))
    if kind == "push_damage":
        # A 'Mech breaking away pushes the infantry it leaves (000 [17]).
        return Consequence(
            "effect",
            f"{by} pushes {uid} as it breaks away: {uid} takes {event.get('damage', 1)} damage",
            uid,
            cite="000 [17]",
        )
    if kind == "capture_attempt" and event.get("result") == "unresolved":
        return Consequence(
            "roll",
            f"{event.get('unit')} tries to take "
            f"{event.get('target')} captive: the capture roll decides",
            uid,
            cite="001 [26]",
        )
    if kind == "eliminated":
        return Consequence(
            "removes_unit",
            f"{uid} is eliminated: {event.get('why', '')}",
            uid,
            f"{uid} was eliminated",
        )
    return None
