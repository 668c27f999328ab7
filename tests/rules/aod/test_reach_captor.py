"""aod reach of a captor whose captive is a 'Mech (001 [27], AOD-D33; issue 20: every
shaded point is a legal end along the path reach gives)."""

from __future__ import annotations

import math

from rules import GameState, reach
from tests.rules.reach_sampling import judged_ends as sample_ends
from tests.rules.scenes import rect_unit, scene, square, unit


def judged_ends(state: GameState, count: int = 40) -> int:
    ends = sample_ends(state, "M1", count=count, seed=5, tries=50000)
    assert all(keys == {} for keys in ends)  # a move names nothing (the captive is optional)
    return len(ends)


def captor_and_mech(*more: dict[str, object], move: float = 4) -> list[dict[str, object]]:
    return [
        unit("M1", type="infantry", position=(10, 10), diameter=1.0, move=6),
        unit("C1", side="P2", position=(11, 10), diameter=1.0, captive_of="M1", move=move),
        *more,
    ]


def test_a_captor_of_a_mech_ends_touching_it_where_it_stays() -> None:
    # 001 [27]: a captive 'Mech may not move; the captor must end in base contact with it
    # (must_end_in_contact), at the slower speed. Every shaded end is a contact.
    state = scene(captor_and_mech())
    found = reach(state, "M1")
    assert found.allowance == 4
    assert not found.complete and found.horizon == 0  # a subset: says so
    for part in getattr(found.area, "geoms", [found.area]):
        for x, y in part.exterior.coords:
            assert 1.0 < math.dist((x, y), (11, 10)) < 1.0 + 0.01  # contact, no overlap
    assert found.contains((11, 11.005))  # beside the captive
    assert not found.contains((9.5, 10))  # not in contact
    assert judged_ends(state) == 40


def test_a_captor_of_a_mech_is_kept_from_bases_and_terrain_beside_it() -> None:
    # 000 [33] blocking; AOD-D8 no passing through bases; the band is cut where another
    # base or blocking terrain leaves no room for the captor's base.
    state = scene(
        captor_and_mech(unit("F1", position=(11, 11.3), diameter=1.0)),
        [square("B1", "blocking", 11.8, 9, 13, 10.2)],
    )
    found = reach(state, "M1")
    assert not found.area.is_empty
    assert not found.contains((11, 11.005))  # F1 leaves no room there
    assert judged_ends(state) == 40


def test_a_rect_captor_of_a_mech_stays_unshaded() -> None:
    # A rect captor touching its captive: not shaded, and the answer says so.
    state = scene(
        [
            rect_unit("M1", 1, 1.5, type="infantry", position=(10, 10), move=6),
            unit("C1", side="P2", position=(11.255, 10), diameter=1.0, captive_of="M1"),
        ]
    )
    found = reach(state, "M1")
    assert found.area.is_empty and not found.complete and found.horizon == 0
