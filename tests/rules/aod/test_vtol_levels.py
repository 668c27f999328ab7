"""A VTOL that changes level on its path is judged at the level it has where each rule looks.

aod.md 10 and AOD-D26: the climb happens at the start of the path and the descent at its
end, so the path itself is flown at cruising. What depends on where the order begins
(half speed when the base starts touching hindering terrain, 000 [32]) is judged at the
level the VTOL has when the order begins, not the one it ends at.
"""

from __future__ import annotations

from rules import validate
from tests.rules.scenes import scene, square, unit

WOOD = square("H1", "hindering", 10.5, 6, 14, 14)


def vtol(altitude: str, move: float = 10) -> dict[str, object]:
    return unit("V1", type="vtol", move=move, position=(10, 10), diameter=2, altitude=altitude)


def test_a_vtol_climbing_from_hindering_at_noe_moves_at_half_speed() -> None:
    """At NOE it starts touching H1: allowance ceil(10/2) = 5 (000 [32], [15]); the climb
    (2") and 4" of path are 6: half_speed_exceeded."""
    s = scene([vtol("noe")], [WOOD])
    v = validate(s, {"unit": "V1", "type": "move", "path": [[6, 10]], "altitude": "cruising"})
    assert v.codes == ["half_speed_exceeded"]
    assert (v.cost, v.allowance) == (6.0, 5.0)


def test_a_vtol_climbing_from_hindering_within_half_speed_is_legal() -> None:
    s = scene([vtol("noe")], [WOOD])
    v = validate(s, {"unit": "V1", "type": "move", "path": [[7, 10]], "altitude": "cruising"})
    assert v.legal, v.reasons
    assert (v.cost, v.allowance) == (5.0, 5.0)
    assert v.state_after.unit("V1").get("altitude") == "cruising"


def test_a_vtol_descending_from_cruising_over_hindering_keeps_its_full_speed() -> None:
    """At cruising it ignores terrain where its order begins (000 [18]); it descends at the
    end of its path (AOD-D26), clear of H1."""
    s = scene([vtol("cruising")], [WOOD])
    v = validate(s, {"unit": "V1", "type": "move", "path": [[4, 10]], "altitude": "noe"})
    assert v.legal, v.reasons
    assert (v.cost, v.allowance) == (8.0, 10.0)


def test_a_vtol_climbing_from_hindering_flies_its_path_at_cruising() -> None:
    """The climb comes first (AOD-D26): no stop on entering hindering H2 along the path.
    Allowance ceil(14/2) = 7: 2" to climb and 5" of path."""
    other = square("H2", "hindering", 6, 6, 7, 14)
    s = scene([vtol("noe", move=14)], [WOOD, other])
    v = validate(s, {"unit": "V1", "type": "move", "path": [[5, 10]], "altitude": "cruising"})
    assert v.legal, v.reasons
    assert v.allowance == 7.0
