"""What the engine agrees to judge: numbers and paths whose work is bounded by the table.

The engine is the referee of a live table, so no input may make it work for long. Each
bound is input validation, refused as `malformed` with a message naming the key; every
legal or illegal move a player can make on the table lies well inside them, so a verdict
(`off_table`, `speed_exceeded`, ...) still decides everything a player can mean. The
figures behind them are in docs/benchmarks.md ("Worst case"); docs/rules-engine.md lists
them for players of the scenario format.

- Numbers are finite everywhere (`actions.number`); a table side is at most
  MAX_TABLE_SIDE inches.
- Coordinates lie in the table's box: the table grown by its longer side all round
  (x in [-M, width + M], y in [-M, height + M], z and heights in [-M, M], M = the longer
  side). A point that far out can only mean a broken client.
- An action has at most MAX_STEPS path steps in all (a formation's members included,
  each at least one), the protocol's own cap (`limits.path_steps` in docs/protocol.md).
- A turn step is at most MAX_TURN_STEP degrees either way. A rect base turns in place
  at most MAX_TURNING degrees in all, turn steps and final facings (each the short way)
  together: its rotation is sampled in 0.005" corner steps (AOD-D17) wherever the
  exact sweep (rules/geometry/rotation_sweep.py) comes near a feature, the costliest work
  per degree there is. The board sends one turn of at most 180 degrees or a final
  facing; a whole turn leaves room for hand-written paths. A circle base's rotation
  sweeps nothing, so it is bounded by the steps alone.
- The centre travels at most width + height inches in all along an action's paths, from
  each unit's own position: corner to corner along two edges, more than any straight
  drag across the table.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

from rules.engine.numbers import fmt
from rules.geometry.track import shortest_turn
from rules.model.actions import MAX_STEPS, MAX_TURN_STEP, Action, Step, Turn
from rules.model.errors import InvalidActionError
from rules.model.state import GameState, Point2, Table

#: Inches: 83 feet, a hall rather than a table; the web side's maps stop at 240".
MAX_TABLE_SIDE = 1000.0
#: Degrees a rect base may turn in place in all in one action (turn steps and final
#: facings): a full turn.
MAX_TURNING = 360.0


def margin(table: Table) -> float:
    """How far past the table's edges a coordinate may lie: its longer side."""
    return max(table.width, table.height)


def check_table_size(table: Table, key: str = "table") -> None:
    for name, side in (("width", table.width), ("height", table.height)):
        if side > MAX_TABLE_SIDE:
            raise InvalidActionError(f"{key}.{name}", f"at most {MAX_TABLE_SIDE:g} inches")


def check_point(table: Table, x: float, y: float, z: float | None, key: str) -> None:
    """A point of the scenario or a path lies within the table's box (see above)."""
    m = margin(table)
    for i, (value, low, high) in enumerate(((x, -m, table.width + m), (y, -m, table.height + m))):
        if not low <= value <= high:
            raise InvalidActionError(
                f"{key}[{i}]",
                f"{value:g} is too far off a "
                f'{table.width:g}" x {table.height:g}" table '
                f"(allowed {low:g} to {high:g})",
            )
    if z is not None:
        check_level(table, z, f"{key}[2]")


def check_level(table: Table, z: float, key: str) -> None:
    """An altitude or a height: within the table's longer side up or down."""
    m = margin(table)
    if not -m <= z <= m:
        raise InvalidActionError(
            key, f"{z:g} is out of range (allowed {-m:g} to {m:g} on this table)"
        )


def check_polygon(table: Table, points: Sequence[Point2], key: str) -> None:
    for i, (x, y) in enumerate(points):
        check_point(table, x, y, None, f"{key}[{i}]")


def check_action(action: Action, state: GameState, key: str = "action") -> None:
    """The action's paths (its own and its formation members') are within the bounds."""
    table = state.table
    steps = 0
    turning = 0.0
    travel = 0.0
    for path_key, unit_id, path, facing in _paths(action, key):
        # A carried action (a formation member) counts as a step even without a path.
        steps += max(len(path), 1) if path_key != f"{key}.path" else len(path)
        if steps > MAX_STEPS:
            raise InvalidActionError(path_key, f"more than {MAX_STEPS} path steps in all")
        unit = state.unit(unit_id)
        heading = unit.facing if unit is not None else 0.0
        # Only a rect base's rotation is work (a swept polygon); a circle's is nothing.
        swept = unit is not None and not unit.base.is_circle
        where = unit.position if unit is not None and unit.on_table else None
        for i, step in enumerate(path):
            if isinstance(step, Turn):
                if abs(step.angle) > MAX_TURN_STEP:
                    raise InvalidActionError(
                        f"{path_key}[{i}].turn",
                        f"a turn step is at most {MAX_TURN_STEP:g} degrees either way",
                    )
                turning += abs(step.angle) if swept else 0.0
                heading += step.angle
            else:
                check_point(table, step.x, step.y, step.z, f"{path_key}[{i}]")
                if where is not None:
                    travel += math.dist(where, (step.x, step.y))
                where = (step.x, step.y)
        if facing is not None and swept:
            turning += abs(shortest_turn(heading, facing))
        if turning > MAX_TURNING:
            raise InvalidActionError(
                path_key, f"a rect base turns more than {MAX_TURNING:g} degrees in all"
            )
    limit = table.width + table.height
    if travel > limit:
        raise InvalidActionError(
            f"{key}.path",
            f'{fmt(travel)}" of path in all; at most {limit:g}" (the table\'s width plus height)',
        )


def _paths(action: Action, key: str) -> Iterator[tuple[str, str, tuple[Step, ...], float | None]]:
    """The action's path and those of the actions it carries (a formation's `moves`)."""
    yield f"{key}.path", action.unit, action.path, action.facing
    for name, value in action.params.items():
        members = value if isinstance(value, tuple | list) else (value,)
        for i, member in enumerate(members):
            if isinstance(member, Action):
                yield from _paths(member, f"{key}.{name}[{i}]")
