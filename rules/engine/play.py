"""How the engine plays one action of a system: the template every `System` inherits.

The kernel dispatches each action type to the system's handler, reads the position
once per state, shades the reach, and moves a unit along a priced path. A system gives
tables and overrides a hook only where its rules differ (the way python-chess's
variants override a few predicates of one board):

- `handlers`: the action types with rules of their own; every other type of the
  catalogue is a move along a path, played by `move`;
- `position_type`: what the system reads of a position (a `Position` subclass);
- `shaded_types`: the action types whose reach the kernel's template shades
  (rules/engine/reach_template.py, driven by hooks of its own); `reach_builders`: a
  system's own builder for a type; other types are unshaded;
- the move's hooks, each given one argument, the move in play (`MoveInPlay`,
  rules/engine/move_in_play.py: the judgement, position, unit, action and dice, and the
  allowance, the priced path and the moved unit as the move finds them):
  `check_may_move` (turn structure, preconditions), `allowance`, `measure_path` (what
  the path costs and breaks; by default priced by `terrain_rates`, from the
  `terrain_costs` table, `direction` and `turn_cost`, with `free_rotation`,
  `base_policy` and `path_cites`), `check_moved` (where it ends), `end_of_move` (the
  rolls a legal path makes, which may move its end), `move_events` (what the board
  animates, after the events its end gave) and `after_move` (the state a legal move
  leaves).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from rules.engine.allowance import Allowance
from rules.engine.bases_policy import BasePolicy
from rules.engine.dice import Dice
from rules.engine.judgement import PathJudgement, moved_event, who
from rules.engine.move_in_play import MoveInPlay
from rules.engine.position import Position
from rules.engine.priced_path import PricedTrack, check_priced_path, steps_with_final_facing
from rules.engine.pricing import Pricing, TerrainAlong
from rules.engine.reach import Reach, memoised_reach, unshaded
from rules.engine.reach_template import ReachTemplate
from rules.engine.verdict import Verdict
from rules.geometry.track import Pose
from rules.model.actions import Action
from rules.model.state import GameState, Terrain, Unit

#: A system's rules for one action type: (its position, the unit, the action, dice).
Handler = Callable[..., Verdict]
#: How a shaded reach is built: (the system's position, the unit, the action type).
ReachBuilder = Callable[..., Reach]


class Play(ReachTemplate):
    """The template methods of `System` (rules/engine/system.py) and their hooks."""

    key: ClassVar[str] = ""
    #: The action types with rules of their own, by type; the catalogue's other types
    #: are moves along a path (`move`).
    handlers: ClassVar[Mapping[str, Handler]] = {}
    #: What the system reads of a position, made once per state (`Position.of`).
    position_type: ClassVar[type[Position]] = Position
    #: How each shaded action type's reach is built; a type not here is unshaded.
    reach_builders: ClassVar[Mapping[str, ReachBuilder]] = {}
    #: The action types whose unit ends aboard, off the table: their reach has no area.
    off_table_ends: ClassVar[frozenset[str]] = frozenset()
    #: What a refusal of reach calls a piece ("no soldier 'X' on the table").
    piece_word: ClassVar[str] = "unit"
    #: Cost per inch of each terrain type (None: a unit may not be there); open ground
    #: costs 1. Systems whose costs depend on more override `terrain_rates`.
    terrain_costs: ClassVar[Mapping[str, float | None]] = {}
    #: The rules behind a path's refusals: "prohibited_terrain", "off_table", "move"
    #: (the allowance) and each refused direction ("diagonal", "sideways").
    path_cites: ClassVar[Mapping[str, str]] = {"prohibited_terrain": "", "off_table": ""}
    #: Which bases a mover may cross (the default: none).
    base_policy: ClassVar[BasePolicy] = BasePolicy()

    # -- playing an action --------------------------------------------------------
    def position_of(self, state: GameState) -> Position:
        return self.position_type.of(state)

    def judge(self, state: GameState, unit: Unit, action: Action, dice: Dice) -> Verdict:
        """The system's rules for one action by a unit of the state: `refusal`, then the
        type's handler, or the kernel's `move`."""
        position = self.position_of(state)
        refused = self.refusal(position, unit, action)
        if refused is not None:
            return refused
        handler = self.handlers.get(action.type)
        if handler is None:
            return self.move(position, unit, action, dice)
        return handler(position, unit, action, dice)

    def refusal(self, position: Any, unit: Unit, action: Action) -> Verdict | None:
        """Hook: a verdict given before any handler (a unit off the table), or None."""
        return None

    def reach(self, state: GameState, unit_id: str, action_type: str = "move") -> Reach:
        """Where `unit_id` may end an action of `action_type` (`shaded_reach`, or the
        type's `reach_builders`), built once per state and type."""
        if action_type in self.off_table_ends:
            return Reach(unit_id, action_type, None, 0.0, lambda p: None)
        build = (
            self.shaded_reach
            if action_type in self.shaded_types
            else self.reach_builders.get(action_type)
        )
        if build is None:
            return unshaded(unit_id, action_type)
        position = self.position_of(state)
        return memoised_reach(
            state,
            self.key,
            unit_id,
            action_type,
            lambda unit: build(position, unit, action_type),
            what=self.piece_word,
        )

    # -- the kernel's movement handler and its hooks ------------------------------
    def move(self, position: Any, unit: Unit, action: Action, dice: Dice) -> Verdict:
        """A move along the action's path: every finding in path order, the state after
        a legal one. Each hook is given the move in play (`MoveInPlay`), filled in as it
        goes."""
        move = MoveInPlay(PathJudgement(position.state), position, unit, action, dice)
        judgement = move.judgement
        self.check_may_move(move)
        move = move.with_allowance(self.allowance(move))
        move = move.with_priced(self.measure_path(move))
        judgement.cost, judgement.allowance = move.priced.cost, move.allowance.value
        self.check_moved(move)
        if not judgement.legal:
            return judgement.verdict()
        move = move.with_moved(self.end_of_move(move))
        if not judgement.legal:
            return judgement.verdict()
        judgement.events += self.move_events(move)
        return judgement.verdict(self.after_move(move))

    def check_may_move(self, move: MoveInPlay) -> None:
        """Hook: what the turn structure and the action's preconditions refuse."""

    def allowance(self, move: MoveInPlay) -> Allowance:
        """Hook: how far the unit may go (default: its `move`)."""
        return Allowance(move.unit.move, cite=self.path_cites.get("move", ""))

    def measure_path(self, move: MoveInPlay) -> PricedTrack:
        """Hook: what the action's path costs and where it ends, with every finding on
        it added to the judgement at its place along the path (default: the path priced
        step by step by `pricing`, checked for the terrain and directions it refuses,
        the table edge, other bases under `base_policy` and the allowance)."""
        position, unit = move.position, move.unit
        priced, found = check_priced_path(
            position,
            unit,
            Pose(*unit.position, unit.facing),
            steps_with_final_facing(unit, move.action),
            self.pricing(position, unit),
            move.allowance,
            self.base_policy,
            cites=self.path_cites,
            name=self.who(unit),
            free_rotation=self.free_rotation(position, unit),
        )
        move.judgement.found += found
        return priced

    def pricing(self, position: Any, unit: Unit) -> Pricing:
        """Hook: the prices of a path (default: `terrain_rates` of the features)."""
        features = [(t, t.shape) for t in position.state.terrain]
        return TerrainAlong(self.terrain_rates(position, unit), features)

    def terrain_rates(self, position: Any, unit: Unit) -> TableRates:
        """Hook: what each feature costs `unit` (default: the `terrain_costs` table)."""
        return TableRates(self, unit)

    def direction(self, unit: Unit, facing: float, dx: float, dy: float) -> tuple[float, bool, str]:
        """Hook: (cost factor, allowed, name) of a step by (dx, dy) (default: any way, 1)."""
        return 1.0, True, "any"

    def turn_cost(self, unit: Unit, angle: float, rate: float, free: float) -> float:
        """Hook: what turning by `angle` degrees costs (default: nothing)."""
        return 0.0

    def free_rotation(self, position: Any, unit: Unit) -> float:
        """Hook: degrees of turning the path may make for free, once."""
        return 0.0

    def who(self, unit: Unit) -> str:
        """Hook: the unit in a player's words (its roster name, else its id)."""
        return who(unit)

    def check_moved(self, move: MoveInPlay) -> None:
        """Hook: what the system's rules refuse in the path or where it ends."""

    def end_of_move(self, move: MoveInPlay) -> Unit:
        """Hook: the unit as a legal path leaves it, once the rolls the move makes are
        resolved: a roll may move the end, change the cost or allowance judged, or add
        reasons (a result the GM must give), and the unit may carry what the move spends
        (default: no roll; the unit at the path's end)."""
        end = move.priced.end
        return move.unit.moved(end.xy, end.facing)

    def move_events(self, move: MoveInPlay) -> list[dict[str, Any]]:
        """Hook: the events of a legal move, after those its end gave, for the board to
        animate (default: where the unit now stands and faces, even where it has not
        moved)."""
        return [moved_event(move.moved)]

    def after_move(self, move: MoveInPlay) -> GameState:
        """Hook: the state a legal move leaves (default: the unit moved)."""
        state: GameState = move.position.state
        return state.with_units(move.moved)


class TableRates:
    """A system's `terrain_costs` as the kernel's TerrainRates for one unit; directions
    and turns from the system's hooks."""

    def __init__(self, play: Play, unit: Unit) -> None:
        self.play, self.unit = play, unit

    def rate(self, feature: Terrain | None) -> float | None:
        return 1.0 if feature is None else self.play.terrain_costs.get(feature.type, 1.0)

    def rank(self, feature: Terrain) -> float:
        """The dearest feature governs where several overlap; a forbidden one above all."""
        rate = self.rate(feature)
        return float("inf") if rate is None else rate

    def name(self, feature: Terrain | None) -> str:
        return "open ground" if feature is None else f"{feature.id} ({feature.type})"

    def direction(self, facing: float, dx: float, dy: float) -> tuple[float, bool, str]:
        return self.play.direction(self.unit, facing, dx, dy)

    def turn_cost(self, angle: float, rate: float, free: float) -> float:
        return self.play.turn_cost(self.unit, angle, rate, free)
