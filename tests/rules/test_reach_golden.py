"""Reach over every golden file of every system (issue 20; scenario-format.md, "Other
commands": reach): every legal move ends inside its reach (within 0.1", where the reach
is complete), and points drawn inside a reach are legal ends along the path the engine
gives. The counts per system go to the report (`-s` prints them)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from shapely.geometry import Point, shape

from rules.engine.dice import make_dice
from rules.model.actions import Action
from rules.referee.alternative import path_steps
from rules.referee.questions import moves_the_unit, reach_answer
from rules.systems.registry import get_system
from tests.rules.golden_positions import SYSTEMS, Judged, judged

#: Legal golden moves whose end the engine's reach does not yet cover: the reach is a
#: conservative subset of the truth there. Each names the rule the area leaves out; the
#: test fails when one is fixed (remove it) or when a new one appears.
KNOWN_SHORT: dict[str, str] = {}

#: Grid fractions of an area's bounds; the first few inside are sampled (deterministic).
SAMPLES = [(u / 6, v / 6) for u in (3, 1, 5, 2, 4) for v in (3, 1, 5, 2, 4)]
PER_AREA = 3


def end_of(j: Judged) -> tuple[float, float] | None:
    after = j.verdict.state_after
    unit = None if after is None else after.unit(j.action.unit)
    if unit is None or unit.aboard is not None or not unit.on_table:
        return None
    return unit.position[0], unit.position[1]


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_legal_move_ends_inside_its_reach(system: str) -> None:
    # 002 Rules: Movement / 000 [32] / 003 Movement / 004 Movement: one truth, the area
    # shaded is where the referee lets the piece end.
    counts: Counter[str] = Counter()
    outside = set()
    for j in judged(system):
        end = end_of(j)
        if not (j.verdict.legal and j.moves) or end is None:
            continue
        answer = reach_answer(j.before, j.action)
        if answer["area"] is None:
            continue
        if not answer["complete"]:
            counts["not shaded or cut short"] += 1
            continue
        counts["reaches checked"] += 1
        area = shape(answer["area"])
        if area.is_empty or area.distance(Point(end)) > 0.1:
            outside.add(j.file)
    print(f"\n{system}: {dict(counts)}")
    assert counts["reaches checked"] > 0
    assert outside == {f for f in KNOWN_SHORT if f.startswith(f"{system}/")}


def proposal(j: Judged, path: list[object], keys: dict[str, object] | None = None) -> Action:
    """The action along a reach's path, with only the keys its type needs (a target, a
    carrier): a reach is where the type ends without optional extras (an aod VTOL's climb).
    `keys` are those the reach gives for the end (a charge's target: the unit it touches)."""
    spec = next(s for s in get_system(j.before.system).actions if s.type == j.action.type)
    params = {k: v for k, v in j.action.params.items() if k in spec.keys}
    return replace(j.action, path=path_steps(path), facing=None, params={**params, **(keys or {})})


@pytest.mark.parametrize("system", SYSTEMS)
def test_points_drawn_inside_a_reach_are_legal_ends_along_its_path(system: str) -> None:
    # The soundness half: every shaded point is a legal end, with the path the engine
    # gives (MSW-D5: the turn to face the way is part of it).
    engine = get_system(system)
    counts: Counter[str] = Counter()
    seen = set()
    for j in judged(system):
        key = (id(j.before), j.action.unit, j.action.type)
        if key in seen or not j.moves:
            continue
        seen.add(key)
        answer = reach_answer(j.before, j.action)
        if answer["area"] is None:
            continue
        # A reach exact to no length of path (horizon 0) that still shades an area is a
        # sound subset: its points are sampled too.
        area = shape(answer["area"])
        if area.area < 1e-6:
            continue
        counts["reaches sampled"] += 1
        found = engine.reach(j.before, j.action.unit, j.action.type)
        x0, y0, x1, y1 = area.bounds
        inside = [
            p
            for u, v in SAMPLES
            if area.contains(Point(p := (x0 + (x1 - x0) * u, y0 + (y1 - y0) * v)))
        ]
        for p in inside[:PER_AREA]:
            path = found.path_to(p)
            assert path is not None, (j.name, p)
            verdict = engine.validate(
                j.before, proposal(j, path, found.keys_at(p)), make_dice(unresolved=True)
            )
            assert verdict.legal, (j.name, p, path, [r.message for r in verdict.reasons])
            counts["points legal"] += 1
    print(f"\n{system}: {dict(counts)}")
    assert counts["points legal"] > 0


#: Types whose unit ends aboard, off the table (002 Enter Unit, 003 Transport 1), or
#: does not move while it sets others down (a LaserGrenadiers unload): no area either.
NO_AREA = {"mswars": {"enter_unit"}, "lasergrenadiers": {"load", "unload"}}


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_type_that_does_not_move_the_unit_has_no_area(system: str) -> None:
    # scenario-format.md, "Other commands": area null for a type that does not move.
    engine = get_system(system)
    state = judged(system)[0].before
    unit = state.units[0].id
    for spec in engine.actions:
        answer = reach_answer(state, Action(unit, spec.type))
        if spec.type in NO_AREA.get(system, set()):
            continue
        assert (answer["area"] is None) == (not moves_the_unit(spec.type, engine.actions)), (
            spec.type
        )


@pytest.mark.parametrize(
    ("system", "action_type"), [(s, t) for s, ts in NO_AREA.items() for t in sorted(ts)]
)
def test_a_type_that_ends_aboard_or_stays_has_no_area_where_it_is_offered(
    system: str, action_type: str
) -> None:
    # 002 Enter Unit / 003 Transport 1: the unit ends aboard, not on the table, or the
    # vehicle stays where it is while its passengers are set down.
    found = [j for j in judged(system) if j.action.type == action_type and j.verdict.legal]
    assert found
    for j in found:
        assert reach_answer(j.before, j.action)["area"] is None, j.name
