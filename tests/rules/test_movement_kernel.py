"""The movement kernel every system shares: where a base may stand, which bases a path
may cross under a system's policy, the table edge and the allowance along a path.

Each test names the rule of a system the kernel serves (aod AOD-D6/D8/D9/D20/D44,
apskirmish APS base blocking, mswars MSW-D8), with a policy written here as a system
would write it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import Unit, Waypoint
from rules.engine.allowance import Allowance
from rules.engine.bases_policy import BasePolicy, bases_touching, check_bases
from rules.engine.path_checks import in_path_order, off_table, over_allowance, track_for
from rules.engine.placement import obstruction
from rules.engine.position import Position
from rules.engine.verdict import Violation
from rules.geometry.bases import body_at
from rules.geometry.track import Pose
from tests.rules.scenes import scene, square, unit


def position(
    *units: dict[str, object],
    terrain: list[dict[str, object]] | None = None,
) -> Position:
    """Units of diameter 2 (radius 1): centres 2" apart touch."""
    return Position(
        scene([{**u, "base": {"shape": "circle", "diameter": 2.0}} for u in units], terrain)
    )


def never_blocking(_: object) -> bool:
    return False


class FriendsPass(BasePolicy):
    """apskirmish 4, base blocking: friends may be passed, enemies may not."""

    through_cite = "APS base blocking"

    def may_cross(self, mover: Unit, other: Unit) -> bool:
        return mover.side == other.side


@dataclass(frozen=True)
class StopAtEnemies(BasePolicy):
    """aod 5.3: first contact with an opposing base ends the move (AOD-D6)."""

    stop_cite = "AOD-D6"

    def stops_for(self, mover: Unit, other: Unit) -> bool:
        return mover.side != other.side


CROSS_NOTHING = BasePolicy()


def move(
    pos: Position, uid: str, *points: tuple[float, float], policy: BasePolicy = CROSS_NOTHING
) -> list[str]:
    mover = pos.state.units_by_id[uid]
    track = track_for(mover, [Waypoint(*p) for p in points])
    start = frozenset(u.id for u in bases_touching(pos, mover, pos.bodies[uid]))
    found, _ = check_bases(pos, mover, track, track.end, policy, start)
    return [v.code for v in in_path_order(found)]


# -- may a base stand here ---------------------------------------------------------


def test_a_base_may_stand_on_open_table() -> None:
    pos = position(unit("A", position=(10, 10)))
    assert (
        obstruction(pos, pos.state.units[0].base, Pose(5, 5, 0), forbidden=never_blocking) is None
    )


def test_a_base_partly_off_the_table_may_not_stand_there() -> None:
    """aod 001 [19]: placed completely on the battlefield."""
    pos = position(unit("A", position=(10, 10)))
    problem = obstruction(pos, pos.state.units[0].base, Pose(0.2, 5, 0), forbidden=never_blocking)
    assert problem is not None and problem.kind == "off_table"


def test_a_base_on_another_base_names_the_base_in_the_way() -> None:
    """aod AOD-D44; a base just touching is not in the way (overlap > 0.01")."""
    pos = position(unit("A", position=(10, 10)), unit("B", position=(12, 10)))
    base = pos.state.units[0].base
    problem = obstruction(pos, base, Pose(11.5, 10, 0), forbidden=never_blocking)
    assert problem is not None and (problem.kind, problem.what) == ("base", "A")
    assert (
        obstruction(pos, base, Pose(11, 11.5, 0), forbidden=never_blocking, ignore=("A", "B"))
        is None
    )
    assert obstruction(pos, base, Pose(14, 10, 0), forbidden=never_blocking) is None


def test_a_base_placed_earlier_in_the_same_action_is_in_the_way() -> None:
    """aod 11.2: two passengers may not be set down on one another."""
    pos = position(unit("A", position=(10, 10)))
    earlier = [("P1", body_at(pos.state.units[0].base, 20, 20, 0))]
    problem = obstruction(
        pos, pos.state.units[0].base, Pose(20.5, 20, 0), forbidden=never_blocking, placed=earlier
    )
    assert problem is not None and problem.what == "P1"


def test_terrain_the_system_forbids_is_in_the_way_and_other_terrain_is_not() -> None:
    pos = position(
        unit("A", position=(10, 10)),
        terrain=[square("W", "blocking", 20, 20, 24, 24), square("H", "hindering", 2, 2, 6, 6)],
    )
    base = pos.state.units[0].base

    def blocking(t: object) -> bool:
        return getattr(t, "type", "") == "blocking"

    problem = obstruction(pos, base, Pose(20.2, 22, 0), forbidden=blocking)
    assert problem is not None and (problem.kind, problem.what) == ("terrain", "W")
    assert obstruction(pos, base, Pose(4, 4, 0), forbidden=blocking) is None


# -- other bases along the path ----------------------------------------------------


def test_by_default_no_base_may_be_passed_through() -> None:
    """aod AOD-D8, lasergrenadiers 3: friend or foe."""
    pos = position(unit("A", position=(5, 10)), unit("F", position=(10, 10)))
    assert move(pos, "A", (15, 10)) == ["path_through_base"]


def test_a_policy_that_lets_friends_pass_still_forbids_ending_on_them() -> None:
    """apskirmish 4: pass friendly bases, never end on one (base_overlap)."""
    pos = position(
        unit("A", position=(5, 10)),
        unit("F", position=(10, 10)),
        unit("E", side="P2", position=(10, 20)),
    )
    assert move(pos, "A", (15, 10), policy=FriendsPass()) == []
    assert move(pos, "A", (10.5, 10), policy=FriendsPass()) == ["base_overlap"]
    assert move(pos, "A", (10, 25), policy=FriendsPass()) == ["path_through_base"]


def test_a_stopping_contact_reports_the_path_going_on_past_it() -> None:
    """aod AOD-D6: stop at first contact with an opposing base; stopping there is legal."""
    pos = position(unit("A", position=(5, 10)), unit("E", side="P2", position=(10, 13.1)))
    assert move(pos, "A", (10, 11.1), policy=StopAtEnemies()) == []
    assert move(pos, "A", (10, 11.1), (15, 11.1), policy=StopAtEnemies()) == ["path_through_base"]


def test_a_unit_touched_at_the_start_stops_the_move_only_when_touched_again() -> None:
    """aod AOD-D6: leaving a contact is free; coming back to it ends the move."""
    pos = position(unit("A", position=(5, 10)), unit("E", side="P2", position=(7, 10)))
    assert move(pos, "A", (5, 5), policy=StopAtEnemies()) == []
    assert move(pos, "A", (4, 10), (4, 8), (8, 8), policy=StopAtEnemies()) == ["path_through_base"]


def test_the_units_touched_at_the_end_are_returned() -> None:
    pos = position(unit("A", position=(5, 10)), unit("E", side="P2", position=(10, 10)))
    mover = pos.state.units_by_id["A"]
    track = track_for(mover, [Waypoint(9, 10)])
    _, touching = check_bases(pos, mover, track, track.end, BasePolicy())
    assert [u.id for u in touching] == ["E"]


# -- table edge and allowance ------------------------------------------------------


def test_a_path_leaving_the_table_is_refused_where_it_leaves() -> None:
    """aod AOD-D20: the base (radius 1) reaches 0.01" past x = 0 after 4.01"."""
    pos = position(unit("A", position=(5, 10)))
    mover = pos.state.units[0]
    found = off_table(mover, track_for(mover, [Waypoint(0, 10)]), pos.state.table, "AOD-D20")
    assert [(round(s, 2), v.code) for s, v in found] == [(4.01, "off_table")]


def test_over_the_allowance_is_placed_where_the_allowance_runs_out() -> None:
    """aod 2: 10" of path with 6" of move: refused at the 6" mark."""
    pos = position(unit("A", position=(5, 10)))
    mover = pos.state.units[0]
    track = track_for(mover, [Waypoint(15, 10)])
    found = over_allowance(mover, track, Allowance(6), track.length)
    assert [(s, v.code, v.at) for s, v in found] == [(6.0, "speed_exceeded", (11.0, 10.0))]
    assert over_allowance(mover, track, Allowance(10), track.length) == []


def test_violations_are_listed_in_the_order_the_path_meets_them() -> None:
    late, early = Violation("b", "late"), Violation("a", "early")
    assert in_path_order([(5.0, late), (1.0, early)]) == (early, late)
