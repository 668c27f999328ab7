"""The floors of rules/ (design.md, "Layers"): each imports only from its own floor and the
floors below it, never upward, and never from inside a function to dodge a circle.

    model      rules/model/           the data model: positions, actions, errors
    geometry   rules/geometry/        shapes, sweeps, sight
    engine     rules/engine/          the kernel a system is built from
    systems    rules/systems/<key>/   one package per game system, none importing another
    registry   rules/systems/registry.py   finds the systems by entry point
    referee    rules/referee/         what the table asks of the system a position names
    facade     rules/__init__.py, rules/__main__.py
"""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "rules"

FLOORS = ("model", "geometry", "engine", "systems", "registry", "referee", "facade")


def module_name(path: Path, root: Path) -> str:
    parts = ("rules",) + path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def floor(module: str) -> str | None:
    """The floor of a module of rules/ (None outside rules/)."""
    parts = module.split(".")
    if parts[0] != "rules":
        return None
    if len(parts) == 1 or parts[1] == "__main__":
        return "facade"
    if parts[1] == "systems" and len(parts) > 2 and parts[2] == "registry":
        return "registry"
    return parts[1] if parts[1] in FLOORS else "facade"


def system_of(module: str) -> str | None:
    """The system package a module belongs to (rules.systems.<key>...), else None."""
    parts = module.split(".")
    if parts[:2] == ["rules", "systems"] and len(parts) > 2 and parts[2] != "registry":
        return parts[2]
    return None


def imports(path: Path, module: str) -> list[tuple[list[str], int, str]]:
    """(modules named, line, where) for each import statement of `path`: what it imports
    (`from a.b import c` names a.b and a.b.c, which may be a module), and where it stands:
    "module", "type_checking" (under `if TYPE_CHECKING:`) or "function" (in a def)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[list[str], int, str]] = []

    def visit(node: ast.AST, where: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = where
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                inner = "function"
            elif (
                isinstance(child, ast.If)
                and "TYPE_CHECKING" in ast.unparse(child.test)
                and where == "module"
            ):
                inner = "type_checking"
            if isinstance(child, ast.Import):
                found.append(([a.name for a in child.names], child.lineno, inner))
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parts = package.split(".")
                    base = ".".join(
                        parts[: len(parts) - child.level + 1]
                        + ([child.module] if child.module else [])
                    )
                found.append(
                    ([base] + [f"{base}.{a.name}" for a in child.names], child.lineno, inner)
                )
            visit(child, inner)

    visit(ast.parse(path.read_text()), "module")
    return found


def layer_problems(root: Path) -> list[str]:
    """Every import under `root` (a rules/ tree) that breaks the floors, in words."""
    problems = []
    for path in sorted(root.rglob("*.py")):
        module = module_name(path, root)
        own = floor(module)
        assert own is not None
        where_from = f"{path.relative_to(root.parent)}"
        for names, line, where in imports(path, module):
            if where == "function":
                problems.append(f"{where_from}:{line} imports {names[0]} inside a function")
            above = [
                (FLOORS.index(theirs), name)
                for name in names
                if (theirs := floor(name)) and FLOORS.index(theirs) > FLOORS.index(own)
            ]
            if above:
                top = max(index for index, _ in above)
                name = next(name for index, name in above if index == top)
                problems.append(
                    f"{where_from}:{line} ({own}) imports {name} ({floor(name)}): upward"
                )
            mine = system_of(module)
            others = {
                other for name in names if (other := system_of(name)) and mine and other != mine
            }
            problems += [
                f"{where_from}:{line} (system {mine}) imports system {other}"
                for other in sorted(others)
            ]
    return problems


def module_cycles(root: Path) -> list[list[str]]:
    """Circles among the modules of `root` through imports run at import time (not those
    only a type checker reads)."""
    graph: dict[str, set[str]] = {}
    for path in root.rglob("*.py"):
        module = module_name(path, root)
        graph[module] = {
            name
            for names, _, where in imports(path, module)
            if where == "module"
            for name in names
            if floor(name) is not None and name != module
        }
    known = set(graph)
    for module, targets in graph.items():  # of a.b.c and a.b, the one that is a module
        graph[module] = {t for t in targets if t in known}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt) :] + [nxt])
            elif nxt not in state:
                walk(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            walk(node)
    return cycles


def test_every_import_under_rules_goes_down_the_floors() -> None:
    assert layer_problems(RULES) == []


def test_no_circle_among_the_modules_of_rules() -> None:
    assert module_cycles(RULES) == []


def test_the_check_sees_upward_function_level_and_cross_system_imports(tmp_path: Path) -> None:
    """A small tree with one of each offence (and one allowed import of each kind)."""
    root = tmp_path / "rules"
    for name, text in {
        "__init__.py": "from rules.referee.positions import state_from_json\n",
        "model/__init__.py": "",
        "model/state.py": "from rules.engine.system import System\n",  # upward
        "geometry/__init__.py": "",
        "geometry/bases.py": "from rules.model.state import BaseShape\n",  # down: fine
        "engine/__init__.py": "",
        "engine/system.py": "def f():\n    from rules.engine import scenario\n",  # function
        "engine/scenario.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
        "    from rules.engine.system import System\n",  # fine
        "systems/__init__.py": "",
        "systems/registry.py": "from rules.engine.system import System\n",
        "systems/aod/__init__.py": "",
        "systems/aod/units.py": "from ..mswars import tables\n",  # another system
        "systems/mswars/__init__.py": "",
        "systems/mswars/tables.py": "from rules.systems.registry import get_system\n",  # up
        "referee/__init__.py": "",
        "referee/positions.py": "from rules.systems.registry import get_system\n",
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    assert layer_problems(root) == [
        "rules/engine/system.py:2 imports rules.engine inside a function",
        "rules/model/state.py:1 (model) imports rules.engine.system (engine): upward",
        "rules/systems/aod/units.py:1 (system aod) imports system mswars",
        "rules/systems/mswars/tables.py:1 (systems) imports rules.systems.registry "
        "(registry): upward",
    ]
    (root / "engine/a.py").write_text("from rules.engine.b import x\n")
    (root / "engine/b.py").write_text("from rules.engine.a import y\n")
    assert module_cycles(root) == [["rules.engine.a", "rules.engine.b", "rules.engine.a"]]
