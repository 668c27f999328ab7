"""The seed's figure rebuilt (004 Size Restrictions): "The Scavenger is a large synthetic
unit and has entered through A. Its base is too big to fit through B and C. It looks
like D is its best option."

A wall runs east-west at y 12-12.5 with three gaps: B 2" wide, C 2.75" wide and D 4"
wide. The Scavenger (a 3" base, its own `move` 5, APS-D14) stands south of the wall,
having come in through A at the south edge. A line through B or C does not cross the
wall (the front line passes the gap's middle), but its swept base overlaps the wall:
`gap_too_narrow` (APS-D19). Through D it fits. A gap too narrow must be treated as an
obstacle and passed with a Traverse.
"""

from __future__ import annotations

import math

import pytest

from tests.rules.apskirmish.build import after, area, board, judge, soldier

#: Gap name -> (west edge, east edge) along the wall.
GAPS = {"B": (4.0, 6.0), "C": (12.0, 14.75), "D": (22.0, 26.0)}
WALL_Y = (12.0, 12.5)


def wall() -> list[dict[str, object]]:
    """The wall pieces between the gaps, as obstacles 1" high."""
    edges = [0.0]
    for west, east in GAPS.values():
        edges += [west, east]
    edges.append(36.0)
    return [
        area(f"W{i}", "obstacle", edges[2 * i], WALL_Y[0], edges[2 * i + 1], WALL_Y[1], height=1.0)
        for i in range(len(edges) // 2)
    ]


def scavenger_below(gap: str) -> dict[str, object]:
    west, east = GAPS[gap]
    # Centre 2.5" below the wall: the front (1.5" ahead) is 1" short of it.
    return soldier(
        "SCAV",
        position=((west + east) / 2, 9.5),
        facing=90,
        diameter=3.0,
        move=5,
        ap=3,
        name="the Scavenger",
    )


def through(gap: str) -> list[list[float]]:
    west, east = GAPS[gap]
    return [[(west + east) / 2, 14.5]]  # 5" north: the base ends clear of the wall


@pytest.mark.parametrize("gap", ["B", "C"])
def test_the_scavengers_base_does_not_fit_through_b_or_c(gap: str) -> None:
    state = board([scavenger_below(gap)], wall())
    verdict = judge(state, path=through(gap), unit="SCAV")
    assert verdict.codes and set(verdict.codes) == {"gap_too_narrow"}
    assert "obstacle_crossed" not in verdict.codes  # the front line goes through the gap


def test_d_is_its_best_option_it_fits() -> None:
    state = board([scavenger_below("D")], wall())
    verdict = judge(state, path=through("D"), unit="SCAV")
    assert verdict.legal, verdict.to_json()
    assert verdict.cost == pytest.approx(5.0)
    assert after(verdict, "SCAV")["position"] == [24.0, 14.5]


def test_an_ordinary_soldier_fits_through_b() -> None:
    west, east = GAPS["B"]
    state = board([soldier(position=((west + east) / 2, 11), facing=90)], wall())
    assert judge(state, path=[[(west + east) / 2, 13.5]]).legal


def test_a_gap_too_narrow_is_passed_with_a_traverse() -> None:
    """Treated as an obstacle: the Scavenger, within 1" of the wall at C, traverses it and
    lands at t2, the first place past the wall where its base overlaps nothing: resting
    on the two far corners of the gap, 1.5" from each (apskirmish.md 5, APS-D30)."""
    west, east = GAPS["C"]
    near = {**scavenger_below("C"), "position": [(west + east) / 2, 10.4]}
    state = board([near], wall())
    verdict = judge(state, "traverse", [[(west + east) / 2, 20]], unit="SCAV", outcomes=[True])
    assert verdict.legal, verdict.to_json()
    half_gap = (east - west) / 2
    landed_y = WALL_Y[1] + math.sqrt(1.5**2 - half_gap**2)
    assert after(verdict, "SCAV")["position"] == pytest.approx(
        [(west + east) / 2, landed_y], abs=1e-3
    )
