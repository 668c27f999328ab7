"""Points drawn inside a reach, each judged as the board would propose it (issue 20: every
shaded point is a legal end, along the path and with the keys reach gives)."""

from __future__ import annotations

import random
from typing import Any

from shapely.geometry import Point

from rules import GameState, reach, validate
from rules.engine.dice import make_dice
from rules.model.actions import Action
from rules.referee.alternative import path_steps


def judged_ends(
    state: GameState,
    uid: str,
    action_type: str = "move",
    *,
    count: int,
    seed: int,
    tries: int = 20000,
    zone: Any = None,
    ends_where_drawn: bool = False,
) -> list[dict[str, Any]]:
    """Up to `count` points drawn (seeded) inside the reach, or its part inside `zone`,
    each judged with reach's path and keys: legal (and, with `ends_where_drawn`, the unit
    ends within 0.01" of the point). The keys of each end judged, in order."""
    found = reach(state, uid, action_type)
    area = found.area if zone is None else found.area.intersection(zone)
    assert not area.is_empty
    rng = random.Random(seed)
    x0, y0, x1, y1 = area.bounds
    judged: list[dict[str, Any]] = []
    for _ in range(tries):
        p = (rng.uniform(x0, x1), rng.uniform(y0, y1))
        if not area.contains(Point(p)):
            continue
        path, keys = found.path_to(p), found.keys_at(p)
        assert path is not None, p
        verdict = validate(
            state,
            Action(uid, action_type, path_steps(path), params=keys),
            make_dice(unresolved=True),
        )
        assert verdict.legal, (p, path, [r.message for r in verdict.reasons])
        if ends_where_drawn:
            after = verdict.state_after.unit(uid)
            assert Point(after.position[:2]).distance(Point(p)) <= 0.01, (p, after.position)
        judged.append(keys)
        if len(judged) == count:
            break
    return judged
