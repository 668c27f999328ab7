"""Reach: where a unit's centre can legally end, and a legal path to any such point."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from shapely.geometry import GeometryCollection, Point

from rules.model.errors import InvalidActionError

if TYPE_CHECKING:
    from rules.model.state import GameState, Unit

Path2 = list[tuple[float, float]]


@dataclass(frozen=True)
class Reach:
    unit_id: str
    action_type: str
    #: Where the centre may end (a conservative subset of the truth).
    area: Any
    allowance: float
    _path_to: Callable[[tuple[float, float]], Path2 | None]
    #: Where a bound on reach's work stopped the search short of the allowance
    #: (rules/geometry/visibility.py, `Work`): `area` is then exactly where the centre
    #: can end within this much path. None: not cut short.
    cut_at: float | None = None
    #: The action keys an end needs besides its path (a charge's `target`: the unit the
    #: end is in contact with), or None where the type needs none.
    _keys_at: Callable[[tuple[float, float]], dict[str, Any]] | None = None

    @property
    def complete(self) -> bool:
        """Whether `area` is the whole allowance's (only the engine's approximations
        keep it short of the truth), not cut short by the work bound."""
        return self.cut_at is None

    @property
    def horizon(self) -> float:
        """How far along a path `area` is exact: the allowance when complete."""
        return self.allowance if self.cut_at is None else self.cut_at

    def contains(self, point: tuple[float, float]) -> bool:
        return bool(self.area.covers(Point(point)))

    def path_to(self, point: tuple[float, float]) -> Path2 | None:
        """A shortest legal path (start first) to `point`, or None if it is not reachable."""
        return self._path_to((float(point[0]), float(point[1])))

    def keys_at(self, point: tuple[float, float]) -> dict[str, Any]:
        """The action keys a proposal ending at `point` needs besides its path ({} for
        most types; a charge's `target`, the unit it ends in contact with)."""
        return {} if self._keys_at is None else self._keys_at((float(point[0]), float(point[1])))


def memoised_reach(
    state: GameState,
    system: str,
    unit_id: str,
    action_type: str,
    build: Callable[[Unit], Reach],
    what: str = "unit",
) -> Reach:
    """The reach of a unit on the table (not aboard: InvalidActionError naming it a
    `what`), built once per state and action type: the board asks for it on every drag."""
    unit = state.unit(unit_id)
    if unit is None or unit.aboard is not None:
        raise InvalidActionError("unit", f"no {what} {unit_id!r} on the table")
    return state.memo(f"{system}.reach.{unit_id}.{action_type}", lambda: build(unit))


def no_ends(
    unit_id: str, action_type: str, allowance: float = 0.0, cut_at: float | None = None
) -> Reach:
    """A reach with no end at all (an order refused whatever its path; or, with `cut_at`,
    none found within that much path)."""
    return Reach(unit_id, action_type, GeometryCollection(), allowance, lambda p: None, cut_at)


def unshaded(unit_id: str, action_type: str) -> Reach:
    """A type whose ends the engine does not shade (one that must end in contact with a
    target or carrier, a placement, a formation's several pieces): nothing is shaded and
    the answer says it is exact to no length of path (`complete` false, `horizon` 0), so
    that no one reads the empty area as "nowhere to go"."""
    return no_ends(unit_id, action_type, cut_at=0.0)
