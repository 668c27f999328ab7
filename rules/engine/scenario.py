"""Reading and writing scenario JSON exactly per scenario-format.md.

The kernel never looks a system up by its key: whoever reads a position passes the
lookup (`rules/referee/positions.py` the registry's, a system its own).

Malformed input raises InvalidActionError whose `key` names the offending key
(`units[2].base.diameter`). Unknown top-level keys are an error (contract).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from shapely.geometry import Polygon

from rules.engine.bounds import check_level, check_point, check_polygon, check_table_size
from rules.engine.dice import parse_outcome
from rules.model.actions import Action, MalformedAction, check_finite, number, point
from rules.model.errors import InvalidActionError
from rules.model.map_geometry import MAPS, map_digest
from rules.model.state import BaseShape, GameState, Point2, Table, Terrain, Unit

if TYPE_CHECKING:  # a System reads positions with the functions below (base_footprint)
    from rules.engine.system import System

Item = TypeVar("Item", Terrain, Unit)

TOP_KEYS = frozenset(
    {
        "system",
        "table",
        "terrain",
        "units",
        "state",
        "dice",
        "outcomes",
        "action",
        "actions",
        "expect",
    }
)
UNIT_KEYS = frozenset({"id", "side", "type", "move", "base", "position", "facing", "aboard"})
#: The keys of a position (the rest of a scenario is actions and what to expect).
POSITION_KEYS = frozenset({"system", "table", "terrain", "units", "state"})
TERRAIN_KEYS = frozenset({"id", "type", "polygon", "height", "size_class", "access"})
#: What an EXPECT object may say (scenario-format.md, "EXPECT"; `reasons`, `error` and
#: `rolls` are this engine's additions, read by rules/referee/check.py), besides the
#: system's own verdict notes (lasergrenadiers' `speed_band`). Any other key is an error,
#: so that a typo never passes silently.
EXPECT_KEYS = frozenset(
    {
        "legal",
        "reason",
        "reasons",
        "error",
        "cost",
        "allowance",
        "position",
        "facing",
        "state",
        "units",
        "events",
        "rolls",
    }
)


@dataclass(frozen=True)
class Scenario:
    state: GameState
    actions: tuple[Action | MalformedAction, ...] = ()
    expects: tuple[Mapping[str, Any] | None, ...] = ()
    dice: tuple[int, ...] | None = None
    outcomes: tuple[bool, ...] | None = None
    #: Whether the file used the singular "action" / "expect" keys (kept when writing).
    single_action: bool = False
    single_expect: bool = False


def _obj(raw: Any, key: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise InvalidActionError(key, "expected an object")
    return raw


def _list(raw: Any, key: str) -> list[Any]:
    if not isinstance(raw, list):
        raise InvalidActionError(key, "expected a list")
    return raw


def _str(raw: Any, key: str) -> str:
    if not isinstance(raw, str) or not raw:
        raise InvalidActionError(key, "expected a non-empty string")
    return raw


def _require(raw: Mapping[str, Any], name: str, key: str) -> Any:
    if name not in raw:
        raise InvalidActionError(f"{key}.{name}", "missing")
    return raw[name]


def _sizes(
    raw: dict[str, Any],
    key: str,
    names: tuple[str, ...],
    what: str,
    extra_allowed: tuple[str, ...] = (),
) -> list[float]:
    """Positive numbers `names` of an object that may hold nothing else."""
    values = []
    for name in names:
        v = number(_require(raw, name, key), f"{key}.{name}")
        if v <= 0:
            raise InvalidActionError(f"{key}.{name}", "must be positive")
        values.append(v)
    extra = set(raw) - set(names) - set(extra_allowed)
    if extra:
        raise InvalidActionError(f"{key}.{sorted(extra)[0]}", f"unknown {what} key")
    return values


def parse_base(raw: Any, key: str) -> BaseShape:
    raw = _obj(raw, key)
    shape = _require(raw, "shape", key)
    if shape == "circle":
        (d,) = _sizes(raw, key, ("diameter",), "base", ("shape",))
        return BaseShape("circle", diameter=d)
    if shape == "rect":
        w, ln = _sizes(raw, key, ("width", "length"), "base", ("shape",))
        return BaseShape("rect", width=w, length=ln)
    raise InvalidActionError(f"{key}.shape", f'expected "circle" or "rect", got {shape!r}')


def parse_unit(raw: Any, key: str, move_required: bool = True) -> Unit:
    raw = _obj(raw, key)
    uid = _str(_require(raw, "id", key), f"{key}.id")
    side = _str(_require(raw, "side", key), f"{key}.side")
    # A system may let a unit go without a type (mswars: infantry walk, MSW-D49): an
    # absent type reads as "" and the system's check_unit accepts or refuses it.
    utype = _str(raw["type"], f"{key}.type") if raw.get("type", "") != "" else ""
    move_given = "move" in raw or move_required
    move = number(_require(raw, "move", key), f"{key}.move") if move_given else 0.0
    if move < 0:
        raise InvalidActionError(f"{key}.move", "must not be negative")
    base = parse_base(_require(raw, "base", key), f"{key}.base")
    aboard = raw.get("aboard")
    if aboard is not None:
        aboard = _str(aboard, f"{key}.aboard")
    if "position" in raw:
        x, y, z = point(raw["position"], f"{key}.position")
    elif aboard is not None:
        x, y, z = 0.0, 0.0, None  # a unit aboard is off the table (contract)
    else:
        raise InvalidActionError(f"{key}.position", "missing")
    facing = number(raw.get("facing", 0.0), f"{key}.facing")
    props = {k: v for k, v in raw.items() if k not in UNIT_KEYS}
    return Unit(
        id=uid,
        side=side,
        type=utype,
        move=move,
        base=base,
        position=(x, y),
        facing=facing % 360.0,
        z=z,
        aboard=aboard,
        props=props,
        move_given=move_given,
    )


def distinct_vertices(points: list[Point2]) -> list[Point2]:
    """The ring without repeated vertices: consecutive duplicates and closing points equal
    to the first are dropped. A repeat adds a zero-length edge that the exact sweeps read
    as "within reach everywhere" (hindering, elevated and abrupt access went wrong); the
    contract's polygon is the area, which repeats do not change."""
    out: list[Point2] = []
    for p in points:
        if not out or p != out[-1]:
            out.append(p)
    while len(out) >= 2 and out[-1] == out[0]:
        out.pop()
    return out


def parse_terrain(raw: Any, key: str) -> Terrain:
    raw = _obj(raw, key)
    tid = _str(_require(raw, "id", key), f"{key}.id")
    ttype = _str(_require(raw, "type", key), f"{key}.type")
    pts_raw = _list(_require(raw, "polygon", key), f"{key}.polygon")
    pts: list[Point2] = []
    for i, p in enumerate(pts_raw):
        x, y, _ = point(p, f"{key}.polygon[{i}]", allow_z=False)
        pts.append((x, y))
    pts = distinct_vertices(pts)
    if len(pts) < 3:
        raise InvalidActionError(f"{key}.polygon", "needs at least 3 distinct points")
    poly = Polygon(pts)
    if not poly.is_valid or poly.area <= 0:
        raise InvalidActionError(f"{key}.polygon", "is self-intersecting or has no area")
    height = raw.get("height")
    size_class = raw.get("size_class")
    access = []
    for i, seg in enumerate(_list(raw.get("access", []), f"{key}.access")):
        k = f"{key}.access[{i}]"
        if not isinstance(seg, list) or len(seg) != 2:
            raise InvalidActionError(k, "expected a segment [[x, y], [x, y]]")
        a = point(seg[0], f"{k}[0]", allow_z=False)
        b = point(seg[1], f"{k}[1]", allow_z=False)
        access.append(((a[0], a[1]), (b[0], b[1])))
    if size_class is not None and (isinstance(size_class, bool) or not isinstance(size_class, int)):
        raise InvalidActionError(f"{key}.size_class", "expected an integer")
    props = {k: v for k, v in raw.items() if k not in TERRAIN_KEYS}
    terrain = Terrain(
        id=tid,
        type=ttype,
        polygon=tuple(pts),
        height=None if height is None else number(height, f"{key}.height"),
        size_class=size_class,
        access=tuple(access),
        props=props,
    )
    terrain.__dict__["shape"] = poly  # the polygon just checked is the cached shape
    return terrain


def parse_table(raw: Any, key: str = "table") -> Table:
    raw = _obj(raw, key)
    w, h = _sizes(raw, key, ("width", "height"), "table", ("options",))
    options = _obj(raw.get("options", {}), f"{key}.options")
    table = Table(w, h, dict(options))
    check_table_size(table, key)
    return table


#: How a reader finds the System that a position names by its key.
SystemLookup = Callable[[str], "System"]


def position_from_json(raw: Any, find: SystemLookup) -> GameState:
    """A position (scenario-shaped dict; actions/expect/dice are ignored here), read by
    the System `find` returns for its key."""
    raw = _obj(raw, "")
    # The same terrain, system and table as a position read lately (a new sequence
    # number of the same battle): its features were parsed and checked then, and are
    # shared with what was built from them (map_geometry.py), so a move or a fiat on a
    # complex map does not parse and build it all again.
    digest = map_digest(raw)
    known = MAPS.get(digest)
    check_finite(
        {k: v for k, v in raw.items() if k in POSITION_KEYS and not (known and k == "terrain")}, ""
    )
    system = find(_str(_require_top(raw, "system"), "system"))
    table = parse_table(_require_top(raw, "table"))
    system.check_table_options(table.options, "table.options")
    terrain = (
        list(known.terrain)
        if known
        else _items(raw, "terrain", parse_terrain, system.check_terrain)
    )
    units = _items(
        raw,
        "units",
        lambda item, key: parse_unit(item, key, system.unit_move_required),
        system.check_parsed_unit,
    )
    _check_within_table(table, [] if known else terrain, units)
    seen = {u.id for u in units}
    for i, uu in enumerate(units):
        if uu.aboard is not None and uu.aboard not in seen:
            raise InvalidActionError(f"units[{i}].aboard", f"no unit {uu.aboard!r}")
    turn = _obj(raw.get("state", {}), "state")
    system.check_turn(turn, "state")
    geometry = known or MAPS.keep(digest, tuple(terrain))
    return GameState(
        system=system.key,
        table=table,
        terrain=geometry.terrain,
        units=tuple(units),
        turn=dict(turn),
        geometry=geometry,
    )


def _check_within_table(table: Table, terrain: list[Terrain], units: list[Unit]) -> None:
    """Every coordinate lies in the table's box (rules/engine/bounds.py), so that no
    position makes the engine's work unbounded."""
    for i, t in enumerate(terrain):
        key = f"terrain[{i}]"
        check_polygon(table, t.polygon, f"{key}.polygon")
        for j, (a, b) in enumerate(t.access):
            check_point(table, *a, None, f"{key}.access[{j}][0]")
            check_point(table, *b, None, f"{key}.access[{j}][1]")
        if t.height is not None:
            check_level(table, t.height, f"{key}.height")
    for i, u in enumerate(units):
        if u.on_table:  # a unit aboard is off the table: its position is ignored (contract)
            check_point(table, *u.position, u.z, f"units[{i}].position")


def _items(
    raw: Mapping[str, Any],
    name: str,
    parse: Callable[[Any, str], Item],
    check: Callable[[Item, str], None],
) -> list[Item]:
    """A list of terrain or units: each parsed, checked by the system, ids unique."""
    out: list[Item] = []
    seen: set[str] = set()
    for i, item in enumerate(_list(raw.get(name, []), name)):
        key = f"{name}[{i}]"
        parsed = parse(item, key)
        if parsed.id in seen:
            raise InvalidActionError(f"{key}.id", f"duplicate id {parsed.id!r}")
        seen.add(parsed.id)
        check(parsed, key)
        out.append(parsed)
    return out


def _require_top(raw: Mapping[str, Any], name: str) -> Any:
    if name not in raw:
        raise InvalidActionError(name, "missing")
    return raw[name]


def _forced(
    raw: Mapping[str, Any], faces: int = 6
) -> tuple[tuple[int, ...] | None, tuple[bool, ...] | None]:
    dice = None
    if "dice" in raw:
        vals = []
        for i, d in enumerate(_list(raw["dice"], "dice")):
            if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= faces:
                raise InvalidActionError(
                    f"dice[{i}]", f"expected a d{faces} result 1-{faces}, got {d!r}"
                )
            vals.append(d)
        dice = tuple(vals)
    outcomes = None
    if "outcomes" in raw:
        outcomes = tuple(
            parse_outcome(o, f"outcomes[{i}]")
            for i, o in enumerate(_list(raw["outcomes"], "outcomes"))
        )
    return dice, outcomes


def scenario_from_json(raw: Any, find: SystemLookup) -> Scenario:
    """Parse a whole scenario dict; raise InvalidActionError naming the bad key."""
    raw = _obj(raw, "")
    for k in raw:
        if k not in TOP_KEYS:
            raise InvalidActionError(k, "unknown top-level key")
    if "action" in raw and "actions" in raw:
        raise InvalidActionError("actions", 'give either "action" or "actions", not both')
    state = position_from_json(raw, find)
    system = find(state.system)
    single = "action" in raw
    raws = (
        [(raw["action"], "action")]
        if single
        else [(a, f"actions[{i}]") for i, a in enumerate(_list(raw.get("actions", []), "actions"))]
    )
    actions = tuple(_parse_action(system, a, key) for a, key in raws)
    expects: tuple[Mapping[str, Any] | None, ...] = ()
    single_expect = False
    if "expect" in raw:
        exp = raw["expect"]
        if isinstance(exp, dict):
            single_expect = True
            expects = (exp,)
        else:
            expects = tuple(
                _obj(e, f"expect[{i}]") if e is not None else None
                for i, e in enumerate(_list(exp, "expect"))
            )
        if len(expects) != len(actions):
            raise InvalidActionError(
                "expect", f"{len(expects)} expectations for {len(actions)} actions"
            )
        known = EXPECT_KEYS | {note.key for note in system.verdict_notes}
        for i, expected in enumerate(expects):
            unknown = sorted(set(expected or {}) - known)
            if unknown:
                key = "expect" if single_expect else f"expect[{i}]"
                raise InvalidActionError(f"{key}.{unknown[0]}", "unknown EXPECT key")
    dice, outcomes = _forced(raw, system.die_faces)
    return Scenario(
        state=state,
        actions=actions,
        expects=expects,
        dice=dice,
        outcomes=outcomes,
        single_action=single,
        single_expect=single_expect,
    )


def _parse_action(system: System, raw: Any, key: str) -> Action | MalformedAction:
    try:
        return system.parse_action(raw, key)
    except InvalidActionError as err:
        return MalformedAction(raw, err)


def state_to_json(state: GameState) -> dict[str, Any]:
    """The position in scenario shape: system, table, terrain, units, state."""
    return {
        "system": state.system,
        "table": state.table.to_json(),
        "terrain": [t.to_json() for t in state.terrain],
        "units": [u.to_json() for u in state.units],
        "state": dict(state.turn),
    }


def scenario_to_json(scn: Scenario) -> dict[str, Any]:
    out = state_to_json(scn.state)
    if scn.dice is not None:
        out["dice"] = list(scn.dice)
    if scn.outcomes is not None:
        out["outcomes"] = ["success" if o else "fail" for o in scn.outcomes]
    if scn.single_action and len(scn.actions) == 1:
        out["action"] = scn.actions[0].to_json()
    else:
        out["actions"] = [a.to_json() for a in scn.actions]
    if scn.expects:
        if scn.single_expect and len(scn.expects) == 1:
            out["expect"] = dict(scn.expects[0] or {})
        else:
            out["expect"] = [None if e is None else dict(e) for e in scn.expects]
    return out
