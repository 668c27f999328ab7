"""Each system's turn structure, as the table enforces it before the engine is asked.

The table's `turn_state` is `{"turn": n, "active_side": s, "sides": [...], "phase": p}`
(phase only where the system has phases). The engine's own per-turn bookkeeping
lives in the position's `state` (aod: `orders_used`, `ordered`, ...); when a
side's turn ends, the table resets what the system's notes say is per turn.
"""

from dataclasses import dataclass
from typing import Any

from tabletop.events import reason


@dataclass(frozen=True)
class TurnRules:
    #: Phases of one turn, in order; (None,) where the system has none.
    phases: tuple[Any, ...] = (None,)
    #: Engine state keys that start afresh when a side hands over (per side-turn).
    reset_each_side: tuple[str, ...] = ()
    #: Engine state keys that start afresh each phase / each full turn.
    reset_each_phase: tuple[str, ...] = ()
    reset_each_turn: tuple[str, ...] = ()


SYSTEM_TURNS: dict[str, TurnRules] = {
    # aod.md section 3: a side gives its orders, then the other side (alternating
    # turns); the order bookkeeping is per turn; orders_available is the GM's setting.
    "aod": TurnRules(
        reset_each_side=(
            "orders_used",
            "ordered",
            "order_log",
            "free_spin_pending",
            "started_in_contact",
        ),
    ),
    # mswars.md section 6: two movement phases a turn; one move action per unit per phase.
    "mswars": TurnRules(
        phases=(1, 2),
        reset_each_phase=("free_turn_used",),
        reset_each_turn=("actions_taken", "free_turn_used"),
    ),
    # lasergrenadiers.md: `moved` is the allowance used this turn.
    "lasergrenadiers": TurnRules(reset_each_turn=("moved",)),
    # apskirmish.md section 2: the active soldier, while one is activating.
    "apskirmish": TurnRules(reset_each_side=("active_unit",)),
}


def rules_of(system: str) -> TurnRules:
    return SYSTEM_TURNS.get(system, TurnRules())


def refusal(system: str, turn: dict[str, Any], engine_state: dict[str, Any], side: str):
    """The reason `side` may not act now, or None. Orders are checked before the engine."""
    active = turn.get("active_side")
    if active and side != active:
        return reason("not_your_turn", f"It is {active}'s turn, not {side}'s.")
    if system == "aod":
        available = engine_state.get("orders_available")
        used = engine_state.get("orders_used", 0)
        if isinstance(available, int) and used >= available:
            return reason("no_actions_left", f"{side} has given all {available} orders this turn.")
    return None


def _without(engine_state: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in engine_state.items() if k not in keys}


def advance(
    system: str, turn: dict[str, Any], engine_state: dict[str, Any], *, whole_turn: bool
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(turn, engine state) after the active side ends its part (or the GM ends the turn).

    Order: within a turn, each phase; within a phase, each side in turn.
    """
    rules = rules_of(system)
    sides = list(turn.get("sides") or [turn.get("active_side")])
    active = turn.get("active_side")
    index = sides.index(active) if active in sides else len(sides) - 1
    phase = turn.get("phase")
    phase_index = rules.phases.index(phase) if phase in rules.phases else 0
    new_turn = dict(turn)
    state = _without(engine_state, rules.reset_each_side)
    if not whole_turn and index + 1 < len(sides):
        new_turn["active_side"] = sides[index + 1]
        return new_turn, state
    new_turn["active_side"] = sides[0]
    if not whole_turn and phase_index + 1 < len(rules.phases):
        phase = rules.phases[phase_index + 1]
        new_turn["phase"] = phase
        return new_turn, {**_without(state, rules.reset_each_phase), "phase": phase}
    new_turn["turn"] = int(turn.get("turn", 1)) + 1
    state = _without(state, rules.reset_each_turn)
    if rules.phases[0] is not None:
        new_turn["phase"] = rules.phases[0]
        state["phase"] = rules.phases[0]
    return new_turn, state
