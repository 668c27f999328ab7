"""rules/ is the pure engine: nothing under it may import django or channels (design.md)."""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "rules"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_nothing_under_rules_imports_django_or_channels() -> None:
    offenders = {str(p.relative_to(RULES)): sorted(m) for p in RULES.rglob("*.py")
                 if (m := {n for n in imported_modules(p)
                           if n.split(".")[0] in ("django", "channels")})}
    assert not offenders


def test_the_purity_check_sees_every_module() -> None:
    assert len(list(RULES.rglob("*.py"))) > 20
