"""rules/ is the pure engine: nothing under it may import django or channels (design.md)."""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "rules"


def imported_modules(path: Path, package: str = "") -> set[str]:
    """Absolute names of the modules `path` imports; relative imports are resolved
    against `package` (the dotted package holding the module) when it is given."""
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level and package:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                if node.module:
                    names.add(f"{base}.{node.module}")
                else:  # `from .. import aod`: the names are modules
                    names.update(f"{base}.{a.name}" for a in node.names)
            elif node.module:
                names.add(node.module)
    return names


def test_nothing_under_rules_imports_django_or_channels() -> None:
    offenders = {
        str(p.relative_to(RULES)): sorted(m)
        for p in RULES.rglob("*.py")
        if (m := {n for n in imported_modules(p) if n.split(".")[0] in ("django", "channels")})
    }
    assert not offenders


def test_the_purity_check_sees_every_module() -> None:
    assert len(list(RULES.rglob("*.py"))) > 20


SYSTEMS_DIR = RULES / "systems"


def system_packages() -> list[str]:
    return sorted(
        p.name for p in SYSTEMS_DIR.iterdir() if p.is_dir() and (p / "__init__.py").exists()
    )


def other_systems(names: set[str], own: str) -> set[str]:
    """The system packages other than `own` among absolute module names."""
    found = set()
    for name in names:
        parts = name.split(".")
        if (
            parts[:2] == ["rules", "systems"]
            and len(parts) > 2
            and parts[2] != own
            and (SYSTEMS_DIR / parts[2]).is_dir()
        ):
            found.add(parts[2])
    return found


def systems_imported_by(path: Path, own: str) -> set[str]:
    package = ".".join(("rules",) + path.parent.relative_to(RULES).parts)
    return other_systems(imported_modules(path, package), own)


def test_no_system_package_imports_another() -> None:
    """design.md: a system is its own package of hooks and tables; what two systems share
    belongs in rules/engine or rules/geometry."""
    offenders = {
        str(p.relative_to(RULES)): sorted(other)
        for key in system_packages()
        for p in (SYSTEMS_DIR / key).rglob("*.py")
        if (other := systems_imported_by(p, key))
    }
    assert not offenders


def test_the_system_import_check_sees_absolute_and_relative_cross_imports(tmp_path: Path) -> None:
    """A module of a would-be package rules/systems/other importing aod three ways."""
    module = tmp_path / "m.py"
    module.write_text(
        "from rules.systems.aod.units import is_mech\n"
        "from ..aod import options\n"
        "from .. import aod\n"
        "from . import tables\n"
    )
    names = imported_modules(module, "rules.systems.other")
    assert names == {"rules.systems.aod.units", "rules.systems.aod", "rules.systems.other.tables"}
    assert other_systems(names, "other") == {"aod"}
    assert other_systems(names, "aod") == set()
