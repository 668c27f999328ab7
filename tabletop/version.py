"""The release this site runs: pyproject.toml's version, as installed.

Shown in every page's footer and by `/healthz`, so that an admin (and a bug report)
can tell which release answers; CHANGELOG.md says what each brought and how to upgrade.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    VERSION = version("tabletop")
except PackageNotFoundError:  # run from a checkout that was never installed
    VERSION = "unknown"
