"""The tiny system's folder and its installation into this process's registry."""

from pathlib import Path

import pytest

import rules
from rules.systems import registry

HERE = Path(__file__).resolve().parent
SITE = HERE / "site"  # the system as installed: its package and its dist-info
SCENARIO = HERE / "scenario.json"


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> rules.System:
    monkeypatch.syspath_prepend(str(SITE))
    found = registry.discover()
    for key, system in found.items():
        monkeypatch.setitem(registry.SYSTEMS, key, system)
    return found["tinyskirmish"]
