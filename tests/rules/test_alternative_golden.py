"""The nearest legal alternative over every golden file of every system (issue 20; ui.md
"Moving a piece" 4; scenario-format.md, "Other commands": alternative).

Every refused move whose refusal is a place on its path (too far, terrain, bases, the table
edge, the direction, gaps, obstacles, altitude) is offered an alternative, or none for a
reason the test states; every alternative offered is an action `validate` accepts in the
same position. The counts per system go to the report (`-s` prints them)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from rules.engine.dice import make_dice
from rules.engine.verdict import Verdict
from rules.model.actions import Waypoint
from rules.referee.alternative import nearest_alternative
from rules.referee.offers import is_offered
from rules.systems.registry import get_system
from tests.rules.golden_positions import SYSTEMS, Judged, judged

#: Refusals that name a place on the path: another end would cure them.
PLACE_CODES = frozenset(
    {
        "speed_exceeded",
        "half_speed_exceeded",
        "must_stop_hindering",
        "blocking_terrain",
        "prohibited_terrain",
        "base_overlap",
        "path_through_base",
        "off_table",
        "direction_not_allowed",
        "altitude_exceeded",
        "obstacle_crossed",
        "gap_too_narrow",
    }
)


def refused_on_the_path(j: Judged) -> bool:
    return not j.verdict.legal and j.moves and bool(j.codes & PLACE_CODES)


def why_none(j: Judged) -> str | None:
    """The stated reason the engine offers no alternative, or None when it has none."""
    if not is_offered(j.before, j.action.unit, j.action.type):
        return "the type is refused whatever the path (not offered: orders, AP, state)"
    found = get_system(j.before.system).reach(j.before, j.action.unit, j.action.type)
    if found.cut_at == 0.0:
        return "the engine does not shade this type (it ends in contact, aboard, placed)"
    if found.area is None:
        return "the unit ends aboard, off the table: no end to propose"
    if found.area.is_empty or found.area.area < 1e-9:
        return "nowhere to end: the unit cannot move with this type from where it stands"
    unit = j.before.unit(j.action.unit)
    assert unit is not None
    standing = replace(j.action, path=(Waypoint(*unit.position[:2]),), facing=None)
    stays = get_system(j.before.system).validate(j.before, standing, make_dice(unresolved=True))
    if {r.code for r in stays.reasons} & {"speed_exceeded", "half_speed_exceeded"}:
        # 000 [16]: a VTOL's ranged attack costs 12" of its move, here more than it has.
        return "the action's own costs (a VTOL's climb, a ranged attack) exceed the allowance"
    return None


def legal_again(j: Judged, verdict_of_offer: Verdict, offered: object) -> bool:
    """The offer judged afresh in the same position: legal, with no roll made."""
    again = get_system(j.before.system).validate(
        j.before,
        offered,  # type: ignore[arg-type]
        make_dice(unresolved=True),
    )
    return again.legal and verdict_of_offer.legal


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_refused_path_move_gets_a_legal_alternative_or_a_stated_reason(system: str) -> None:
    # 002 Rules: Movement / 000 [32] / 003 Movement / 004 Movement: the refusal is a
    # place on the path, so the legal end nearest the drop is what a player wants.
    counts: Counter[str] = Counter()
    unexplained = []
    for j in judged(system):
        if not refused_on_the_path(j):
            continue
        counts["refused moves"] += 1
        offer = nearest_alternative(j.before, j.action)
        if offer is not None:
            counts["alternatives"] += 1
            assert legal_again(j, offer.verdict, offer.action), j.name
            continue
        reason = why_none(j)
        if reason is None:
            unexplained.append(j.name)
        else:
            counts[reason] += 1
    print(f"\n{system}: {dict(counts)}")
    assert counts["refused moves"] > 0
    assert not unexplained, unexplained


def test_the_diagonal_drag_is_offered_the_same_end_with_the_free_turn_first() -> None:
    # MSW-D5 (turn to face the way first), MSW-D7 (the walker's free turn): the
    # alternative is the action with the turn, ending where the piece was dropped.
    j = next(
        j
        for j in judged("mswars")
        if j.file.startswith("mswars/05_a_diagonal_drag_is_refused") and j.index == 0
    )
    offer = nearest_alternative(j.before, j.action)
    assert offer is not None
    assert offer.off_by < 0.01
    assert offer.to_json()["action"]["path"] == [{"turn": 45.0}, [14.0, 14.0]]
