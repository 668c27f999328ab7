"""`python -m rules check [--expect] FILE_OR_DIR...`, and the board's three questions:
`python -m rules reach|alternative|offers FILE_OR_DIR...` (scenario-format.md, "Other
commands").

`check` prints one verdict JSON per action per line. With --expect, exit 1 on any
mismatch (details on stderr). A malformed file exits 2 naming the offending key.
The questions print one JSON line per action, answered for the position before it
(the actions applied in sequence as `check` applies them), from the same functions
the live table calls (rules/referee/questions.py). `reach` and `alternative` take
`--deadline MS`: each answer within MS milliseconds of CPU time, as the live table asks
them (rules/geometry/deadline.py); without it nothing reads the clock.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from rules.engine.scenario import Scenario
from rules.geometry.deadline import deadline
from rules.model.actions import MalformedAction
from rules.model.errors import InvalidActionError
from rules.referee.check import Outcome, run_scenario
from rules.referee.positions import load_scenario
from rules.referee.questions import alternative_answer, offers_answer, reach_answer


def scenario_files(args: Sequence[str]) -> Iterator[Path]:
    for a in args:
        p = Path(a)
        if p.is_dir():
            yield from sorted(p.rglob("*.json"))
        else:
            yield p


def read_scenario(path: Path) -> Scenario | None:
    """The scenario in `path`, or None after saying on stderr why it does not load."""
    try:
        raw = json.loads(path.read_text())
    except (OSError, ValueError, RecursionError) as err:
        # ValueError: bad JSON, or an integer of more digits than Python reads;
        # RecursionError: nesting deeper than the parser goes.
        print(f"{path}: cannot read JSON: {err}", file=sys.stderr)
        return None
    try:
        return load_scenario(raw)
    except InvalidActionError as err:
        print(f"{path}: malformed: {err}", file=sys.stderr)
        return None


def judged(
    paths: Sequence[str], unreadable: list[Path]
) -> Iterator[tuple[Path, Scenario, Outcome]]:
    """Each action of each file, judged in sequence; a file that does not load is added
    to `unreadable` (after saying why on stderr) and skipped."""
    for path in scenario_files(paths):
        scn = read_scenario(path)
        if scn is None:
            unreadable.append(path)
            continue
        for outcome in run_scenario(scn):
            yield path, scn, outcome


def check(paths: Sequence[str], expect: bool) -> int:
    status = 0
    mismatched = 0
    total = 0
    unreadable: list[Path] = []
    for path, scn, outcome in judged(paths, unreadable):
        total += 1
        # allow_nan=False: a verdict is JSON (RFC 8259) or an error, never bare NaN.
        print(json.dumps(outcome.to_json(), allow_nan=False))
        expected_error = (
            expect
            and outcome.index < len(scn.expects)
            and scn.expects[outcome.index] is not None
            and not outcome.mismatches
        )
        if outcome.error is not None and not expected_error:
            print(
                f"{path} action {outcome.index}: {outcome.error.code}: {outcome.error}",
                file=sys.stderr,
            )
            status = 2
        if expect and outcome.mismatches:
            mismatched += 1
            for m in outcome.mismatches:
                print(f"{path} action {outcome.index}: {m}", file=sys.stderr)
    if unreadable:
        status = 2
    if expect:
        print(f"{total - mismatched}/{total} actions as expected", file=sys.stderr)
        if mismatched and status == 0:
            status = 1
    return status


def answer(scn: Scenario, outcome: Outcome, question: str) -> dict[str, Any]:
    """One question's answer for the position before `outcome`'s action."""
    action = scn.actions[outcome.index]
    before = outcome.before if outcome.before is not None else scn.state
    if question == "offers":
        return offers_answer(before)
    if isinstance(action, MalformedAction):
        return {"error": "malformed", "message": str(action.error)}
    if question == "reach":
        return reach_answer(before, action)
    legal = outcome.verdict is not None and outcome.verdict.legal
    if outcome.error is not None:
        return {"error": outcome.error.code, "message": str(outcome.error)}
    return alternative_answer(before, action, legal)


def ask(paths: Sequence[str], question: str, seconds: float | None = None) -> int:
    """Print the answer to `question` for the position before each action of each file,
    each within `seconds` of CPU time where given (as the live table asks)."""
    unreadable: list[Path] = []
    for _path, scn, outcome in judged(paths, unreadable):
        with deadline(seconds):
            found = answer(scn, outcome, question)
        print(json.dumps(found, allow_nan=False))
    return 2 if unreadable else 0


QUESTIONS = {
    "reach": "where each action's unit may end with one action of its type",
    "alternative": "the nearest legal alternative where each action is refused",
    "offers": "the action types each unit may take before each action",
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules")
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="judge scenario files")
    c.add_argument("--expect", action="store_true", help="compare with each file's expect")
    c.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    for name, what in QUESTIONS.items():
        q = sub.add_parser(name, help=what)
        if name != "offers":
            q.add_argument(
                "--deadline",
                type=float,
                metavar="MS",
                help="answer each within MS milliseconds of CPU time, as the live "
                "table asks (a reach cut short says complete false); without "
                "it every answer is the same on every machine",
            )
        q.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    args = parser.parse_args(argv)
    if args.command == "check":
        return check(args.paths, args.expect)
    ms = getattr(args, "deadline", None)
    return ask(args.paths, args.command, None if ms is None else ms / 1000)
