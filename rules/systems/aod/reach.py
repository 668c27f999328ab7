"""Reach for aod: a conservative area where a unit's centre can end this order.

aod says what the unit may not touch (its matrix row, 6.1: blocking, prohibited,
hindering it would have to stop at, elevated terrain it would have to stop on) and
which bases it may cross (section 5); the kernel's open reach does the rest.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import numpy as np
import shapely
from shapely.geometry import Point, Polygon

from rules.engine.companion_room import companion_obstacles
from rules.engine.contact_bands import contact_bands
from rules.engine.dice import make_dice
from rules.engine.edge_crossings import Barriers
from rules.engine.left_behind import left_behind
from rules.engine.open_reach import (
    MARGIN,
    WINDOW,
    base_barriers,
    base_barriers_by_unit,
    beyond,
    grown_by_base,
    horizon,
    open_reach,
    open_reach_with_graph,
    union_reach,
)
from rules.engine.play import ReachBuilder
from rules.engine.reach import Reach, no_ends, unshaded
from rules.engine.reach_template import ReachTemplate
from rules.geometry import visibility
from rules.geometry.arcs import rear_slots
from rules.geometry.bases import body_at, rect_corners
from rules.geometry.occupancy import occupies
from rules.geometry.rotation_sweep import rect_turn_gaps, rect_turn_sweep
from rules.geometry.tolerance import CONTACT, ROTATION_STEP
from rules.geometry.track import Pose, Track
from rules.geometry.visibility import Work
from rules.model.actions import Action, Turn
from rules.model.state import BaseShape, GameState, Terrain, Unit
from rules.systems.aod import vtol
from rules.systems.aod.contact import AodBases, opposing_contacts
from rules.systems.aod.elevation import abrupt_at
from rules.systems.aod.movement import halve_for_hindering
from rules.systems.aod.moves import (
    TARGETED,
    base_allowance,
    ordered_move,
    start_contact_problems,
)
from rules.systems.aod.orders import captive_of, check_order, passengers
from rules.systems.aod.position import AodPosition, aod_position
from rules.systems.aod.reach_elevated import elevated_ends
from rules.systems.aod.reach_formation import formation_reach
from rules.systems.aod.transport import boarding_problem, load_cost, placement_problems
from rules.systems.aod.turn import turn_of
from rules.systems.aod.units import (
    capacity,
    is_captive,
    is_cruising,
    is_infantry,
    is_mech,
    is_salvage,
    is_vtol,
    matrix_row,
    opposing,
)
from rules.systems.aod.water import water_at

#: The orders whose end the kernel's template shades (`AodReach`): a move that may end
#: anywhere it can reach (a captor's too, `_captor`), and the close combat orders, which
#: end in contact with a target (`may_target`). Boarding, disembarking and formation
#: moves have builders of their own (`AodReach.reach_builders`).
SHADED = frozenset({"move", "run", "assault_half", *TARGETED})


def not_shaded(state: GameState, unit_id: str, action_type: str) -> bool:
    """Where the ends of an order are not shaded at all, whoever the unit: a captor's
    other orders, a disembark from a rect transport (the kernel keeps a mover from a base
    it touches at its start only as far as its centre is from it, which for a rect
    touching along its rear edge lets a path sweep through the passengers just set down;
    complete false, horizon 0)."""
    if captive_of(state, unit_id) is not None:
        return action_type not in ("move", "formation_move")
    if action_type == "disembark":
        carrier = state.unit(unit_id)
        return carrier is None or not carrier.base.is_circle
    return False


class AodReach(ReachTemplate):
    """The kernel's reach template (rules/engine/reach_template.py) where aod's rules
    differ: the order's preconditions, its allowance halved where the unit starts touching
    hindering terrain (000 [32]) or carries a captive (001 [27]), and the region: the
    open reach among what its matrix row and section 5 keep it from (`_region`)."""

    shaded_types = SHADED
    reach_builders: ClassVar[Mapping[str, ReachBuilder]] = {
        "board": lambda position, unit, _type: _board_reach(position.state, unit),
        "disembark": lambda position, unit, _type: _disembark_reach(position.state, unit),
        "formation_move": lambda position, unit, _type: formation_reach(position, unit),
    }

    def may_take_type(self, position: AodPosition, unit: Unit, action_type: str) -> bool:
        return not _refused_whatever_the_path(position, unit, action_type)

    def reach_budget(self, position: AodPosition, unit: Unit, action_type: str) -> float:
        captive = captive_of(position.state, unit.id)
        rows: tuple[str, ...] = (matrix_row(unit),)
        allowance = base_allowance(position, unit, action_type)
        tracks = [Track(unit.base, Pose(*unit.position, unit.facing), ())]
        if captive is not None:  # the slower of the two, either touching (001 [27])
            rows += (matrix_row(captive),)
            tracks.append(Track(captive.base, Pose(*captive.position, captive.facing), ()))
            allowance = replace(allowance, base=min(unit.move, captive.move))
        return halve_for_hindering(position, rows, tracks, allowance).value

    def unreached(self, unit: Unit, action_type: str, budget: float) -> Reach:
        """Nowhere: validate refuses this order before it looks at the path (001 orders)."""
        return no_ends(unit.id, action_type)

    def reach_region(
        self, position: AodPosition, unit: Unit, action_type: str, budget: float
    ) -> Reach:
        captive = captive_of(position.state, unit.id)
        if captive is not None:  # a captor's move: neither base where either row forbids
            rows = (matrix_row(unit), matrix_row(captive))  # (001 [27], AOD-D33)
            held = _captor_of_a_mech if is_mech(captive) else _captor_carrying
            return held(position, unit, captive, rows, budget)
        # Three quarters of the bound for a disembark: its placements are judged first.
        work = visibility.WORK.share(3, 4) if action_type == "disembark" else None
        return _region(position, unit, action_type, budget, work)


def _shaded(state: GameState, unit: Unit, action_type: str) -> Reach:
    """The template's reach of `unit` (as it stands in `state`) for `action_type`."""
    return AodReach().shaded_reach(aod_position(state), state.units_by_id[unit.id], action_type)


def boarders(state: GameState, transport: Unit) -> list[str]:
    """The passengers a board order takes (as the board proposes it): every unit that may
    board now (friendly, unordered, at the transport's rear, not based by an opponent,
    001 [18]), in id order, each while its load (a captor's with its captive, 000 [18])
    still fits the capacity left."""
    position = aod_position(state)
    turn = turn_of(state)
    room = capacity(transport) - sum(load_cost(u) for u in passengers(state, transport.id))
    out: list[str] = []
    for p in sorted(state.units, key=lambda u: u.id):
        if p.id == transport.id or not p.on_table:
            continue
        if boarding_problem(position, transport, p, turn) is not None:
            continue
        captive = captive_of(state, p.id)
        load = load_cost(p) + (0 if captive is None else load_cost(captive))
        if load <= room:
            out.append(p.id)
            room -= load
    return out


def _board_reach(state: GameState, unit: Unit) -> Reach:
    """A board order (000 [18], 001 [18]): the passengers the board picks (`boarders`)
    board first and leave the table, then the transport moves up to ceil(move/2), halved
    again where it starts touching hindering (AOD-D27). Its ends are those of that move in
    the position with the passengers aboard; each names them (`keys_at`). With none to
    take the order is refused whatever the path: nowhere."""
    ids = boarders(state, unit)
    if not ids:
        return no_ends(unit.id, "board")
    leaving = [state.units_by_id[i] for i in ids]
    leaving += [c for i in ids if (c := captive_of(state, i)) is not None]
    loaded = state.with_units(*[replace(p, aboard=unit.id) for p in leaving])
    found = _shaded(loaded, unit, "board")
    return replace(found, _keys_at=lambda p: {"passengers": list(ids)})


def set_down(state: GameState, transport: Unit) -> list[Unit] | None:
    """Every passenger of `transport` placed at the rear of its start pose (001 [19]): in
    base contact with the rear (AOD-D13), not based by an opponent, completely on the
    table, on no base, blocking or prohibited terrain (AOD-D44), each judged by the
    referee's own `placement_problems` against those placed before it. Candidates step along
    the rear edge or arc from one side, packing them; None where one cannot be placed."""
    position = aod_position(state)
    placed: list[Unit] = []
    for p in sorted(passengers(state, transport.id), key=lambda u: u.id):
        depth = p.base.radius if p.base.is_circle else p.base.length / 2
        for x, y, facing in rear_slots(transport, depth):
            here = replace(p, aboard=None).moved((x, y), facing)
            if not placement_problems(position, transport, [*placed, here]):
                placed.append(here)
                break
        else:
            return None
    return placed


def _disembark_reach(state: GameState, unit: Unit) -> Reach:
    """A disembark that unloads first (001 [19], `unload: "before"`): every passenger set
    down at the rear of the start pose (`set_down`), then the transport moves up to
    ceil(move/2), halved again where it starts touching hindering (AOD-D27), kept from the
    bases it has just set down. Each end names the placements (`keys_at`). The ends of an
    unload after the move (passengers placed at the rear where the transport ends, with
    its facing there) are left out: the area is sound but not the whole truth (complete
    false, horizon 0). Nowhere where the passengers cannot all be set down. A VTOL at
    cruising unloads after its move (`_unloaded_after`)."""
    held = passengers(state, unit.id)
    if is_cruising(unit) and not all(p.flag("jump_jets") for p in held):
        return unshaded(unit.id, "disembark")
    placed = set_down(state, unit)
    if not placed:
        return unshaded(unit.id, "disembark")
    # Three quarters of the bound (`AodReach.reach_region`): the placements are judged
    # first, and the reach says already that it is not the whole truth
    # (bench/worst_case.py's row under 50 ms).
    if is_cruising(unit):
        return _unloaded_after(state, unit, held, placed, _shaded(state, unit, "disembark"))
    found = _shaded(state.with_units(*placed), unit, "disembark")
    keys = {
        "unload": "before",
        "passengers": [
            {
                "unit": p.id,
                "position": [round(p.position[0], 6), round(p.position[1], 6)],
                "facing": round(p.facing, 6),
            }
            for p in placed
        ],
    }
    return replace(found, cut_at=0.0, _keys_at=lambda p: keys)


def _unloaded_after(
    state: GameState, unit: Unit, held: list[Unit], placed: list[Unit], found: Reach
) -> Reach:
    """A VTOL at cruising may not move after disembarking (000 [19]): it moves (ignoring
    terrain, ending on no base, 000 [18], AOD-D26: `found`), then sets its jump-jet
    passengers down at its rear (unload "after", 001 [19]). Each is placed where `set_down`
    puts it at the start pose, moved with the VTOL (no turn on the way: the same rear); the
    ends kept are those where every such place is free: on the table, on no base and not
    touching an opposing one, on no terrain its row forbids (AOD-D44). Not complete (other
    places at the rear are left out)."""
    if found.area is None or found.area.is_empty:
        return replace(found, cut_at=0.0)
    position = aod_position(state)
    sx, sy = unit.position
    w, h = state.table.width, state.table.height
    ids = {unit.id, *(p.id for p in held)}
    bad: list[Any] = []
    x0, y0, x1, y1 = found.area.bounds
    for p in placed:
        ox, oy = p.position[0] - sx, p.position[1] - sy
        r = p.base.radius
        far = (x0 + ox - r - 2, y0 + oy - r - 2, x1 + ox + r + 2, y1 + oy + r + 2)
        forbidden = position.forbidden_to((matrix_row(p),))

        def gap(other: Unit, p: Unit = p) -> float:
            return 0.012 if opposing(p, other) else 0.002  # touching a foe: based (001 [19])

        mine = companion_obstacles(position, r, far, forbidden, gap, ids)
        edge = r + 0.002
        mine.append(beyond(state.table, shapely.box(edge, edge, w - edge, h - edge)))
        bad.append(shapely.affinity.translate(shapely.union_all(mine), -ox, -oy))
    area = found.area.difference(shapely.union_all(bad))
    if area.is_empty or area.area < 1e-9:
        return no_ends(unit.id, "disembark", found.allowance, cut_at=0.0)
    shapely.prepare(area)
    offsets = [(p, p.position[0] - sx, p.position[1] - sy) for p in placed]

    def path_to(q: tuple[float, float]) -> list[Any] | None:
        return found.path_to(q) if area.dwithin(Point(q), 0.0005) else None

    def keys_at(q: tuple[float, float]) -> dict[str, Any]:
        return {
            "unload": "after",
            "passengers": [
                {"unit": p.id, "position": [q[0] + ox, q[1] + oy], "facing": p.facing}
                for p, ox, oy in offsets
            ],
        }

    return Reach(unit.id, "disembark", area, found.allowance, path_to, 0.0, keys_at)


def may_target(position: AodPosition, unit: Unit, other: Unit, action_type: str) -> bool:
    """Whether `other` is a target a close combat order may end in contact with
    (001 [27-28], 000 [18]). Left out (their ends are not shaded, a subset of the truth):
    a target in water (the attacker must be in the same water, 000 [33]), and either unit
    on abrupt elevated terrain (no close combat across its edge, 000 [34])."""
    if other.id == unit.id or not other.on_table:
        return False
    if is_captive(other) or not opposing(unit, other) or is_cruising(other):
        return False
    if action_type == "ram" and is_infantry(other):
        return False
    if water_at(position, *other.position) is not None:
        return False
    return abrupt_at(position, other) is None and abrupt_at(position, unit) is None


def _captor_of_a_mech(
    position: AodPosition, unit: Unit, captive: Unit, rows: tuple[str, ...], budget: float
) -> Reach:
    """A captor of a 'Mech (001 [27], AOD-D33): the captive 'Mech may not move, so the
    captor's move must end in base contact with it where it stands. The ends are the
    captive's contact band reached by a legal path (the band of close combat,
    `contact_bands`, with the captive as its one 'target'; captives are neither friend nor
    foe, so touching it stops nothing, 001 [26]), a subset of the truth. A captor
    touching hindering terrain or standing on elevated terrain is not shaded (its stops
    there with two rows are not computed here), nor a rect captor (the kernel keeps a
    mover from a base it touches at its start only as far as its centre is from it)."""
    ground = _terrain(position, unit, rows, budget)
    if ground.touched or ground.standing_on is not None or not unit.base.is_circle:
        return unshaded(unit.id, "move")
    by_unit = base_barriers_by_unit(position, unit, AodBases(), horizon(unit, budget))
    within = _kept_to_water(position, rows, unit.base.radius)
    elevated = [g for _, g in ground.elevated]
    found = contact_bands(
        position,
        unit,
        "move",
        budget,
        ground.hard + elevated,
        by_unit,
        within,
        lambda other: other.id == captive.id,
    )
    # The band's last legs are found from the graph's corners near it; round a captive
    # the captor starts touching (its obstacle a many-cornered ring) stretches of the far
    # side are missed: sound, not the whole truth, and said so (complete false, horizon 0).
    return replace(found, cut_at=0.0, _keys_at=None)


def _captor_carrying(
    position: AodPosition, unit: Unit, captive: Unit, rows: tuple[str, ...], budget: float
) -> Reach:
    """A captor carrying its captive rigidly (AOD-D33). The pair is swept by the circle
    round the captor's centre that holds both bases, kept from everything either may not
    touch (hindering it would stop at included); a pair already touching hindering
    terrain shades nothing."""
    apart = math.dist(unit.position[:2], captive.position[:2])
    radius = max(unit.base.radius, apart + captive.base.radius) + 0.001
    pair = replace(unit, base=BaseShape("circle", diameter=2 * radius))
    ground = _terrain(position, pair, rows, budget)
    if ground.touched or ground.standing_on is not None:
        return no_ends(unit.id, "move")
    policy = AodBases(ignore=frozenset({captive.id}))
    blocking, end_only = base_barriers(position, pair, policy, horizon(pair, budget))
    within = _kept_to_water(position, rows, radius)
    elevated = [g for _, g in ground.elevated]
    return open_reach(
        position, pair, "move", budget, ground.hard + elevated + blocking, end_only, within
    )


def _kept_to_water(position: AodPosition, rows: tuple[str, ...], radius: float) -> Any:
    """Where the centre of a unit whose row prohibits clear (aquatic) may be: its water
    shrunk by the base and a margin (AOD-D28); None for every other unit."""
    if position.options.cell(rows, "clear") != "proh":
        return None
    return position.water_union(rows).buffer(-(radius + MARGIN))


def _region(
    position: AodPosition, unit: Unit, action_type: str, budget: float, work: Work | None
) -> Reach:
    """Where a unit (no captor) may end within `budget`: `work` bounds the main search."""
    rows = (matrix_row(unit),)
    cruising = is_cruising(unit)  # ignores terrain and crosses every base (000 [18])
    # Bases the unit may cross ('Mechs over infantry, a cruising VTOL over anything,
    # 000 [17-18]) only keep it from ending on them (AOD-D7, AOD-D26).
    # Every path searched below keeps the start facing (a rect turned first, `_rect_turned`,
    # has its own): a rect is kept from the bases beside it by its own shape.
    by_unit = base_barriers_by_unit(
        position, unit, AodBases(cruising=cruising), horizon(unit, budget), keeps_facing=True
    )
    blocking, end_only = [g for _, g in by_unit[0]], [g for _, g in by_unit[1]]
    within = None if cruising else _kept_to_water(position, rows, unit.base.radius)
    if cruising:
        return open_reach_with_graph(
            position, unit, action_type, budget, blocking, end_only, within, work=work
        )[0]
    found = _on_the_ground(position, unit, action_type, budget, by_unit, within, work)
    if action_type == "move" and is_vtol(unit) and not is_salvage(unit):
        return union_reach([found, _climbing(position, unit, budget)])
    return found


def _climbing(position: AodPosition, unit: Unit, budget: float) -> Reach:
    """A VTOL at NOE may climb to cruising as it moves, for 2", the climb at the start of
    the path (000 [17], AOD-D26): then it ignores terrain and crosses every base, but may
    not end on one (000 [18]). Its ends name the climb (`altitude`)."""
    flying = replace(unit, props={**unit.props, "altitude": "cruising"})
    found = _region(position, flying, "move", budget - vtol.LEVEL_CHANGE, None)
    return replace(found, allowance=budget, _keys_at=lambda p: {"altitude": "cruising"})


def _on_the_ground(
    position: AodPosition,
    unit: Unit,
    action_type: str,
    budget: float,
    by_unit: tuple[list[tuple[str, Any]], list[tuple[str, Any]]],
    within: Any,
    work: Work | None = None,
) -> Reach:
    """The reach of a unit that keeps to the ground (or flies at NOE): its matrix row,
    the bases it may cross, elevated and hindering terrain."""
    state = position.state
    rows = (matrix_row(unit),)
    blocking, end_only = [g for _, g in by_unit[0]], [g for _, g in by_unit[1]]
    ground = _terrain(position, unit, rows, budget)
    on = ground.standing_on
    if on is not None:
        # On elevated terrain the unit moves freely, but stops on leaving it (000 [33]).
        inside = on.shape.buffer(-0.005)
        within = inside if within is None else within.intersection(inside)
    elevated = [g for t, g in ground.elevated if t is not on]
    others = ground.hard + elevated + blocking
    r = unit.base.radius
    room = shapely.box(r, r, state.table.width - r, state.table.height - r)
    # The terrain it starts touching, once left, as hard as any other (AOD-D4).
    hard = ground.hard + left_behind(
        unit.base,
        unit.facing,
        unit.position,
        [t.shape for t in ground.touched],
        budget,
        others,
        room if within is None else room.intersection(within),
        by_centre=position.options.hindering_entry == "centre",
    )
    if action_type in TARGETED:
        # Close combat: only ends in contact with a target count (AOD-D31), the bands of
        # rules/engine/contact_bands.py about each unit it may take.
        return contact_bands(
            position,
            unit,
            action_type,
            budget,
            hard + elevated,
            by_unit,
            within,
            lambda other: may_target(position, unit, other, action_type),
        )
    main, graph = open_reach_with_graph(
        position, unit, action_type, budget, hard + elevated + blocking, end_only, within, work=work
    )
    parts = [main]
    if not unit.base.is_circle and action_type in ("move", "run", "assault_half") and main.complete:
        # Only where the search was not cut short: a second search would double the
        # bound's cost, and a reach cut short already says it is not the whole truth.
        parts.extend(_rect_turned(position, unit, action_type, budget, ground, by_unit, within))
    if ground.touched:  # moving within it bends round its corners (the star is straight)
        parts.append(
            _through_touching_hindering(
                position, unit, action_type, budget, ground, elevated + blocking, end_only, within
            )
        )
    if graph is not None and unit.base.is_circle and (ground.elevated or on is not None):
        table = state.table
        barriers = Barriers(
            hard + blocking,
            end_only,
            ground.elevated,
            (r, r, table.width - r, table.height - r),
        )
        ends = elevated_ends(
            unit,
            action_type,
            graph,
            budget,
            [t for t, _ in ground.elevated if t is not on],
            on,
            barriers,
            unit.flag("jump_jets"),
        )
        if ends is not None:
            parts.append(ends)
    return union_reach(parts)


def _rect_turned(
    position: AodPosition,
    unit: Unit,
    action_type: str,
    budget: float,
    ground: _Ground,
    by_unit: tuple[list[tuple[str, Any]], list[tuple[str, Any]]],
    within: Any,
) -> list[Reach]:
    """A rect base turned a quarter in place first (facing is free, AOD-D21; the rotation
    swept, 000 [33]), then moved keeping that facing: where its centre ends, the rect
    itself (not the circle round it) kept from terrain and bases by a margin (a Minkowski
    sum). Shaded only where the turn alone is legal; the path starts with the turn."""
    turn = 90.0
    spun = Action(unit.id, action_type, (Turn(turn),))
    # The judge of these orders rules on the turn itself (a rect's rotation swept,
    # AOD-D17): every shaded order is an ordered move (system.py HANDLERS).
    if not ordered_move(position, unit, spun, make_dice(unresolved=True)).legal:
        return []
    turned = replace(unit, facing=unit.facing + turn)
    if _stopped_by_turning(position, unit, turned, ground):
        return []
    b = unit.base
    grown = (b.width + 2 * MARGIN, b.length + 2 * MARGIN)
    rect = Polygon(rect_corners(0.0, 0.0, turned.facing, *grown))
    corners = np.array(rect.exterior.coords)[:-1]
    ex, ey = float(np.abs(corners[:, 0]).max()), float(np.abs(corners[:, 1]).max())
    table = position.state.table
    room = shapely.box(ex, ey, table.width - ex, table.height - ey)
    within = room if within is None else within.intersection(room)
    near = horizon(unit, budget)
    sx, sy = start_xy = unit.position
    hard: list[Any] = []
    rows = (matrix_row(unit),)
    # Hindering terrain the turned rect no longer touches is entered anew if touched again
    # (moving from clear, AOD-D4): it is kept from it like from any other; what it still
    # touches may be left, not met again (`left_behind`, below).
    body = body_at(b, sx, sy, turned.facing)
    touched = {t.id for t in ground.touched if body.distance(t.shape) <= CONTACT}
    for i in position.terrain.query_box(sx - near, sy - near, sx + near, sy + near):
        t = position.state.terrain[i]
        cell = position.options.cell(rows, t.type)
        if cell in ("ok", "ign", "elev") or t.id in touched:
            continue
        if cell == "hind" and position.options.hindering_entry == "centre":
            hard.append(position.grown(t, MARGIN))
        elif Point(sx, sy).distance(t.shape) <= WINDOW:
            hard.append(grown_by_base(t.shape, rect, 0.0))
        else:  # farther than the first window: the circle round the base, cheaper
            hard.append(position.grown(t, b.radius + MARGIN))
    # The bases kept from the rect at its new facing (beside the start, its own shape).
    hard.extend(
        g
        for _, g in base_barriers_by_unit(position, turned, AodBases(), near, keeps_facing=True)[0]
    )
    point = replace(unit, base=BaseShape("circle", diameter=0.0002))
    elevated = [g for _, g in ground.elevated]
    still = [t.shape for t in ground.touched if t.id in touched]
    by_centre = position.options.hindering_entry == "centre"
    hard += left_behind(
        b, turned.facing, start_xy, still, budget, hard + elevated, within, by_centre
    )
    # A quarter of the bound: where that does not suffice the turned ends are left out
    # (the reach stays sound, and exact to what the first search says).
    found, _ = open_reach_with_graph(
        position,
        point,
        action_type,
        budget,
        hard + elevated,
        [g for _, g in by_unit[1]],
        within,
        work=visibility.WORK.share(1, 4),
    )
    if not found.complete or found.area is None or found.area.is_empty or found.area.area < 1e-9:
        return []
    start = unit.position

    def path_to(p: tuple[float, float]) -> list[Any] | None:
        path = found.path_to(p)
        return None if path is None else [start, {"turn": turn}, *path[1:]]

    return [replace(found, _path_to=path_to)]


def _stopped_by_turning(position: AodPosition, unit: Unit, turned: Unit, ground: _Ground) -> bool:
    """Whether the rect's turn in place (its sweep, AOD-D17) stops it where it stands, so
    that no move may follow: it comes into contact with a foe it did not touch (AOD-D6),
    or near hindering terrain it did not touch (entering from clear, 000 [32]; within the
    margin, and a feature joined to one it touches counts too: a subset of the truth)."""
    b = unit.base
    sx, sy = unit.position
    sweep = shapely.union_all(
        rect_turn_sweep(sx, sy, unit.facing, turned.facing, b.width, b.length)
    )
    policy = AodBases()
    before = {o.id for o in opposing_contacts(position, unit)}
    far = b.radius + MARGIN
    for k in position.units.query_box(sx - far, sy - far, sx + far, sy + far):
        other = position.on_table[k]
        if other.id == unit.id or other.id in before:
            continue
        if not opposing(unit, other) or not policy.stops_for(unit, other):
            continue
        if position.bodies[other.id].distance(sweep) <= CONTACT:
            return True
    if position.options.hindering_entry == "centre":
        return False  # the centre, which enters by this rule, stays where it is
    if _clear_while_turning(unit, turned, ground.touched):
        return True
    touched = {t.id for t in ground.touched}
    rows = (matrix_row(unit),)
    for i in position.terrain.query_box(sx - far, sy - far, sx + far, sy + far):
        t = position.state.terrain[i]
        if t.id in touched or position.options.cell(rows, t.type) != "hind":
            continue
        if sweep.distance(t.shape) <= MARGIN:
            return True
    return False


def _clear_while_turning(unit: Unit, turned: Unit, touched: list[Terrain]) -> bool:
    """Whether the rect, turning in place, may come clear of the hindering terrain it
    touches and end touching it again: it would enter it from clear there and have to
    stop (000 [32], AOD-D4). Its poses every ROTATION_STEP of corner travel each stay
    within 0.01" less that step of the terrain, or it may (a subset of the truth)."""
    b = unit.base
    end = body_at(b, *unit.position, turned.facing)
    if not any(end.distance(t.shape) <= CONTACT for t in touched):
        return False  # ends clear of it: met again later, it is kept from it (`hard`)
    met = shapely.union_all([t.shape for t in touched])
    gaps = rect_turn_gaps(b, unit.position, unit.facing, turned.facing, met)
    return bool((gaps > CONTACT - ROTATION_STEP).any())


def _refused_whatever_the_path(position: AodPosition, unit: Unit, action_type: str) -> bool:
    """The order's own preconditions (sections 3, 12): who may be given it, the turn's
    orders, a charge or full assault from base contact (001 [27]), a DFA with no attack."""
    if check_order(position.state, unit, action_type):
        return True
    if start_contact_problems(position, unit, action_type):
        return True
    attack = unit.get("attack")
    return action_type == "dfa" and isinstance(attack, int | float) and attack <= 0


@dataclass
class _Ground:
    """The terrain near a unit as its reach sees it (aod.md 6)."""

    #: The centre's forbidden areas: blocking and prohibited terrain, and hindering
    #: terrain it would have to stop at, grown by the base and a margin.
    hard: list[Any] = field(default_factory=list)
    #: Elevated features near, each with the area its centre keeps out of (6.4).
    elevated: list[tuple[Terrain, Any]] = field(default_factory=list)
    #: The elevated feature whose polygon holds the centre, if any.
    standing_on: Terrain | None = None
    #: Hindering features touched at the start (moving within them is free, 000 [32]).
    touched: list[Terrain] = field(default_factory=list)
    #: Hindering features joined to those (touching them, one after another): entered
    #: without ever being clear, so without a stop (000 [32], AOD-D4). Their obstacles
    #: are in `hard` at the same indices as in `joined_at`.
    joined: list[Terrain] = field(default_factory=list)
    joined_at: list[int] = field(default_factory=list)


def _terrain(position: AodPosition, unit: Unit, rows: tuple[str, ...], budget: float) -> _Ground:
    r = unit.base.radius
    body = body_at(unit.base, *unit.position, unit.facing)
    sx, sy = unit.position
    by_centre = position.options.hindering_entry == "centre"
    far = horizon(unit, budget)
    out = _Ground()
    hind: list[tuple[Terrain, int]] = []
    for i in position.terrain.query_box(sx - far, sy - far, sx + far, sy + far):
        t = position.state.terrain[i]
        cell = position.options.cell(rows, t.type)
        if cell in ("ok", "ign"):
            continue
        if cell == "elev":
            # Only the centre matters for elevated terrain (6.4): it stays out of the
            # polygon, or ends where the engine puts it on (reach_elevated.py).
            if out.standing_on is None and occupies(t.shape, sx, sy):
                out.standing_on = t
            out.elevated.append((t, position.grown(t, 0.01)))
            continue
        if cell == "hind":
            if by_centre:
                # Entering is the centre reaching it (AOD-D3 option): already in it, it
                # moves on freely; else it keeps its centre out.
                if occupies(t.shape, sx, sy):
                    out.touched.append(t)
                else:
                    hind.append((t, len(out.hard)))
                    out.hard.append(position.grown(t, MARGIN))
                continue
            if body.distance(t.shape) <= CONTACT:
                out.touched.append(t)  # already touching: moving inside it is free
                continue
            hind.append((t, len(out.hard)))
        out.hard.append(position.grown(t, r + MARGIN))
    if out.touched and hind:
        group = [t.shape for t in out.touched]
        grew = True
        while grew:
            grew = False
            for t, k in hind:
                if t not in out.joined and min(t.shape.distance(g) for g in group) <= CONTACT:
                    out.joined.append(t)
                    out.joined_at.append(k)
                    group.append(t.shape)
                    grew = True
    return out


def _through_touching_hindering(
    position: AodPosition,
    unit: Unit,
    action_type: str,
    budget: float,
    ground: _Ground,
    others: list[Any],
    end_only: list[Any],
    within: Any,
) -> Reach:
    """Where the unit ends keeping its base on the hindering terrain it starts in and the
    features joined to it: never clear, so never entering from clear (000 [32], AOD-D4).
    The centre stays within the group grown by the base's inner radius less a margin (so
    the base overlaps it all the way), or within the group itself where entering is
    judged by the centre (AOD-D3 option)."""
    group = shapely.union_all([t.shape for t in ground.touched + ground.joined])
    if position.options.hindering_entry == "centre":
        keep = group.buffer(-0.002)
    else:
        b = unit.base
        inner = b.radius if b.is_circle else min(b.width, b.length) / 2
        keep = group.buffer(inner - MARGIN)
    within = keep if within is None else within.intersection(keep)
    hard = [g for k, g in enumerate(ground.hard) if k not in set(ground.joined_at)]
    found, _ = open_reach_with_graph(
        position,
        unit,
        action_type,
        budget,
        hard + others,
        end_only,
        within,
        work=visibility.WORK.share(1, 2),
    )
    return found
