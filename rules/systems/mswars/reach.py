"""Reach for mswars: where a unit can end one move action by turning in place to face the
point and moving straight ahead (the kernel's turn-then-straight reach; straight ahead
needs no further turn, MSW-D5). The unit pays its turn (free turn applied, MSW-D7) and the
terrain on the way; "Can't" terrain, elevated terrain it is not on, the edge of the top it
is on (MSW-D24), other bases and the table edge stop it.

Standard Move, Run, Break Away, Manoeuvre (touching no opposing unit) as that; a Charge in
base contact with an opposing unit beyond Move; a Jump landing wholly off its top; a Climb
at the engine's placement on top; Unit Exiting from placements along the carrier's rear;
a moving carrier's Carrier Unloading where its unit has room behind it; Enter Unit ends
aboard (no area). A Manoeuvre in contact with opposing units shades the straight slides
that keep every contact (a rect base along its axes, keeping its facing), and says it is
not complete (going round a base takes several legs). A rect base's Charge: the ends
facing a round target with its front touching it (reach_rect_charge.py), not complete."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, ClassVar

import shapely
from shapely.geometry import Point, box

from rules.engine.bases_policy import BasePolicy
from rules.engine.dice import make_dice
from rules.engine.open_reach import MARGIN, beyond, grown
from rules.engine.reach import Reach, unshaded
from rules.engine.reach_ends import narrowed
from rules.engine.reach_template import Features, ReachTemplate, Steering
from rules.engine.turn_reach import (
    ContactTarget,
    contact_reach,
    contact_with_all,
    nowhere,
    table_barrier,
    turn_then_straight_reach,
)
from rules.geometry.bases import rect_corners
from rules.model.actions import Action
from rules.model.state import GameState, Unit
from rules.systems.mswars.carriers import aboard, placement_at_rear
from rules.systems.mswars.moves import MswarsMoves, lacks_manoeuvre_skill
from rules.systems.mswars.path import MswarsBases
from rules.systems.mswars.reach_rect_charge import rect_charge
from rules.systems.mswars.rules_common import (
    allowance_for,
    has_moved_this_phase,
    may_act,
    opposing_contacts,
)
from rules.systems.mswars.tables import ACTIONS, RUN_LIKE
from rules.systems.mswars.terrain import ELEVATED, MswarsPosition, UnitView, opposing


class MswarsReach(ReachTemplate):
    """The kernel's reach template (rules/engine/reach_template.py) where M.S. Wars'
    rules differ: who may act (mswars.md 4-7), the turn paid by the terrain the unit
    stands on (002 Turning), elevated terrain and the top it stands on (MSW-D24), the
    bases it may pass (MSW-D8), and the ends of a Charge, a Manoeuvre in contact and a
    Carrier Unloading."""

    # Climb and Unit Exiting: `climb_reach`, `exiting_reach`; Enter Unit ends aboard.
    shaded_types = frozenset(ACTIONS) - {"climb", "enter_unit", "unit_exiting"}
    base_policy: ClassVar[BasePolicy] = MswarsBases()
    # A rect base beside another may not turn where it stands (`may_turn_in_place`), so
    # it keeps its facing and the bases by its start are kept from its own shape, not
    # from the circle round it: drifting up to 1 degree along an axis (MSW-D5), a long
    # rect's end would cut into a base beside it (002 Rules: Movement).
    rect_kept_by_its_shape = True

    # -- the template's hooks -----------------------------------------------------------
    def may_take_type(self, position: MswarsPosition, unit: Unit, action_type: str) -> bool:
        """The judge's checks before any path (check_can_act, check_move_kind): not a static
        unit, a Break Away from an opposing unit in contact, a Manoeuvre by a pilot with the
        skill, a Jump from a top; malformed terrain: no."""
        if position.malformed is not None:
            return False
        view = position.view(unit)
        return not (
            not may_act(position, unit, action_type)
            or view.immobile
            or (action_type == "break_away" and not opposing_contacts(position, unit))
            or lacks_manoeuvre_skill(unit, action_type)
            or (action_type == "jump" and view.top_under(unit.position) is None)
        )

    def may_leave(self, position: MswarsPosition, unit: Unit) -> bool:
        """Not from "Can't" terrain, anywhere along the sweep (MSW-D25)."""
        view = position.view(unit)
        return _dearest_rate(view, unit.position, _exit_sweep(position, unit)) is not None

    def reach_region(
        self, position: MswarsPosition, unit: Unit, action_type: str, budget: float
    ) -> Reach | None:
        foes = opposing_contacts(position, unit)
        targets = _charge_targets(position, unit, budget) if action_type == "charge" else []
        ignore = {t.id for t in targets} | (
            {o.id for o in foes} if action_type == "manoeuvre" else set()
        )
        spec = self.straight_ahead(position, unit, action_type, budget, frozenset(ignore))
        if spec is None:
            return None
        # A rect base's charge: its contact depends on its facing at the end, so only ends
        # reached facing them (a turn first, no axis move) count (reach_rect_charge.py).
        rect_charge_ = action_type == "charge" and not unit.base.is_circle
        if rect_charge_:
            spec = replace(spec, axes=[])
        found = turn_then_straight_reach(unit.id, action_type, spec)
        if action_type == "carrier_unloading":
            return _unloading(position, unit, found)
        if action_type == "manoeuvre" and foes and not unit.base.is_circle:
            # A rect base in contact keeps its facing (a turn would swing its corners
            # into the bases it touches): it slides along its axes.
            return _rect_keeps_contact(found, unit, [position.bodies[o.id] for o in foes])
        if action_type == "manoeuvre" and foes:
            # 002 Manoeuvre Action: ends in base contact with every opposing unit it
            # touched at the start: sliding straight along their edges (not complete:
            # going round a corner or a round base takes several legs).
            return contact_with_all(
                found,
                unit.position,
                unit.base.radius,
                [ContactTarget(o.id, *_core(position, o), {}) for o in foes],
            )
        if action_type != "charge":
            return found
        if rect_charge_:
            return rect_charge(found, unit, [(t.id, position.bodies[t.id]) for t in targets])
        # 002 Charge Move Action: like a Run, ending in base contact with its target; each
        # opposing unit is a target, and an end names the one it touches (`keys_at`).
        return contact_reach(
            found,
            unit.position,
            unit.base.radius,
            [ContactTarget(t.id, *_core(position, t), {"target": t.id}) for t in targets],
        )

    def reach_barriers(self, position: MswarsPosition, unit: Unit, near: Features) -> list[Any]:
        """Elevated features it is not on (its base may not touch them) and "Can't"
        terrain (its centre may not enter) (MSW-D22, MSW-D24)."""
        view = position.view(unit)
        top = view.top_under(unit.position)
        return _kept_out(position, view, near, top, unit.base.radius, _grow(position, unit))

    def reach_confines(
        self, position: MswarsPosition, unit: Unit, action_type: str
    ) -> tuple[list[Any], list[Any]]:
        """Beyond the top it stands on (MSW-D24), unless it jumps off it: then its landing
        wholly off it (002 Jump Action, MSW-D13; a jump from too high is a Fall, not a
        refusal, MSW-D29: its ends are shaded too); a unit set down at a rect carrier's
        rear (or a rect unit at a round one's) stays behind the rear's line."""
        top = position.view(unit).top_under(unit.position)
        barriers, end_only = [], []
        if top is not None and action_type == "jump":
            end_only.append(
                top.shape.buffer(unit.base.radius + MARGIN, join_style="mitre", mitre_limit=3.0)
            )
        elif top is not None:
            barriers.append(
                beyond(position.state.table, top.shape.buffer(-MARGIN - _grow(position, unit)))
            )
        carrier = _exit_carrier(position, unit) if action_type == "unit_exiting" else None
        if carrier is not None and _has_rear_line(carrier, unit):
            barriers.append(_behind_rear(carrier, _half_depth(unit)))
        return barriers, end_only

    def reach_rates(
        self, position: MswarsPosition, unit: Unit, near: Features
    ) -> tuple[list[tuple[Any, float]], list[tuple[Any, float]]]:
        """Features dearer than Flat Ground (002 cost table; an elevated top counts as
        Flat Ground, MSW-D24); none is cheaper."""
        view = position.view(unit)
        grow = _grow(position, unit)
        flat = float(view.rate_of_row("flat") or 1.0)
        dear = [
            (t.shape.buffer(grow) if grow else t.shape, rate)
            for t, _ in near
            if view.row(t) != ELEVATED and (rate := view.rate(t)) is not None and rate > flat
        ]
        return dear, []

    def reach_table(
        self, position: MswarsPosition, unit: Unit, action_type: str
    ) -> tuple[list[Any], list[Any]] | None:
        """On the table (002 Rules: Movement), from every start along the sweep."""
        grow = _grow(position, unit)
        if not grow:
            return super().reach_table(position, unit, action_type)
        table = table_barrier(position.state.table, unit, MARGIN + grow)
        w, h = position.state.table.width, position.state.table.height
        r0 = unit.base.radius + MARGIN + grow
        x0, y0 = unit.position[:2]
        if table is None or not (r0 <= x0 <= w - r0 and r0 <= y0 <= h - r0):
            return None
        return [table], []

    def reach_bases(self, position: MswarsPosition, ignore: frozenset[str]) -> MswarsBases:
        return MswarsBases(ignore=ignore)

    def steering(self, position: MswarsPosition, unit: Unit) -> Steering:
        """A turn costs by the terrain under the centre where it turns (002 Turning): the
        dearest along the sweep."""
        view = position.view(unit)
        rate = _dearest_rate(view, unit.position, _exit_sweep(position, unit))
        return _TurnWhereItStands(view, 1.0 if rate is None else rate)

    def may_turn_in_place(
        self, position: MswarsPosition, unit: Unit, action_type: str, ignore: frozenset[str]
    ) -> bool:
        """A rect base may not turn where it would swing into any other base, even one it
        charges, touches or was set down behind (002 Rules: Movement)."""
        return super().may_turn_in_place(position, unit, action_type, frozenset())

    def reach_sweep(
        self, position: MswarsPosition, unit: Unit, action_type: str
    ) -> tuple[float, float]:
        return _exit_sweep(position, unit)

    def reach_minimum(self, unit: Unit, action_type: str) -> float | None:
        """A Run or Charge must cost more than Move (MSW-D32)."""
        return unit.move + 0.01 if action_type in RUN_LIKE else None


class _TurnWhereItStands:
    """A unit's directions, and its turns priced at `rate` (the terrain it turns in)."""

    def __init__(self, view: UnitView, rate: float) -> None:
        self.view, self.rate = view, rate

    def direction(self, facing: float, dx: float, dy: float) -> tuple[float, bool, str]:
        return self.view.direction(facing, dx, dy)

    def turn_cost(self, angle: float, rate: float, free: float) -> float:
        return self.view.turn_cost(angle, self.rate, free)


def _core(position: MswarsPosition, unit: Unit) -> tuple[Any, float]:
    body = position.bodies[unit.id]
    return body.core, body.radius


def _rect_keeps_contact(found: Reach, unit: Unit, foes: list[Any]) -> Reach:
    """002 Manoeuvre Action, MSW-D5: a rect base in contact with opposing units slides
    along its axes (within the 1 degree the contract allows) keeping its facing, and must
    end touching every one it touched. With the facing fixed, its gap to a base is its
    centre's distance to that base grown by the rect (a Minkowski sum: the hull of the
    corners' sums, grown by the base's radius): the ends are the bands 0.008" outside to
    0.006" inside those sums, less where the straight line would cut deeper than 0.007"
    into one. Not complete (a slide round a corner takes several legs): said so."""
    rect = rect_corners(
        0.0, 0.0, unit.facing, float(unit.base.width or 0.0), float(unit.base.length or 0.0)
    )

    def grown(body: Any) -> Any:
        pts = shapely.get_coordinates(body.core)
        return shapely.MultiPoint([(x + dx, y + dy) for x, y in pts for dx, dy in rect]).convex_hull

    # The centre's gap to each grown base is the rect's gap to it: the bands of a point
    # (radius 0) about the grown bases, as a round base's about the bases themselves.
    return contact_with_all(
        found,
        unit.position,
        0.0,
        [ContactTarget("", grown(body), body.radius, {}) for body in foes],
    )


def _unloading(pos: MswarsPosition, carrier: Unit, found: Reach) -> Reach:
    """002 Carrier Unloading Action, MSW-D19, MSW-D39: the carrier moves up to half Move,
    then sets one unit down in contact with its rear, on its level. Its ends: the move's,
    less those within the rear offset of where that unit could not be set down (other
    bases, elevated terrain, "Can't" terrain, beyond the table), so that the unit's place
    straight behind the carrier's end is always free; `keys_at` names it. A rect unit is
    set down facing away from the carrier (as a unit exiting is, MSW-D35), its rear edge
    parallel to the carrier's rear 0.004" behind it, centred on the carrier's axis: in
    contact with the rear edge of a rect carrier, or with the rear point of a round one's
    arc (MSW-D27); the room it needs is judged by the circle round it. A carrier on a
    top sets it down on the same top (its centre within the top, 002 Carrier Unloading
    Action: on the carrier's level); where that top is not elevated terrain for the unit
    (the quarter rule, MSW-D16): not shaded."""

    held = aboard(pos, carrier)
    view = pos.view(carrier)
    if not held:
        return unshaded(carrier.id, "carrier_unloading")
    rider = held[0]
    top = view.top_under(carrier.position)
    rider_view = pos.view(rider)
    if top is not None and top not in rider_view.elevated():
        return unshaded(carrier.id, "carrier_unloading")
    r_u = rider.base.radius  # the circle round a rect rider: its room is judged by it
    back = _half_depth(carrier) + _half_depth(rider) + 0.004
    sx, sy = carrier.position[:2]
    far = found.allowance + back + 2 * r_u + 2
    box_ = (sx - far, sy - far, sx + far, sy + far)
    bad = _kept_out(pos, rider_view, rider_view.near(*box_), top, r_u)
    if top is not None:
        # On the carrier's level: the centre within its top (002 Carrier Unloading).
        bad.append(beyond(pos.state.table, top.shape.buffer(-MARGIN)))
    w, h = pos.state.table.width, pos.state.table.height
    edge = r_u + MARGIN
    bad.append(beyond(pos.state.table, box(edge, edge, w - edge, h - edge)))
    for other in pos.on_table:
        if other.id != carrier.id:
            body = pos.bodies[other.id]
            bad.append(grown(body, body.radius + r_u + MARGIN))
    area = found.area.difference(shapely.union_all(bad).buffer(back + 0.01))
    facing0 = carrier.facing

    def keys_at(q: tuple[float, float]) -> dict[str, Any]:
        path = found.path_to(q)
        if path is None:
            return {}
        steps: list[Any] = list(path)
        turn = sum(float(s["turn"]) for s in steps if isinstance(s, dict))
        f = math.radians(facing0 + turn)
        place = [round(q[0] - back * math.cos(f), 4), round(q[1] - back * math.sin(f), 4)]
        return {
            "unload": [
                {"unit": rider.id, "position": place, "facing": (facing0 + turn + 180.0) % 360.0}
            ]
        }

    return narrowed(found, area, 0.002, found.cut_at, keys_at)


def _charge_targets(pos: MswarsPosition, unit: Unit, budget: float) -> list[Unit]:
    """Opposing units on the table within the charge's reach."""
    sx, sy = unit.position
    far = budget + 2 * unit.base.radius + 8
    return [
        o
        for o in pos.on_table
        if o.id != unit.id and opposing(unit, o) and math.dist((sx, sy), o.position[:2]) <= far
    ]


def _dearest_rate(view: Any, at: tuple[float, float], sweep: tuple[float, float]) -> float | None:
    """The rate under the centre where it turns: at `at`, or the dearest along the sweep
    (None: "Can't" somewhere on it)."""
    rates: list[float | None] = [
        view.rate_at(at[0] + f * sweep[0], at[1] + f * sweep[1])[0]
        for f in ((0.0,) if sweep == (0.0, 0.0) else (-1.0, -0.5, 0.0, 0.5, 1.0))
    ]
    found = [float(r) for r in rates if r is not None]
    return None if len(found) < len(rates) else max(found)


def _behind_rear(carrier: Unit, r: float) -> Any:
    """The side of the carrier's rear edge line (moved out by `r`, the depth of the base
    behind its centre, less 0.004") that holds the carrier: a unit placed at the rear may
    not cross it. A round carrier's rear edge is the tangent at its rear point."""
    f = math.radians(carrier.facing)
    fx, fy = math.cos(f), math.sin(f)
    cx, cy = carrier.position[:2]
    back = _half_depth(carrier) + r - 0.004
    ox, oy = cx - back * fx, cy - back * fy
    sx, sy = -fy, fx  # along the line; the corners: 1e3 either way along it, 1e3 ahead
    corners = ((-1e3, 0.0), (1e3, 0.0), (1e3, 1e3), (-1e3, 1e3))
    return shapely.Polygon([(ox + a * sx + b * fx, oy + a * sy + b * fy) for a, b in corners])


def _kept_out(
    pos: MswarsPosition, view: Any, near: Features, top: Any, r: float, grow: float = 0.0
) -> list[Any]:
    """Where the centre of a base of circumradius `r` may not be among the features `near`:
    by elevated terrain other than the `top` it stands on (its base may not touch it),
    in "Can't" terrain (MSW-D22, MSW-D24); each grown by `grow` too."""
    out = []
    for t, _ in near:
        if t is top:
            continue
        if view.row(t) == ELEVATED:
            out.append(pos.grown(t, r + MARGIN + grow))
        elif view.rate(t) is None:
            out.append(pos.grown(t, MARGIN + grow))
    return out


def _half_depth(unit: Unit) -> float:
    """How far a base reaches behind its centre: a circle's radius, half a rect's length."""
    return unit.base.radius if unit.base.is_circle else float(unit.base.length or 0.0) / 2


def climb_reach(pos: MswarsPosition, unit: Unit, action_type: str) -> Reach:
    """002 Climb Action: the engine places the unit on top (the nearest pose inside across
    the contacted edge); a one-point path must match it within 0.01". The area is that
    pose (a disc just short of 0.01"), the path the pose, and `target` the feature."""
    verdict = MswarsMoves().move(pos, unit, Action(unit.id, "climb"), make_dice(unresolved=True))
    moved = next((e for e in verdict.events if e.get("type") == "moved"), None)
    onto = next((e.get("onto") for e in verdict.events if e.get("type") == "climbed"), None)
    if not verdict.legal or moved is None:
        return nowhere(unit.id, "climb", unit.position, 0.0)
    end = (float(moved["to"][0]), float(moved["to"][1]))
    area = Point(end).buffer(0.009, quad_segs=8)
    start = (unit.position[0], unit.position[1])

    def path_to(p: tuple[float, float]) -> list[Any] | None:
        return [start, p] if area.dwithin(Point(p), 0.0005) else None

    return Reach(
        unit.id,
        "climb",
        area,
        math.dist(start, end),
        path_to,
        _keys_at=lambda p: {"target": onto} if onto is not None else {},
    )


#: Unit Exiting: the rear edge of a rect carrier is searched in stretches of at most this
#: length, and at most EXIT_STRETCHES of them (each one reach, swept along it: the terrain
#: and bases grown by half of it, so near them the area is short by up to that); a circle
#: carrier's rear arc at EXIT_POINTS placements, not complete between them.
EXIT_STRETCH = 3.0
EXIT_STRETCHES = 2
EXIT_POINTS = 3


def exiting_reach(play: MswarsReach, state: GameState, unit_id: str) -> Reach:
    """002 Unit Exiting Action, MSW-D35: placed in base contact with the carrier's rear,
    facing away from it, then up to half Move from there (a turn, then straight). The
    area is the union of the reaches from placements along the rear; `path_to` gives
    [placement, turn, end], the placement being the path's first point."""

    unit = state.unit(unit_id)
    carrier = None if unit is None or unit.aboard is None else state.unit(unit.aboard)
    if unit is not None and carrier is not None and has_moved_this_phase(state, carrier.id):
        return nowhere(unit_id, "unit_exiting", unit.position, 0.0)
    if unit is None or carrier is None or carrier.aboard is not None:
        # Not aboard a carrier on the table: not shaded.
        return unshaded(unit_id, "unit_exiting")
    facing = (carrier.facing + 180.0) % 360.0
    pos = MswarsPosition.of(state)
    if not may_act(pos, unit, "unit_exiting"):
        return nowhere(unit_id, "unit_exiting", unit.position, 0.0)
    found: list[Reach] = []
    skipped = False
    rect = not unit.base.is_circle
    for a, b in _rear_stretches(carrier, unit):
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        out = replace(unit, aboard=None).moved(mid, facing)
        if any(placement_at_rear(pos, carrier, replace(out, position=p), []) for p in (a, b)):
            skipped = True
            continue
        r = _exit_from(play, pos, out, carrier)
        if r is None or isinstance(r.area, Point) or r.area is None or r.area.is_empty:
            # Not searched from every start along it (a base or an edge by the middle
            # start): the ends from its other starts are not shaded, so not complete.
            skipped = True
            continue
        found.append(r)
    if not found:
        # Nowhere found: not shaded (the answer says it is exact to no length of path).
        return unshaded(unit_id, "unit_exiting")
    # Whole only for a round unit along a rect carrier's rear edge, every stretch searched:
    # a round carrier's placements are points of its rear arc, not along it, and a rect
    # unit moves without turning first (see `path_reach`).
    complete = not skipped and not carrier.base.is_circle and not rect
    start = unit.position
    area = shapely.union_all([r.area for r in found])

    def path_to(q: tuple[float, float]) -> list[Any] | None:
        for r in found:
            path = r.path_to(q)
            if path is not None:
                return [start, *path]
        return None

    def keys_at(q: tuple[float, float]) -> dict[str, Any]:
        """The placement as its own key too (MSW-D35), so that a proposal keeps it whatever
        placement the refused action named; the path's first point repeats it."""
        path = path_to(q)
        if path is None:
            return {}
        x, y = path[1][:2]
        return {"placement": {"position": [x, y], "facing": facing}}

    return Reach(
        unit_id,
        "unit_exiting",
        area,
        found[0].allowance,
        path_to,
        None if complete else 0.0,
        keys_at,
    )


def _exit_from(play: MswarsReach, pos: MswarsPosition, out: Unit, carrier: Unit) -> Reach | None:
    """The reach of `out`, set down at the middle of a stretch of the carrier's rear, from
    every start along that stretch (`_exit_sweep`), or None where it may not move."""
    budget = allowance_for(out, "unit_exiting").value
    if pos.malformed is not None:
        return None
    behind = _has_rear_line(carrier, out)
    # A round unit at a round carrier's rear: the carrier is a base it touches, as any
    # other, and the placement is judged as a start of its own.
    if pos.view(out).immobile or not (behind or may_act(pos, out, "unit_exiting")):
        return None
    ignore = frozenset({carrier.id}) if behind else frozenset()
    spec = play.straight_ahead(pos, out, "unit_exiting", budget, ignore)
    return None if spec is None else turn_then_straight_reach(out.id, "unit_exiting", spec)


def _exit_carrier(pos: MswarsPosition, unit: Unit) -> Unit | None:
    """The carrier of a unit being set down out of it (`unit` off its carrier, the state
    still holding it aboard), or None."""
    held = pos.state.unit(unit.id)
    if unit.aboard is not None or held is None or held.aboard is None:
        return None
    return pos.state.unit(held.aboard)


def _has_rear_line(carrier: Unit, unit: Unit) -> bool:
    """Whether a unit set down behind the carrier has a rear line it may not cross: a rect
    carrier's rear edge, or a round one's tangent behind a rect unit. A round unit at a
    round carrier is set down at points of its rear arc instead (MSW-D27)."""
    return not (carrier.base.is_circle and unit.base.is_circle)


def _grow(pos: MswarsPosition, unit: Unit) -> float:
    """How far the features and bases are grown for a start anywhere along the sweep."""
    return math.hypot(*_exit_sweep(pos, unit))


def _exit_sweep(pos: MswarsPosition, unit: Unit) -> tuple[float, float]:
    """Half the stretch of the carrier's rear whose middle `unit` is set down at: the
    unit exiting may start anywhere along it (002 Unit Exiting Action); (0, 0) for any
    other unit, or a point of a round carrier's rear arc."""
    carrier = _exit_carrier(pos, unit)
    if carrier is None:
        return (0.0, 0.0)
    for a, b in _rear_stretches(carrier, unit):
        if ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) == tuple(unit.position[:2]):
            return ((b[0] - a[0]) / 2, (b[1] - a[1]) / 2)
    return (0.0, 0.0)


def _rear_stretches(
    carrier: Unit, unit: Unit
) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Where the centre of the unit's base touches the carrier's rear (0.004" off it):
    stretches of the rear edge of a rect base, each at most EXIT_STRETCH long; points
    (stretches of no length) of the rear 90 degrees of a circle's (MSW-D27). A rect unit
    faces away from the carrier (MSW-D35), its rear edge parallel to the carrier's rear:
    behind a rect carrier's edge, or, behind a round one, along its own rear edge, which
    then touches the arc's rear point."""
    cx, cy = carrier.position[:2]
    f = math.radians(carrier.facing)
    fx, fy = math.cos(f), math.sin(f)
    sx, sy = -fy, fx
    gap = _half_depth(unit) + 0.004
    back = _half_depth(carrier) + gap
    if not _has_rear_line(carrier, unit):
        half = math.radians(44.0)
        angles = [f + math.pi - half + 2 * half * i / (EXIT_POINTS - 1) for i in range(EXIT_POINTS)]
        return [((cx + back * math.cos(a), cy + back * math.sin(a)),) * 2 for a in angles]
    # Along the rear edge: a rect carrier's, or a rect unit's own behind a round carrier.
    edge = unit if carrier.base.is_circle else carrier
    span = max(float(edge.base.width or 0.0) - 0.04, 0.0)
    k = max(1, min(EXIT_STRETCHES, math.ceil(span / EXIT_STRETCH)))
    ox, oy = cx - back * fx - span / 2 * sx, cy - back * fy - span / 2 * sy
    cuts = [span * i / k for i in range(k + 1)]
    return [
        ((ox + t0 * sx, oy + t0 * sy), (ox + t1 * sx, oy + t1 * sy))
        for t0, t1 in zip(cuts, cuts[1:], strict=False)
    ]
