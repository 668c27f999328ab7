"""Orders that move one unit along a path: move, run, ram, charge, dfa,
assault_full, assault_half (aod.md section 12), including captors (11.3),
VTOLs (10) and breakaway (9), played by the kernel's `Play.move` through
`AodMoves`'s hooks (boarding and disembarking too, transport.py)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rules.engine.allowance import Allowance
from rules.engine.dice import Dice
from rules.engine.judgement import AFTER, BEFORE, Judgement, PathJudgement, moved_event
from rules.engine.move_in_play import MoveInPlay
from rules.engine.path_checks import track_for
from rules.engine.placement import obstruction
from rules.engine.play import Play
from rules.engine.priced_path import PricedTrack
from rules.engine.verdict import Verdict, Violation
from rules.geometry.arcs import in_base_contact
from rules.geometry.track import Pose, Track
from rules.model.actions import Action, Waypoint
from rules.model.state import GameState, Unit
from rules.systems.aod import vtol
from rules.systems.aod.breakaway import breakaway_needed, push_damage, roll
from rules.systems.aod.contact import AodBases, opposing_contacts
from rules.systems.aod.elevation import across_abrupt_edge
from rules.systems.aod.free_spin import entitled_after_move, target_entitled
from rules.systems.aod.movement import MoveRequest, MoveResult, check_move
from rules.systems.aod.orders import captive_of, check_order, refused
from rules.systems.aod.position import AodPosition
from rules.systems.aod.run import run_allowance
from rules.systems.aod.turn import order_given, turn_of
from rules.systems.aod.units import (
    can_free_spin,
    is_captive,
    is_cruising,
    is_infantry,
    is_mech,
    is_vtol,
    matrix_row,
    opposing,
)
from rules.systems.aod.water import same_water, water_events

TARGETED = frozenset({"ram", "charge", "dfa", "assault_full"})
NO_START_CONTACT = frozenset({"charge", "assault_full"})
CITES = {
    "move": "001 [16]",
    "run": "001 [17]",
    "ram": "001 [27-28]",
    "charge": "001 [27-28]",
    "dfa": "001 [27-28]",
    "assault_full": "001 [27]",
    "assault_half": "001 [27]",
    "board": "000 [18]",
    "disembark": "001 [19]",
}
#: Orders whose move is at half speed (section 12), and why.
HALVED = {
    "assault_half": "half move and ranged attack",
    "board": "boarding",
    "disembark": "disembarking",
}


def base_allowance(position: AodPosition, unit: Unit, action_type: str) -> Allowance:
    """Section 12's allowance column."""
    cite = CITES.get(action_type, "001 [16]")
    if action_type in ("run", "charge"):
        return run_allowance(unit, position.options.run_multiplier)
    if action_type in HALVED:
        return Allowance(unit.move, "move", cite).halve(HALVED[action_type], cite)
    return Allowance(unit.move, "move", cite)


def started_in_contact(position: AodPosition, unit: Unit) -> bool:
    """state.started_in_contact, else the current position (AOD-D36)."""
    listed = turn_of(position.state).started_in_contact
    if listed is not None:
        return unit.id in listed
    return bool(opposing_contacts(position, unit))


def start_contact_problems(position: AodPosition, unit: Unit, action_type: str) -> list[Violation]:
    """Charge and full-speed assault: not by a unit that started the turn in base contact
    with an opposing unit (001 [27], AOD-D36). Path-independent: offers ask it too."""
    if action_type in NO_START_CONTACT and started_in_contact(position, unit):
        return [
            Violation(
                "order_not_allowed",
                f"{unit.id} started the turn in base contact "
                f"with an opposing unit and may not {action_type}",
                unit.position,
                "001 [27]",
            )
        ]
    return []


def target_problems(
    position: AodPosition, unit: Unit, action: Action
) -> tuple[Unit | None, list[Violation]]:
    """Whether `action.target` may be the target of this order (001 [27-28], 000 [18])."""
    tid = action.get("target")

    def no(msg: str, cite: str) -> list[Violation]:
        return [refused(unit, msg, cite)]

    if not isinstance(tid, str):
        return None, no(f"{action.type} needs a target", CITES[action.type])
    target = position.state.unit(tid)
    if target is None or target.aboard is not None:
        return None, [Violation("unknown_unit", f"{tid} is not on the table", unit.position)]
    if is_captive(target):
        return target, no(f"{tid} is a captive and cannot be targeted", "001 [27]")
    if not opposing(unit, target):
        return target, no(f"{tid} is not an opposing unit", CITES[action.type])
    if action.type == "ram":
        if is_infantry(target):
            return target, no("a ram must target a non-infantry unit", "001 [27]")
        if is_cruising(target):
            return target, no("a VTOL at cruising cannot be rammed", "000 [18]")
    if action.type == "dfa":
        attack = unit.get("attack")
        if isinstance(attack, int | float) and attack <= 0:
            return target, no("a DFA needs attack > 0", "001 [27-28]")
    return target, []


def ordered_move(position: AodPosition, unit: Unit, action: Action, dice: Dice) -> Verdict:
    """An order along a path, played by the kernel's move (`AodMoves`)."""
    return AodMoves(position, unit, action).move(position, unit, action, dice)


@dataclass(frozen=True)
class OrderPath(PricedTrack):
    """An order's track and what it costs as aod counts it: its length (cut short where
    terrain stops it) and the VTOL's surcharges (movement.py)."""

    track: Track
    spent: float

    @property
    def cost(self) -> float:
        return self.spent


class AodMoves(Play):
    """move, run, ram, charge, dfa, assault_full and assault_half (a captor's too) as the
    kernel plays a move (rules/engine/play.py): one instance per order, which keeps what
    its path found for the hooks after it. A path with a broken precondition is not
    judged; a failed breakaway is refused and still spends the order (AOD-D23)."""

    def __init__(self, position: AodPosition, unit: Unit, action: Action) -> None:
        self.pre, self.plan = order_preconditions(position, unit, action)
        self.target: Unit | None = None
        if action.type in TARGETED:
            self.target, problems = target_problems(position, unit, action)
            self.pre += problems
        self.pre += start_contact_problems(position, unit, action.type)
        self.captive = captive_of(position.state, unit.id)
        self.track = track_for(unit, action.path, action.facing)
        #: Where the path is judged and the order applied (boarding: with the
        #: passengers aboard).
        self.at = position
        self.judged: PathJudged | None = None
        self.after: GameState | None = None

    def check_may_move(self, move: MoveInPlay) -> None:
        move.judgement.found += [(BEFORE, v) for v in self.pre]

    def allowance(self, move: MoveInPlay) -> Allowance:
        """Section 12's column; a captor's, the slower of it and its captive (001 [27])."""
        allowance = base_allowance(move.position, move.unit, move.action.type)
        if self.captive is None:
            return allowance
        return replace(
            allowance,
            base=min(allowance.base, self.captive.move),
            label=f"the slower of it and its captive {self.captive.id}",
            cite="001 [27]",
        )

    def measure_path(self, move: MoveInPlay) -> PricedTrack:
        judgement = move.judgement
        if judgement.found:
            return OrderPath(self.track, self.track.length + self.plan.surcharge)
        self.judged = judged = self.judge_path(move.unit, move.action, move.allowance)
        judgement.found += [(BEFORE, v) for v in judged.before]
        judgement.found += [(0.0, v) for v in judged.result.violations]  # in path order
        judgement.found += [(AFTER, v) for v in judged.after]
        return OrderPath(self.track, judged.result.cost)

    def check_moved(self, move: MoveInPlay) -> None:
        """The allowance judged is halved where the unit starts in hindering terrain."""
        if self.judged is not None:
            move.judgement.allowance = self.judged.result.allowance.value

    def end_of_move(self, move: MoveInPlay) -> Unit:
        """The breakaway roll (000 [16-17]), then the order applied with its events."""
        judgement, unit, action, dice = move.judgement, move.unit, move.action, move.dice
        judged = self.judged
        assert judged is not None  # a legal path was judged
        pushed = self.broke_away(judgement, unit, judged, dice)
        if pushed is None:
            judgement.found.append((AFTER, self.spent(judgement, unit, action, judged)))
            return unit
        self.after = self.completed(judgement, unit, action, dice, judged, pushed)
        return judged.moved

    def move_events(self, move: MoveInPlay) -> list[dict[str, Any]]:
        return []  # `completed` gave them, in order

    def after_move(self, move: MoveInPlay) -> GameState:
        assert self.after is not None  # end_of_move completed the order
        return self.after

    def judge_path(self, unit: Unit, action: Action, allowance: Allowance) -> PathJudged:
        """The path judged under every rule of movement (movement.py), with where it
        leaves the unit and its captive."""
        cruising = self.plan.cruising_during_path and is_vtol(unit)
        # The path is flown at the level the plan gives it; where the order begins, the
        # unit is at the level it has (a climb happens at the start of the path, AOD-D26).
        rows: tuple[str, ...] = (matrix_row(unit, cruising=cruising),)
        start_rows: tuple[str, ...] = (matrix_row(unit),)
        companion: Track | None = None
        captive, captive_end = self.captive, None
        ignore: set[str] = set()
        before: list[Violation] = []
        if captive is not None:
            rows = rows + (matrix_row(captive),)  # neither may enter what the other may not
            start_rows = start_rows + (matrix_row(captive),)
            ignore.add(captive.id)
            captive_end, companion = _carried(before, unit, action, self.track, captive)
        start_contacts = frozenset(u.id for u in opposing_contacts(self.at, unit, ignore=ignore))
        flies_past_contact = is_vtol(unit) and self.plan.ranged_attack and not start_contacts
        req = MoveRequest(
            unit=unit,
            track=self.track,
            allowance=allowance,
            rows=rows,
            bases=AodBases(
                cruising=cruising,
                target=None if self.target is None else self.target.id,
                ignore=frozenset(ignore),
                flies_past_contact=flies_past_contact,
            ),
            surcharge=self.plan.surcharge,
            start_contacts=start_contacts,
            companion=companion,
            start_rows=start_rows,
        )
        res = check_move(self.at, req)
        moved = vtol.with_level(unit.moved(res.end.xy, res.end.facing), self.plan)
        after: list[Violation] = []
        if self.target is not None:
            _check_target_end(self.at, after, moved, self.target)
        if captive is not None and captive_end is not None:
            _check_captive_end(self.at, after, moved, captive, captive_end, action)
        return PathJudged(
            tuple(before),
            res,
            tuple(after),
            moved,
            captive_end,
            frozenset(ignore),
            flies_past_contact,
        )

    def broke_away(
        self, judgement: PathJudgement, unit: Unit, judged: PathJudged, dice: Dice
    ) -> list[dict[str, Any]] | None:
        """The breakaway roll of a legal path (000 [16-17]): the push damage of a unit
        that breaks away or needs not, None when it fails (a pending roll, in a preview,
        is judged a success)."""
        if not self.track.translates or judged.flies_past_contact:
            return []
        b = breakaway_needed(self.at, unit, judged.ignore)
        if b is None:
            return []
        r = roll(b, dice)
        if r is not None:
            judgement.rolls.append(r)
            if r.success is False:
                return None
        return push_damage(unit, b)

    def completed(
        self,
        judgement: PathJudgement,
        unit: Unit,
        action: Action,
        dice: Dice,
        judged: PathJudged,
        pushed: list[dict[str, Any]],
    ) -> GameState:
        """The state a legal order leaves, its events in `judgement`."""
        moved, captive_end = judged.moved, judged.captive_end
        changed = [moved] + ([captive_end] if captive_end is not None else [])
        ends = judged.result.end_contacts
        pending = entitled_after_move(moved, ends) if self.track.translates else []
        if self.target is not None:
            pending = _target_spin(judgement, dice, action, moved, self.target, pending)
        after = order_given(self.at.state, (unit.id,), action.type, changed, pending)
        judgement.events.append(moved_event(moved))
        if captive_end is not None:
            judgement.events.append(moved_event(captive_end))
        judgement.events.extend(self.plan.events(unit.id))
        judgement.events.extend(pushed)
        judgement.events.extend(water_events(self.at, unit, moved))
        return after

    def spent(
        self, judgement: PathJudgement, unit: Unit, action: Action, judged: PathJudged
    ) -> Violation:
        """A failed breakaway: the one refusal that changes the state (AOD-D23): the
        order is spent, the unit may free spin (infantry, non-Quad 'Mechs), a VTOL still
        changes level and shoots."""
        last = judgement.rolls[-1]
        stays = unit
        judgement.cost = 0.0
        if is_vtol(unit) and self.plan.surcharge <= judged.result.allowance.value + 1e-9:
            stays = vtol.with_level(unit, self.plan)
            judgement.cost = self.plan.surcharge
            judgement.events.extend(self.plan.events(unit.id))
        pending = [unit.id] if can_free_spin(unit) else []
        judgement.refused_after = order_given(
            self.at.state, (unit.id,), action.type, [stays], pending
        )
        return Violation(
            "breakaway_failed",
            f"{unit.id} rolled {last.result} and needed "
            f"{last.needed} to break away; it does not move",
            unit.position,
            "000 [16]",
        )


def order_preconditions(
    position: AodPosition, unit: Unit, action: Action
) -> tuple[list[Violation], vtol.VtolPlan]:
    """Whether the unit may be given this order (sections 3, 12) and its VTOL plan (10)."""
    pre = check_order(position.state, unit, action.type)
    plan, problems = vtol.plan(unit, action)
    return pre + problems, plan


def _captive_track(captor: Unit, captive: Unit, track: Track) -> Track:
    """The captive is carried rigidly: translated with the captor, keeping its facing
    (AOD-D33)."""
    dx, dy = captive.position[0] - captor.position[0], captive.position[1] - captor.position[1]
    steps = [Waypoint(p[0] + dx, p[1] + dy) for p in track.points()[1:]]
    return Track.from_steps(captive.base, Pose(*captive.position, captive.facing), steps)


def _carried(
    reasons: list[Violation], unit: Unit, action: Action, track: Track, captive: Unit
) -> tuple[Unit, Track | None]:
    """Where the captive ends, and its track when it is carried rigidly (001 [27],
    AOD-D33)."""
    if not in_base_contact(unit, captive):
        reasons.append(
            Violation(
                "must_end_in_contact",
                f"{unit.id} is not in base contact with its captive {captive.id}",
                unit.position,
                "001 [27]",
            )
        )
    placed = action.get("captive")
    if is_mech(captive):
        return captive, None  # a captive 'Mech may not move (001 [27])
    if isinstance(placed, dict):
        pos = placed["position"]
        return captive.moved(
            (float(pos[0]), float(pos[1])), float(placed.get("facing", captive.facing))
        ), None
    companion = _captive_track(unit, captive, track)
    return captive.moved(companion.end.xy, captive.facing), companion


@dataclass(frozen=True)
class PathJudged:
    """What an order's path finds: before the path (the captor's contact with its
    captive), along it (check_move) and where it ends (the target, the captive)."""

    before: tuple[Violation, ...]
    result: MoveResult
    after: tuple[Violation, ...]
    moved: Unit
    captive_end: Unit | None
    #: The units the mover's bases may touch (its captive).
    ignore: frozenset[str]
    #: A VTOL shooting with no opposing contact neither stops nor breaks away (000 [FAQ22]).
    flies_past_contact: bool


def _check_target_end(
    position: AodPosition, reasons: list[Violation], moved: Unit, target: Unit
) -> None:
    if not in_base_contact(moved, target):
        reasons.append(
            Violation(
                "must_end_in_contact",
                f"{moved.id} must end in base contact with its target {target.id}",
                moved.position,
                "AOD-D31",
            )
        )
        return
    if across_abrupt_edge(position, moved, target):
        reasons.append(
            Violation(
                "order_not_allowed",
                f"{moved.id} and {target.id} are on and "
                "off abrupt elevated terrain: no close combat or special "
                "attack",
                moved.position,
                "000 [34]",
            )
        )
    if not same_water(position, moved, target):
        reasons.append(
            Violation(
                "order_not_allowed",
                f"{target.id} is in water: the attacker must be in the same water",
                moved.position,
                "000 [33]",
            )
        )


def _check_captive_end(
    position: AodPosition,
    reasons: list[Violation],
    moved: Unit,
    captive: Unit,
    end: Unit,
    action: Action,
) -> None:
    if isinstance(action.get("captive"), dict) and not is_mech(captive):
        # Neither may stand where the other may not (001 [27]).
        rows = (matrix_row(captive), matrix_row(moved))
        bad = obstruction(
            position,
            end.base,
            Pose(*end.position, end.facing),
            ignore=(captive.id, moved.id),
            forbidden=position.forbidden_to(rows),
        )
        if bad is not None or not in_base_contact(moved, end):
            reasons.append(
                Violation(
                    "placement_invalid",
                    f"{captive.id} must be placed free and touching its captor {moved.id}",
                    end.position,
                    "AOD-D33",
                )
            )
            return
    if not in_base_contact(moved, end):
        reasons.append(
            Violation(
                "must_end_in_contact",
                f"{moved.id} must keep its captive {captive.id} in base contact",
                moved.position,
                "001 [27]",
            )
        )


def _target_spin(
    judgement: Judgement, dice: Dice, action: Action, moved: Unit, target: Unit, pending: list[str]
) -> list[str]:
    """Free spins of the target (000 [28]) and the DFA result (AOD-D31)."""
    rest = [u for u in pending if u != target.id]
    if action.type in ("ram", "charge"):
        return rest + ([target.id] if target_entitled(moved, target) else [])
    if action.type == "dfa":
        result = dice.outcome("dfa")
        judgement.events.append(
            {
                "type": "dfa",
                "unit": moved.id,
                "target": target.id,
                "result": "unresolved" if result is None else ("success" if result else "fail"),
            }
        )
        return rest + ([target.id] if result is False and can_free_spin(target) else [])
    return pending
