"""Run a scenario's actions in sequence and compare with its `expect` (contract EXPECT).

The CLI (`python -m rules check`) and the golden tests share this code.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.engine.bounds import check_action
from rules.engine.consequences import with_consequences
from rules.engine.dice import Dice, make_dice
from rules.engine.numbers import LENGTH_TOL
from rules.engine.scenario import Scenario, state_to_json
from rules.engine.system import System
from rules.engine.verdict import Verdict, Violation
from rules.model.actions import Action, MalformedAction
from rules.model.errors import InvalidActionError
from rules.model.state import GameState
from rules.systems.registry import get_system


@dataclass(frozen=True)
class Outcome:
    """One action's result: a verdict, or an input error raised while judging it."""

    index: int
    verdict: Verdict | None
    error: InvalidActionError | None
    mismatches: tuple[str, ...] = ()
    #: The position the action was judged in (what `reach`, `alternative` and `offers`
    #: answer for: scenario-format.md, "Other commands").
    before: GameState | None = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict[str, Any]:
        if self.verdict is not None:
            return self.verdict.to_json()
        assert self.error is not None
        return {"error": self.error.code, "key": self.error.key, "message": str(self.error)}


def run_scenario(scn: Scenario) -> list[Outcome]:
    """Apply the actions in order; an illegal one leaves the state unchanged."""
    system = get_system(scn.state.system)
    dice = make_dice(scn.dice, scn.outcomes)
    state = scn.state
    out: list[Outcome] = []
    for i, action in enumerate(scn.actions):
        expect = scn.expects[i] if i < len(scn.expects) else None
        try:
            if isinstance(action, MalformedAction):
                verdict = malformed_verdict(state, action.error)
            else:
                key = "action" if scn.single_action else f"actions[{i}]"
                verdict = judge(system, state, action, dice, key)
        except InvalidActionError as err:
            mism = () if expect is None else tuple(compare_error(err, expect))
            out.append(Outcome(i, None, err, mism, before=state))
            continue
        before = state
        if verdict.state_after is not None:
            state = verdict.state_after
        notes = tuple(note.key for note in system.verdict_notes)
        mism = () if expect is None else tuple(compare(verdict, expect, action.unit, notes))
        out.append(Outcome(i, verdict, None, mism, before=before))
    return out


def judge(
    system: System, state: GameState, action: Action, dice: Dice, key: str = "action"
) -> Verdict:
    """The verdict on an action within the engine's bounds (rules/engine/bounds.py); one
    beyond them is `malformed`, judged like an illegal one."""
    try:
        check_action(action, state, key)
    except InvalidActionError as err:
        return malformed_verdict(state, err)
    return with_consequences(system, state, action, system.validate(state, action, dice))


def malformed_verdict(state: GameState, err: InvalidActionError) -> Verdict:
    """A malformed action is refused like an illegal one (contract code `malformed`)."""
    return Verdict(False, 0.0, 0.0, (Violation("malformed", str(err), None),), state_after=state)


def compare_error(err: InvalidActionError, expect: Mapping[str, Any]) -> list[str]:
    if expect.get("reason") == err.code or expect.get("error") == err.code:
        return []
    return [f"raised {err.code}: {err}"]


def _close(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return bool(a == b)
    if isinstance(a, int | float) and isinstance(b, int | float):
        return bool(math.isclose(float(a), float(b), abs_tol=LENGTH_TOL))
    return bool(a == b)


def subset_match(expected: Any, actual: Any) -> bool:
    """Dicts match on the expected keys; lists element-wise (or as sets of scalars)."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and subset_match(v, actual[k]) for k, v in expected.items()
        )
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return False
        if all(subset_match(e, a) for e, a in zip(expected, actual, strict=True)):
            return True
        scalars = all(isinstance(x, str | int | float) for x in expected + actual)
        return scalars and sorted(map(str, expected)) == sorted(map(str, actual))
    return _close(expected, actual)


def _angle_close(a: float, b: float) -> bool:
    d = (float(a) - float(b)) % 360.0
    return min(d, 360.0 - d) <= 0.01


def compare(
    verdict: Verdict, expect: Mapping[str, Any], unit_id: str, notes: tuple[str, ...] = ()
) -> list[str]:
    """What differs between a verdict and its EXPECT object (empty list = match); `notes`:
    the keys of the system's verdict notes, each compared where expected (a
    lasergrenadiers `speed_band`)."""
    diffs: list[str] = []
    got = verdict.to_json()
    codes = verdict.codes
    if "legal" in expect and bool(expect["legal"]) != verdict.legal:
        diffs.append(f"legal: expected {expect['legal']}, got {verdict.legal} (reasons {codes})")
    if "reason" in expect and expect["reason"] not in codes:
        diffs.append(f"reason: expected {expect['reason']!r} among {codes}")
    if "reasons" in expect:
        for code in expect["reasons"]:
            if code not in codes:
                diffs.append(f"reasons: expected {code!r} among {codes}")
    for key in ("cost", "allowance"):
        if key in expect and not _close(expect[key], got[key]):
            diffs.append(f"{key}: expected {expect[key]}, got {got[key]}")
    for key in notes:
        if key in expect and expect[key] != got.get(key):
            diffs.append(f"{key}: expected {expect[key]!r}, got {got.get(key)!r}")
    after = verdict.state_after
    unit = after.unit(unit_id) if after is not None else None
    if "position" in expect:
        pos = None if unit is None else list(unit.position)
        exp = list(expect["position"])[:2]
        if pos is None or not all(_close(e, p) for e, p in zip(exp, pos, strict=True)):
            diffs.append(f"position: expected {exp}, got {pos}")
    if "facing" in expect:
        if unit is None or not _angle_close(expect["facing"], unit.facing):
            diffs.append(
                f"facing: expected {expect['facing']}, got {None if unit is None else unit.facing}"
            )
    if "state" in expect:
        turn = {} if after is None else dict(after.turn)
        if not subset_match(expect["state"], turn):
            diffs.append(f"state: expected {expect['state']} within {turn}")
    if "units" in expect:
        units = {} if after is None else {u["id"]: u for u in state_to_json(after)["units"]}
        exp_units = expect["units"]
        if isinstance(exp_units, list):
            exp_units = {u["id"]: u for u in exp_units}
        if not subset_match(exp_units, units):
            diffs.append(f"units: expected {exp_units}")
    if "events" in expect:
        for ev in expect["events"]:
            if not any(subset_match(ev, g) for g in got["events"]):
                diffs.append(f"events: expected {ev} among {got['events']}")
    if "rolls" in expect:
        for r in expect["rolls"]:
            if not any(subset_match(r, g) for g in got["rolls"]):
                diffs.append(f"rolls: expected {r} among {got['rolls']}")
    return diffs
