"""Command line: `python -m rules check|reach|alternative|offers FILE_OR_DIR...` (the only I/O
in rules/)."""

import sys

from rules.referee.cli import main

sys.exit(main())
