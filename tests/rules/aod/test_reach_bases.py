"""aod reach beside other bases: a rect base whose corners pass near a base next to its
start (aod.md 5.1, AOD-D8: no unit passes through another's base, friendly or opposing;
only a 'Mech crosses infantry, 000 [17])."""

from __future__ import annotations

from typing import Any

from rules import GameState, reach, validate
from tests.rules.reach_sampling import judged_ends as sample_ends
from tests.rules.scenes import rect_unit, scene, unit


def legal_ends(state: GameState, uid: str = "U", count: int = 40) -> int:
    return len(sample_ends(state, uid, count=count, seed=5))


def rect_beside_a_friend(**more: Any) -> GameState:
    """A 1" x 2" 'Mech facing along x, 0.375" above a friendly 'Mech's circle base, both
    touching a hindering square (half speed, 000 [32]): the circle round the rect reaches
    over the friend's base, the rect itself does not. Found by test_properties.py's
    reach-soundness property once the file was reformatted."""
    hindering = [[60.0, 60.0], [61.0, 60.0], [61.0, 61.0], [60.0, 61.0]]
    return scene(
        [
            rect_unit("U", 1.0, 2.0, position=(60.0, 61.5), facing=0.0, move=10, **more),
            unit("O0", position=(60.0, 60.0), diameter=1.25, move=6),
        ],
        [{"id": t, "type": "hindering", "polygon": hindering} for t in ("T0", "T1")],
        width=120,
        height=120,
    )


def test_a_rect_base_goes_round_a_friendly_base_next_to_its_start() -> None:
    # AOD-D8 (aod.md 5.1): the swept base may not overlap O0's. West first, then down to
    # q, is legal (3.61" of the 5" a start in hindering leaves), so q is reachable and
    # the path reach gives must be one the referee accepts.
    state = rect_beside_a_friend()
    q = (57.50273214741214, 59.63522332342674)
    direct = validate(state, {"unit": "U", "type": "move", "path": [[58.5, 61.5], list(q)]})
    assert direct.legal
    found = reach(state, "U")
    assert found.contains(q)
    path = found.path_to(q)
    assert path is not None
    steps = [s if isinstance(s, dict) else list(s) for s in path[1:]]
    verdict = validate(state, {"unit": "U", "type": "move", "path": steps})
    assert verdict.legal, [r.message for r in verdict.reasons]


def test_every_end_shaded_for_a_rect_base_beside_a_friend_is_legal() -> None:
    # AOD-D8: every shaded end's path keeps the rect itself off O0's base.
    assert legal_ends(rect_beside_a_friend()) == 40
