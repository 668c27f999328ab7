"""`python -m rules ARGS` run in the test's own process: `rules.referee.cli.main`, which is
all the module's `__main__` calls, with its exit code and what it printed. A new
interpreter spent 0.7 s importing the engine for each command (a third of make check's
command-line tests' time); tests/rules/test_golden.py and the unreadable-JSON tests of
tests/rules/test_bounds.py still run the real command."""

import io
import subprocess
from contextlib import redirect_stderr, redirect_stdout

from rules.referee.cli import main


def rules_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """The command's exit code, standard output and error, as `subprocess.run` gives them."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exit:  # argparse's usage errors
            code = exit.code if isinstance(exit.code, int) else 1
    return subprocess.CompletedProcess(
        ["python", "-m", "rules", *args], code, out.getvalue(), err.getvalue()
    )
