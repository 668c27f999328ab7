"""A server environment as in production (docs/deploy): DEBUG off, a real secret key,
static files collected, hashed and compressed. The benchmarks measure that, not the
development server's way of serving files."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def production_env(workdir: str, **extra: str) -> dict[str, str]:
    """The environment of a production process, with static files collected into workdir.

    Call it before `django.setup()` in the benchmark's own process: it sets one secret
    key for that process and the servers, so that the sessions the benchmark makes are
    valid on the servers (the settings refuse the development key when DEBUG is off)."""
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ["STATIC_ROOT"] = str(Path(workdir) / "static")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tabletop.settings",
        "DEBUG": "false",
        **extra,
    }
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT, env=env, check=True,
    )  # fmt: skip
    return env
