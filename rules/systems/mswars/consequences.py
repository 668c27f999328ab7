"""What an M.S. Wars action does besides moving, in a player's words, before the drop
(rules/engine/consequences.py; mswars.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.consequences import Consequence, roll_words
from rules.engine.verdict import Roll


def roll_consequence(roll: Roll) -> Consequence | None:
    """A fall's damage dice are said with the fall (the `fell` event), not one by one."""
    return None if roll.needed == "damage" else Consequence("roll", roll_words(roll))


def event_consequence(event: Mapping[str, Any]) -> Consequence | None:
    kind, uid = event.get("type"), str(event.get("unit", ""))
    if kind == "attack_of_opportunity":
        # Every opposing unit in base contact attacks first (002 Break Away Action).
        target = str(event.get("target", ""))
        result = event.get("result")
        then = "" if result == "unresolved" else f" ({result})"
        return Consequence(
            "breakaway",
            f"{target} breaks away: {uid} attacks it first{then}",
            target,
            cite="002 Break Away Action",
        )
    if kind == "fell":
        return Consequence(
            "effect",
            f"{uid} falls from {event.get('from')}: "
            f"{event.get('size_class')}d6 damage, no shields, no more actions "
            "this turn",
            uid,
            cite="002 Falling",
        )
    if kind == "endurance_test":
        return Consequence(
            "roll", f"{uid} takes an Endurance test ({event.get('test')})", uid, cite="002 Falling"
        )
    return None
