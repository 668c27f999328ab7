"""The nearest legal alternative to a refused move (ui.md, "Moving a piece" 4).

Where a player dropped a piece the rules refuse, the engine looks for the legal end point
closest to the drop: the nearest point of the unit's reach area (`Reach.area`, a
conservative subset of where it may end), a legal path to it (`Reach.path_to`), and the
whole action judged again by `validate` before it is offered. System-neutral: every
system with a `reach` gets it; a system without one (NotImplementedError) offers none.
Under a caller's deadline (rules/geometry/deadline.py) the candidates stop when it passes:
the first legal one found in time is offered, or none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from shapely.geometry import Point
from shapely.ops import nearest_points

from rules.engine.bounds import check_action
from rules.engine.dice import make_dice
from rules.engine.reach import Reach
from rules.engine.verdict import Verdict
from rules.geometry.deadline import deadline, expired, remaining
from rules.model.actions import Action, Step, Turn, Waypoint
from rules.model.errors import InvalidActionError
from rules.model.state import GameState, Point2
from rules.referee.offers import is_offered
from rules.systems.registry import get_system

#: How far inside the reach area's edge a candidate end is tried, in inches, when the
#: point on the edge itself does not survive `validate` (the area is drawn with a
#: tolerance; its very edge may be a hair beyond the allowance).
INSETS = (0.0, 0.02, 0.1, 0.25, 0.5)
#: Of a caller's deadline, the share the reach may take before the candidates are judged.
REACH_SHARE = 0.75


@dataclass(frozen=True)
class Alternative:
    """A legal action ending as near the refused drop as the engine can find."""

    action: Action
    #: Where the piece's centre ends, and how far that is from where it was dropped.
    end: Point2
    off_by: float
    verdict: Verdict

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action.to_json(),
            "end": [round(self.end[0], 3), round(self.end[1], 3)],
            "off_by": round(self.off_by, 3),
            "cost": self.verdict.to_json()["cost"],
        }


def dropped_point(action: Action) -> Point2 | None:
    """Where the action means the piece's centre to end: its last waypoint."""
    waypoints = [s for s in action.path if isinstance(s, Waypoint)]
    return (waypoints[-1].x, waypoints[-1].y) if waypoints else None


def nearest_alternative(state: GameState, action: Action) -> Alternative | None:
    """The legal action of the same type, with the same facing wish, whose end is nearest
    to `action`'s dropped point; None where the engine can find none (no reach for this
    action, an empty area, no candidate `validate` accepts)."""
    dropped = dropped_point(action)
    if dropped is None or state.unit(action.unit) is None:
        return None
    if not is_offered(state, action.unit, action.type):
        return None  # refused whatever the path: no other end would make it legal
    system = get_system(state.system)
    left = remaining()
    try:
        # Under a deadline the reach may take REACH_SHARE of what is left, so that the
        # candidates keep time to be judged (a reach already built costs nothing here).
        with deadline(None if left is None else REACH_SHARE * left):
            reach = system.reach(state, action.unit, action.type)
    except (NotImplementedError, InvalidActionError):
        return None
    area = reach.area
    if area is None or area.is_empty:
        return None
    drop = Point(dropped)
    tried: set[tuple[float, float]] = set()
    for inset in INSETS:
        if expired():
            return None  # a caller's deadline: none found in time
        inner = area.buffer(-inset) if inset else area
        if inner.is_empty:
            break
        near = nearest_points(inner, drop)[0]
        end = (round(float(near.x), 3), round(float(near.y), 3))
        if end in tried:
            continue
        tried.add(end)
        found = _legal_action_to(state, _with_keys(action, reach, end), reach.path_to(end), end)
        if found is not None:
            return Alternative(found[0], end, float(drop.distance(Point(end))), found[1])
    if not tried:
        return None
    return _pulled_back(state, action, reach, next(iter(tried)), drop)


#: Fractions of the last leg kept when the nearest end itself is refused, largest first.
PULL_BACK = (0.9, 0.75, 0.5, 0.25, 0.1)


def _pulled_back(
    state: GameState, action: Action, reach: Reach, end: Point2, drop: Point
) -> Alternative | None:
    """The nearest end refused for what the area does not price (an aod VTOL's climb of
    2" or its ranged attack's 12", 000 [16]): pull the end back along the path's last
    leg, toward where it came from (nearer the start, so still in the area), until
    `validate` accepts it."""
    path = reach.path_to(end)
    legs = [q for q in (path or []) if not isinstance(q, Mapping)]
    if len(legs) < 2:
        return None
    (px, py), (ex, ey) = legs[-2][:2], legs[-1][:2]
    for f in PULL_BACK:
        if expired():
            return None
        at = (round(px + f * (ex - px), 3), round(py + f * (ey - py), 3))
        found = _legal_action_to(state, _with_keys(action, reach, at), reach.path_to(at), at)
        if found is not None:
            return Alternative(found[0], at, float(drop.distance(Point(at))), found[1])
    return None


def path_steps(path: Sequence[Any]) -> tuple[Step, ...]:
    """A reach's path (start first, as `Reach.path_to` gives it) as an action's steps:
    a point [x, y] or [x, y, z] is a waypoint, {"turn": a} a turn in place (the turn a
    move may include: M.S. Wars' turn to face the way before moving straight, MSW-D5)."""
    steps: list[Step] = []
    for item in path[1:]:
        if isinstance(item, Mapping):
            steps.append(Turn(float(item["turn"])))
        else:
            z = float(item[2]) if len(item) > 2 and item[2] is not None else None
            steps.append(Waypoint(float(item[0]), float(item[1]), z))
    return tuple(steps)


def _with_keys(action: Action, reach: Reach, end: Point2) -> Action:
    """The action with the keys the reach names for that end (the unit a charge's end
    touches, an exiting unit's placement); unchanged where it names none."""
    keys = reach.keys_at(end)
    return replace(action, params={**action.params, **keys}) if keys else action


def _legal_action_to(
    state: GameState, action: Action, path: Sequence[Any] | None, end: Point2
) -> tuple[Action, Verdict] | None:
    """The action along `path` (start first), judged; None unless legal. The player's
    facing is kept where the rules allow it, else dropped (the piece keeps its own)."""
    if not path:
        return None
    steps = path_steps(path)
    if not any(isinstance(s, Waypoint) for s in steps):
        steps += (Waypoint(*end),)
    system = get_system(state.system)
    for facing in dict.fromkeys((action.facing, None)):
        candidate = replace(action, path=steps, facing=facing)
        try:
            check_action(candidate, state)  # a path the table would refuse to carry
        except InvalidActionError:
            return None
        # A proposal rolls no dice: a roll it needs is left pending, as in a preview.
        verdict = system.validate(state, candidate, make_dice(unresolved=True))
        if verdict.legal:
            return candidate, verdict
    return None
