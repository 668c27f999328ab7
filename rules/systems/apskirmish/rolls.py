"""The movement rolls: a Terrain roll, a Traverse roll, a Dodge (apskirmish.md 6, APS-D1).

A result comes, in this order of precedence, from the scenario's forced `outcomes`
(already including every modifier); in a preview, from nowhere (the roll stays pending
and the verdict is what success would give); with the table option `tests: "gm"`, from
the GM (until the GM enters it the action is refused with `roll_required`, and the
table asks and judges again with the result as an outcome); else the engine rolls 1d10
and the test succeeds on at most the stat, each Success Level above Normal lowering the
target by 2 (Opt Up on a Dodge).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine.dice import Dice
from rules.engine.judgement import PathJudgement, who
from rules.engine.verdict import Roll
from rules.model.errors import InvalidActionError
from rules.model.state import Unit
from rules.systems.apskirmish.tables import (
    DEFAULT_AP_PER_ROUND,
    DEFAULT_TESTS,
    LEVEL_STEP,
    ROLLS,
    TEST_DIE,
    TEST_MODES,
    RollRow,
)

#: What a GM may set, for the set-up form (rules/engine/system.py `table_option_schema`);
#: `parse_options` judges the values.
OPTION_SCHEMA: dict[str, dict[str, Any]] = {
    "tests": {
        "type": "string",
        "enum": list(TEST_MODES),
        "default": DEFAULT_TESTS,
        "labels": {"d10": "The server rolls a d10", "gm": "The GM enters each result"},
        "label": "Tests",
        "description": "how a test is resolved (APS-D1)",
    },
    "ap_per_round": {
        "type": "integer",
        "minimum": 0,
        "default": DEFAULT_AP_PER_ROUND,
        "label": "AP per round",
        "description": "a soldier's AP each round where the roster gives no ap_max (APS-D22)",
    },
}


def parse_options(options: Mapping[str, Any], key: str = "table.options") -> str:
    """The table's `tests` mode, once every option is judged (a round reads its own,
    turns.py)."""
    for name in options:
        if name not in OPTION_SCHEMA:
            known = ", ".join(OPTION_SCHEMA)
            raise InvalidActionError(
                f"{key}.{name}", f"unknown table option for apskirmish (known: {known})"
            )
    tests = options.get("tests", DEFAULT_TESTS)
    if tests not in TEST_MODES:
        raise InvalidActionError(f"{key}.tests", f"expected one of {', '.join(TEST_MODES)}")
    ap = options.get("ap_per_round", DEFAULT_AP_PER_ROUND)
    if isinstance(ap, bool) or not isinstance(ap, int | float) or ap < 0 or ap != int(ap):
        raise InvalidActionError(f"{key}.ap_per_round", "expected a whole number of AP")
    return str(tests)


@dataclass(frozen=True)
class TestRoll(Roll):
    """A pass/fail roll as the notes report it: `result` is "success" or "fail"; the
    d10 the engine rolled, if any, is `roll` (with `needed`)."""

    rolled: int | None = None
    #: The GM must enter the result (`tests: "gm"`): the action waits (roll_required).
    waiting: bool = False

    @property
    def pending(self) -> bool:
        return self.success is None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "what": self.what,
            "result": None if self.success is None else "success" if self.success else "fail",
            "success": self.success,
        }
        if self.rolled is not None:
            out.update(die=self.die, roll=self.rolled, needed=self.needed)
        if self.pending:
            # What the roll needs, for the board's preview ("1-6 on d10", or the GM's).
            out.update(die=self.die, needed=self.needed, pending=True)
            if self.decides:
                out["decides"] = self.decides
            if self.waiting:
                out["waiting_for"] = "gm"
        return out


def stat_target(unit: Unit, stat: str, levels_up: int) -> int | None:
    stats = unit.get("stats")
    value = stats.get(stat) if isinstance(stats, dict) else None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return int(value) - LEVEL_STEP * levels_up


def gm_prompt(row: RollRow, target: int | None, levels_up: int) -> str:
    """What the GM rolls against: the roll with the stat's value and, when Success Levels
    lower it, the target ("Terrain roll (Normal PSQ 4)", "Dodge roll (Normal INS 6)")."""
    if target is None:
        return row.label
    value = target + LEVEL_STEP * levels_up  # stat_target's inverse
    opened = row.label.removesuffix(")").removesuffix(row.stat).rstrip()  # "... (Normal"
    stat = f"{row.stat} {value}" + ("" if value == target else f", target {target}")
    return f"{opened}{'' if opened.endswith('(') else ' '}{stat})"


def rolled(
    judgement: PathJudgement,
    dice: Dice,
    tests: str,
    unit: Unit,
    what: str,
    levels_up: int = 0,
) -> TestRoll | None:
    """One roll of `what` ("terrain", "traverse", "dodge") for `unit` (see above), kept in
    the verdict; None while the GM's result is awaited, which refuses the action
    (`roll_required`, APS-D1)."""
    row = ROLLS[what]
    target = stat_target(unit, row.stat, levels_up)
    if dice.forced_outcomes is not None and not dice.unresolved:
        roll = TestRoll(what, "", None, row.label, bool(dice.outcome(what)), forced=True)
    elif tests != "d10" or target is None:
        # The GM rolls: a preview shows what is asked, a commit waits for the result.
        prompt = gm_prompt(row, target, levels_up)
        roll = TestRoll(
            what, "", None, prompt, None, decides=row.decides, waiting=not dice.unresolved
        )
    else:
        die = dice.test(what, TEST_DIE, 1, row.decides, at_most=target)  # pending in a preview
        roll = TestRoll(**vars(die), rolled=die.result)
    judgement.rolls.append(roll)
    if not roll.waiting:
        return roll
    judgement.add(
        "roll_required", row.awaited.format(who=who(unit)), unit.position, f"{row.cite}, APS-D1"
    )
    return None
