"""`python -m rules check [--expect] FILE_OR_DIR...`

Prints one verdict JSON per action per line. With --expect, exit 1 on any
mismatch (details on stderr). A malformed file exits 2 naming the offending key.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from rules.engine.check import run_scenario
from rules.engine.errors import InvalidActionError
from rules.engine.scenario import load_scenario


def scenario_files(args: Sequence[str]) -> Iterator[Path]:
    for a in args:
        p = Path(a)
        if p.is_dir():
            yield from sorted(p.rglob("*.json"))
        else:
            yield p


def check(paths: Sequence[str], expect: bool) -> int:
    status = 0
    mismatched = 0
    total = 0
    for path in scenario_files(paths):
        try:
            raw = json.loads(path.read_text())
        except (OSError, ValueError, RecursionError) as err:
            # ValueError: bad JSON, or an integer of more digits than Python reads;
            # RecursionError: nesting deeper than the parser goes.
            print(f"{path}: cannot read JSON: {err}", file=sys.stderr)
            status = 2
            continue
        try:
            scn = load_scenario(raw)
        except InvalidActionError as err:
            print(f"{path}: malformed: {err}", file=sys.stderr)
            status = 2
            continue
        for outcome in run_scenario(scn):
            total += 1
            # allow_nan=False: a verdict is JSON (RFC 8259) or an error, never bare NaN.
            print(json.dumps(outcome.to_json(), allow_nan=False))
            expected_error = expect and outcome.index < len(scn.expects) \
                and scn.expects[outcome.index] is not None and not outcome.mismatches
            if outcome.error is not None and not expected_error:
                print(f"{path} action {outcome.index}: {outcome.error.code}: {outcome.error}",
                      file=sys.stderr)
                status = 2
            if expect and outcome.mismatches:
                mismatched += 1
                for m in outcome.mismatches:
                    print(f"{path} action {outcome.index}: {m}", file=sys.stderr)
    if expect:
        print(f"{total - mismatched}/{total} actions as expected", file=sys.stderr)
        if mismatched and status == 0:
            status = 1
    return status


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules")
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="judge scenario files")
    c.add_argument("--expect", action="store_true", help="compare with each file's expect")
    c.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    args = parser.parse_args(argv)
    return check(args.paths, args.expect)
