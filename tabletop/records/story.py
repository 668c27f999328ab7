"""A battle's story, read from its event log: where each unit went turn by turn, where
units fell, the refusals and rolls that mattered, and the result. The battle report
draws it (tabletop/records/report_svg.py); it holds nothing beyond the reader's horizon.

Undone changes are not part of the story: an act taken back by the GM (and the undo
itself) draws no path, so that a path is what the units really did.
"""

import itertools
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tabletop.models import Battle, CommandReply, Event, EventRow
from tabletop.models.roster import UnitStatus
from tabletop.records.horizon import Horizon
from tabletop.selectors import battle_backdrop
from tabletop.services import game_systems
from tabletop.services.table import annotations, changes, log, piece_markers
from tabletop.services.table.command import TABLE_KINDS

Point = tuple[float, float]


@dataclass(frozen=True)
class Leg:
    """One unit's movement in one event: through the points its action gave."""

    unit: str
    side: str
    turn: int
    seq: int
    points: tuple[Point, ...]
    #: "act" (judged by the rules), "fiat" (the GM's), or "moved" (another unit's act moved it).
    how: str


@dataclass(frozen=True)
class Loss:
    unit: str
    side: str
    at: Point
    #: "destroyed", "off_board" (the result's fates) or "removed" (the table took it away).
    fate: str
    turn: int | None = None


@dataclass
class SideTally:
    side: str
    moves: int = 0
    #: Orders the rules refused (the server's answers; those with a consequence included).
    refused: int = 0
    #: Refusals that still changed the table (in the log: a failed roll spends the order).
    refused_with_consequence: int = 0
    reasons: Counter = field(default_factory=Counter)
    #: Rolls made, each counted once however many dice it threw.
    rolls: int = 0
    tests_passed: int = 0
    tests_failed: int = 0


@dataclass(frozen=True)
class RollLine:
    seq: int
    turn: int
    side: str
    actor: str
    what: str
    die: str
    result: int | None
    needed: str
    success: bool | None
    #: Rolled by the engine while judging an act (it decided the ruling), or asked for.
    by_engine: bool


@dataclass(frozen=True)
class Refusal:
    seq: int
    turn: int
    side: str
    unit: str
    code: str
    message: str
    at: Point | None


@dataclass(frozen=True)
class TakeBack:
    """One step of a take-back: asked, accepted, declined, withdrawn or lapsed."""

    seq: int
    turn: int
    #: The request's seq (the request's own for "asked") and the order it is about.
    request: int
    order: int
    step: str
    asked_by: str
    #: Who took the step (the asker, the opponent or the GM; "" for a lapse).
    by: str


@dataclass
class Story:
    battle: Battle
    seq: int
    width: float
    height: float
    terrain: list[dict[str, Any]]
    sides: list[str]
    names: dict[str, str]
    start: dict[str, dict[str, Any]]
    end: dict[str, dict[str, Any]]
    legs: list[Leg] = field(default_factory=list)
    losses: list[Loss] = field(default_factory=list)
    tallies: dict[str, SideTally] = field(default_factory=dict)
    rolls: list[RollLine] = field(default_factory=list)
    #: The map's picture under the terrain (selectors.backdrop: {"url", "x", "y", "width",
    #: "height"}), or None.
    backdrop: dict[str, Any] | None = None
    refusals: list[Refusal] = field(default_factory=list)
    takebacks: list[TakeBack] = field(default_factory=list)
    turns: int = 0
    winner_side: str | None = None
    outcome: str = ""
    #: What players drew on the table, as it stood at the horizon (annotations.as_json).
    annotations: list[dict[str, Any]] = field(default_factory=list)
    #: Free markers on pieces at the horizon (piece_markers.as_json), oldest first.
    markers: list[dict[str, Any]] = field(default_factory=list)
    #: The system's states each piece shows at the horizon (game_systems.state_markers).
    states: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    #: How each terrain type on the map is drawn, as the board draws it
    #: (game_systems.terrain_style: {type: {"fill", "pattern", "stroke"}}).
    terrain_styles: dict[str, dict[str, str]] = field(default_factory=dict)

    def terrain_style(self, terrain_type: str) -> dict[str, str]:
        return self.terrain_styles.get(terrain_type) or game_systems.unstyled_terrain()

    def marks_of(self, unit_id: str) -> list[tuple[str, str | None]]:
        """What a piece shows at the horizon, as (text, palette colour name or None): its
        system states first, then its free markers."""
        states = [(m["label"], None) for m in self.states.get(unit_id, [])]
        free = [(m["text"], m["colour"]) for m in self.markers if m["unit"] == unit_id]
        return states + free

    def side_of(self, unit_id: str) -> str:
        unit = self.end.get(unit_id) or self.start.get(unit_id) or {}
        return str(unit.get("side", ""))

    def tally(self, side: str) -> SideTally:
        if side not in self.tallies:
            self.tallies[side] = SideTally(side)
        return self.tallies[side]

    def turn_ends(self) -> list[tuple[str, str, int, Point]]:
        """(unit, side, turn, where it stood when its last move of that turn ended)."""
        last: dict[tuple[str, int], Leg] = {}
        for leg in self.legs:
            last[(leg.unit, leg.turn)] = leg
        return [(unit, leg.side, turn, leg.points[-1]) for (unit, turn), leg in last.items()]

    def takeback_lines(self) -> list[str]:
        """One line per take-back request: who asked for which order, and how it ended."""
        ends = {
            "accepted": "{by} accepted (event {seq})",
            "declined": "{by} declined (event {seq})",
            "withdrawn": "withdrawn (event {seq})",
            "lapsed": "it lapsed when the table changed (event {seq})",
        }
        lines = []
        for asked in (t for t in self.takebacks if t.step == "asked"):
            answer = next(
                (t for t in self.takebacks if t.request == asked.seq and t.step != "asked"), None
            )
            told = "no answer yet" if answer is None else ends[answer.step].format(**vars(answer))
            lines.append(
                f"Turn {asked.turn}, event {asked.seq}: {asked.asked_by} asked to take back "
                f"event {asked.order}; {told}."
            )
        return lines

    def dice_summary(self) -> list[tuple[str, int, float]]:
        """(die, how many rolled, average result) for every kind of die, most rolled first."""
        results: dict[str, list[int]] = {}
        for roll in self.rolls:
            if roll.result is not None:
                results.setdefault(roll.die, []).append(roll.result)
        return sorted(
            ((die, len(r), sum(r) / len(r)) for die, r in results.items()), key=lambda x: -x[1]
        )


def _xy(position: Any) -> Point | None:
    if isinstance(position, list | tuple) and len(position) >= 2:
        return float(position[0]), float(position[1])
    return None


def _on_table(unit: dict[str, Any] | None) -> Point | None:
    """Where a unit stands; None while it is aboard a transport (off the table)."""
    if not unit or unit.get("aboard"):
        return None
    return _xy(unit.get("position"))


def _turn(turn: dict[str, Any] | None) -> int:
    number = (turn or {}).get("turn", 0)
    return number if isinstance(number, int) else 0


def _paths(action: dict[str, Any]) -> dict[str, list[Any]]:
    """The path each unit of an action was given: its own, and any it orders along (a
    formation's `moves`)."""
    paths: dict[str, list[Any]] = {}
    if isinstance(action.get("path"), list):
        paths[str(action.get("unit"))] = action["path"]
    for move in action.get("moves") or []:
        if isinstance(move, dict) and isinstance(move.get("path"), list):
            paths[str(move.get("unit"))] = move["path"]
    return paths


def path_points(start: Point, path: list[Any], end: Point) -> tuple[Point, ...]:
    """The start, each point of the path (turns in place are not points), and where the
    unit ended when that is not the path's last point."""
    points = [start]
    for step in path:
        point = _xy(step)
        if point is not None and point != points[-1]:
            points.append(point)
    if abs(points[-1][0] - end[0]) > 0.01 or abs(points[-1][1] - end[1]) > 0.01:
        points.append(end)
    return tuple(points)


def _units(position: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {u["id"]: u for u in position.get("state", {}).get("units", []) if "id" in u}


@dataclass
class Table:
    """The position as the log's events leave it, followed through their changes (as the
    log's readers do, log.Follower) from the one position read: the first. Its units are
    kept by id too, and an event that changes only the units its payload names (nearly
    every one) is looked at only in them, not in every unit on the table."""

    follower: log.Follower
    #: The units at the follower's position by id, and each one's place in the table's
    #: order (a unit new to the table goes last, as position.apply_patch puts it).
    placed: dict[str, dict[str, Any]] = field(init=False)
    order: dict[str, int] = field(init=False)
    places: Iterator[int] = field(init=False)

    def __post_init__(self) -> None:
        self._read_units()

    @property
    def state(self) -> dict[str, Any]:
        return self.follower.at["state"]

    def units(self) -> dict[str, dict[str, Any]]:
        return _units({"state": self.state})

    def _read_units(self) -> None:
        self.placed = self.units()
        self.order = {unit_id: n for n, unit_id in enumerate(self.placed)}
        self.places = itertools.count(len(self.order))

    def follow(self, event: EventRow) -> "Change":
        """Applies a table event: what it changed, and the turns it was made in and left;
        its units before and after: those it names (changed, removed, or given a path),
        or every unit where it may have changed more."""
        turn = _turn(self.follower.at["turn"])
        after = self.follower.follow(event)
        payload, before = event.payload, self.placed
        if not _changes_only_its_units(event):
            self._read_units()  # a new dict: `before` is changed no more
            return Change(before, dict(self.placed), turn, _turn(after["turn"]))
        changed = {unit["id"]: unit for unit in payload.get("units", [])}
        removed = payload.get("removed", [])
        moved = _paths(payload.get("action") or {}) if event.kind == "act" else {}
        named = [*changed, *removed, *moved]
        was = {unit_id: before[unit_id] for unit_id in named if unit_id in before}
        for unit_id in removed:
            self.placed.pop(unit_id, None)
            self.order.pop(unit_id, None)
        for unit_id, unit in changed.items():
            if unit_id not in self.placed:
                self.order[unit_id] = next(self.places)
            self.placed[unit_id] = unit
        now = sorted((u for u in set(named) if u in self.placed), key=self.order.__getitem__)
        return Change(was, {u: self.placed[u] for u in now}, turn, _turn(after["turn"]))


def _changes_only_its_units(event: EventRow) -> bool:
    """Whether table event `event` leaves every unit its payload does not name as it was:
    its change reads no base and touches no unit (changes.delta), and it does not remove
    and bring back the same unit at once."""
    # Plain loops, not any(...): this runs once per event of the log.
    change = event.change or {}
    if change.get(changes.REBASE):
        return False
    for how in ("set", "drop", "add"):
        if "state" in change.get(how, ()):
            return False
    inner = change.get("in", {}).get("state", {})
    for how in ("set", "drop", "add", "in"):
        if "units" in inner.get(how, ()):
            return False
    removed = event.payload.get("removed", [])
    for unit in event.payload.get("units", []):
        if unit["id"] in removed:
            return False
    return True


@dataclass(frozen=True)
class Change:
    before: dict[str, dict[str, Any]]
    after: dict[str, dict[str, Any]]
    turn: int
    turn_after: int


def _legs(story: Story, event: EventRow, change: Change) -> None:
    payload = event.payload
    before, after, turn = change.before, change.after, change.turn
    paths = _paths(payload.get("action") or {}) if event.kind == "act" else {}
    for unit_id, unit in after.items():
        start, end = _on_table(before.get(unit_id)), _on_table(unit)
        if start is None or end is None:
            continue
        path = paths.get(unit_id)
        if path is None and start == end:
            continue
        how = "fiat" if event.kind == "fiat" else "act" if path is not None else "moved"
        points = path_points(start, path or [], end)
        if len(points) > 1:
            story.legs.append(Leg(unit_id, str(unit.get("side", "")), turn, event.seq, points, how))
    for unit_id in payload.get("removed", []):
        where = _on_table(before.get(unit_id))
        if where is not None:
            side = str(before[unit_id].get("side", ""))
            story.losses.append(Loss(unit_id, side, where, "removed", turn))


def _act(story: Story, event: EventRow, turn: int) -> None:
    payload = event.payload
    verdict = payload.get("verdict") or {}
    unit_id = str((payload.get("action") or {}).get("unit", ""))
    side = story.side_of(unit_id)
    if verdict.get("legal"):
        story.tally(side).moves += 1
    else:
        # Refused, yet in the log: the refusal changed the table (a failed roll spent the order).
        story.tally(side).refused_with_consequence += 1
        for reason in verdict.get("reasons", [])[:1]:
            story.refusals.append(
                Refusal(
                    event.seq,
                    turn,
                    side,
                    unit_id,
                    str(reason.get("code", "")),
                    str(reason.get("message", "")),
                    _xy(reason.get("at")),
                )
            )
    for roll in payload.get("rolls") or verdict.get("rolls") or []:
        _roll(story, event, roll, side, turn, by_engine=True)


def _takeback(story: Story, event: EventRow) -> None:
    """A step of a take-back, as its event tells it: a request and its refusal or
    withdrawal (`takeback` events), its acceptance (the `undo` that names it), or its lapse
    (a change to the table while it waited)."""
    payload, by = event.payload, str(event.payload.get("actor", ""))
    turn = story.turns or 1
    if event.kind == "takeback":
        step = str(payload.get("step", ""))
        request = event.seq if step == "asked" else int(payload.get("request", 0))
        asked_by = by if step == "asked" else str(payload.get("asked_by", ""))
        order = int(payload.get("order", 0))
        story.takebacks.append(TakeBack(event.seq, turn, request, order, step, asked_by, by))
    elif isinstance(payload.get("takeback"), dict):
        told = payload["takeback"]
        story.takebacks.append(
            TakeBack(
                event.seq,
                turn,
                int(told.get("request", 0)),
                int(told.get("order", 0)),
                "accepted",
                str(told.get("asked_by", "")),
                by,
            )
        )
    elif payload.get("takeback_lapsed"):
        request = int(payload["takeback_lapsed"])
        asked = next((t for t in story.takebacks if t.seq == request), None)
        order, asked_by = (asked.order, asked.asked_by) if asked else (0, "")
        story.takebacks.append(TakeBack(event.seq, turn, request, order, "lapsed", asked_by, ""))


def _roll(
    story: Story, event: EventRow, roll: dict, side: str, turn: int, *, by_engine: bool
) -> None:
    result = roll.get("result")
    line = RollLine(
        event.seq,
        turn,
        side,
        str(event.payload.get("actor", "")),
        str(roll.get("what", "")),
        str(roll.get("die", "")),
        result if isinstance(result, int) else None,
        str(roll.get("needed", "") or ""),
        roll.get("success"),
        by_engine,
    )
    # One roll may throw several dice (a free roll of 3d6, an engine's 2d6 test), each its
    # own entry under the same `what`: the tally counts the roll once, the dice line each die.
    last = story.rolls[-1] if story.rolls else None
    same_roll = last is not None and (last.seq, last.what, last.side) == (line.seq, line.what, side)
    story.rolls.append(line)
    tally = story.tally(side)
    if not same_roll:
        tally.rolls += 1
    if line.success is True:
        tally.tests_passed += 1
    elif line.success is False:
        tally.tests_failed += 1


def _refused_orders(story: Story, horizon: Horizon, sides_of: dict[int, list[str]]) -> None:
    """The orders the rules refused, from the server's answers (a refusal that changed
    nothing is in no event): counted for the side of the player who gave the order."""
    replies = CommandReply.objects.filter(battle=story.battle, reply__type="reject")
    replies = replies.order_by("created_at")
    for actor_id, reply, moment in replies.values_list("actor_id", "reply", "created_at"):
        if reply.get("type") != "reject" or not reply.get("verdict"):
            continue
        if reply.get("seq", 0) > horizon.seq or not horizon.shows(moment):
            continue
        sides = sides_of.get(actor_id) or ["GM"]
        tally = story.tally(sides[0])
        tally.refused += 1
        for reason in reply["verdict"].get("reasons", [])[:1]:
            tally.reasons[str(reason.get("code", ""))] += 1


def _result(story: Story, horizon: Horizon) -> None:
    result = getattr(story.battle, "result", None)
    if result is None or not horizon.shows(result.recorded_at):
        return
    story.winner_side = result.winner_side
    story.outcome = result.outcome
    unit_of_profile = {
        str(label.get("profile")): unit_id for unit_id, label in story.battle.unit_labels.items()
    }
    fallen = {loss.unit for loss in story.losses}
    for profile_id, fate in sorted(result.unit_fates.items()):
        unit_id = unit_of_profile.get(str(profile_id))
        if unit_id is None or unit_id in fallen or fate == UnitStatus.READY:
            continue
        unit = story.end.get(unit_id) or story.start.get(unit_id)
        where = _on_table(unit)
        if unit is not None and where is not None:
            last_turn = max((leg.turn for leg in story.legs if leg.unit == unit_id), default=None)
            story.losses.append(
                Loss(unit_id, str(unit.get("side", "")), where, str(fate), last_turn)
            )


def battle_story(battle: Battle, horizon: Horizon) -> Story:
    """The battle as far as the reader may see it (`horizon`). One position is read, the
    first; the log's events are read without theirs, and the table followed through them."""
    query = Event.objects.filter(battle=battle, seq__lte=horizon.seq).order_by("seq")
    logged = list(EventRow.read(query))
    table = [e for e in logged if e.kind in TABLE_KINDS]
    undone = {e.payload.get("undoes") for e in table if e.kind == "undo"}
    followed = Table(log.Follower.from_start(battle))
    first = followed.follower.at
    changed = {event.seq: followed.follow(event) for event in table}
    state = first["state"]
    labels = battle.unit_labels
    story = Story(
        battle=battle,
        seq=horizon.seq,
        width=float(state.get("table", {}).get("width", battle.map.width)),
        height=float(state.get("table", {}).get("height", battle.map.height)),
        terrain=list(state.get("terrain", [])),
        sides=[s.side for s in battle.sides.order_by("side")],
        names={uid: str(label.get("name", uid)) for uid, label in labels.items()},
        start=_units(first),
        end=followed.units(),
        annotations=annotations.live_at(battle.id, horizon.seq),
        markers=piece_markers.live_at(battle.id, horizon.seq),
        states=game_systems.state_markers(followed.state),
        terrain_styles=game_systems.terrain_styles(state),
        backdrop=battle_backdrop(battle),
    )
    for side in story.sides:
        story.tally(side)
    players = {
        side.roster.owner.get_username(): side.side
        for side in battle.sides.select_related("roster__owner")
    }
    for event in logged:
        change = changed.get(event.seq)
        if change is not None:
            story.turns = max(story.turns, change.turn, change.turn_after)
        _takeback(story, event)
        if change is not None and event.kind != "undo" and event.seq not in undone:
            _legs(story, event, change)
            if event.kind == "act":
                _act(story, event, change.turn)
        elif event.kind == "roll":
            actor = str(event.payload.get("actor", ""))
            for roll in event.payload.get("rolls", []):
                side = players.get(actor, "GM")
                _roll(story, event, roll, side, story.turns, by_engine=False)
    sides_of: dict[int, list[str]] = {}
    for battle_side in battle.sides.select_related("roster"):
        sides_of.setdefault(battle_side.roster.owner_id, []).append(battle_side.side)
    _refused_orders(story, horizon, sides_of)
    _result(story, horizon)
    return story
