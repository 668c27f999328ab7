"""A broken rule's name in a player's words ("Turning, LaserGrenadiers rules").

A refusal reads message first; the rule's name follows, with the seed reference and decision
id (`Violation.cite`) behind it for whoever wants the book (ui.md, "What the player reads").
The name comes from the citation: the system's own name for a cited reference where it
gives one (`System.rule_topics`), else the seed section a reference names ("003 Turning 3"
-> "Turning"), else what the reason code is about (a page reference such as "000 [33]"
names no section).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache

from rules.engine.verdict import Verdict, Violation

#: What each shared reason code is about, where the citation names no section.
CODE_TOPICS: Mapping[str, str] = {
    "speed_exceeded": "Movement allowance",
    "half_speed_exceeded": "Half speed",
    "must_stop_hindering": "Hindering terrain",
    "blocking_terrain": "Blocking terrain",
    "prohibited_terrain": "Prohibited terrain",
    "base_overlap": "Overlapping bases",
    "path_through_base": "Moving past bases",
    "off_table": "Table edge",
    "breakaway_failed": "Breaking away",
    "no_free_spin": "Free spin",
    "order_not_allowed": "Orders",
    "action_not_allowed": "Actions",
    "formation_invalid": "Formations",
    "capacity_exceeded": "Transport capacity",
    "placement_invalid": "Placement",
    "direction_not_allowed": "Direction of movement",
    "altitude_exceeded": "Altitude",
    "roll_required": "Rolls",
    "must_end_in_contact": "Base contact",
    "not_your_turn": "Turn order",
    "no_actions_left": "Actions per turn",
    "obstacle_crossed": "Obstacles",
    "gap_too_narrow": "Gaps between obstacles",
}

#: "003 Turning 3" -> "Turning"; "002 Move Actions: Run" -> "Move Actions: Run". A page
#: reference ("000 [33]", "001 [CCURoW]") names no section.
SEED_SECTION = re.compile(r"\d{3} (?!\[)(?:Rules: )?(?P<section>.+?)(?: \d+[a-z]?(?:-\d+)?)?")


def section_of(ref: str) -> str | None:
    """The seed section a reference names, capitalised; None for a page or a decision."""
    found = SEED_SECTION.fullmatch(ref.strip())
    if found is None:
        return None
    section = found.group("section")
    if section.isupper():  # "000 FREE SPINS", a reference sheet's heading
        section = section.lower()
    return section[:1].upper() + section[1:]


@lru_cache(maxsize=1024)
def topic(cite: str, code: str, topics: tuple[tuple[str, str], ...] = ()) -> str | None:
    """What the cited rule is about, in a player's words (see the module's docstring);
    None for a malformed action or an unknown unit whose citation names no section: they
    break no rule of the game (contract)."""
    own = dict(topics)
    for ref in (r.strip() for r in cite.split(",")):
        if ref in own:
            return own[ref]
        section = section_of(ref)
        if section is not None:
            return section
    if code in ("malformed", "unknown_unit"):
        return None
    return CODE_TOPICS.get(code, code.replace("_", " ").capitalize())


def rule_name(
    system_name: str, violation: Violation, topics: Mapping[str, str] | None = None
) -> str:
    """ "<topic>, <system> rules"; empty where `topic` finds none."""
    about = topic(violation.cite, violation.code, tuple(sorted((topics or {}).items())))
    return "" if about is None else f"{about}, {system_name} rules"


def named(
    system_name: str, violation: Violation, topics: Mapping[str, str] | None = None
) -> Violation:
    """The violation with its rule's name, unless it already has one."""
    if violation.rule:
        return violation
    rule = rule_name(system_name, violation, topics)
    return replace(violation, rule=rule) if rule else violation


def named_verdict(
    system_name: str, verdict: Verdict, topics: Mapping[str, str] | None = None
) -> Verdict:
    """The verdict with every reason's rule named (a legal verdict is returned as is)."""
    if not verdict.reasons:
        return verdict
    return replace(verdict, reasons=tuple(named(system_name, r, topics) for r in verdict.reasons))
