"""The web side and the engine meet at one door (design.md, "Layers"): tabletop/ imports
the engine only as `rules` (its facade, docs/rules-engine.md), never a module behind it;
and tabletop/events.py, which the table services build their frames with, imports none
of them back."""

from __future__ import annotations

from pathlib import Path

from tests.rules.test_layers import imports

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "tabletop"


def web_imports(path: Path) -> list[tuple[str, int]]:
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return [(names[0], line) for names, line, _ in imports(path, module)]


def test_the_web_side_imports_only_the_rules_facade() -> None:
    behind = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in sorted(WEB.rglob("*.py"))
        if "migrations" not in path.parts
        for name, line in web_imports(path)
        if name.startswith("rules.")
    ]
    assert behind == []


def test_the_frames_module_imports_no_table_service() -> None:
    found = [
        name for name, _ in web_imports(WEB / "events.py") if name.startswith("tabletop.services")
    ]
    assert found == []


def test_the_check_sees_an_import_behind_the_facade(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "import rules\nfrom rules.engine.catalogue import COST_UNITS\n"
        "def f():\n    from rules.referee import questions\n"
    )
    assert [n for n, _, _ in imports(module, "tabletop.m")] == [
        ["rules"],
        ["rules.engine.catalogue", "rules.engine.catalogue.COST_UNITS"],
        ["rules.referee", "rules.referee.questions"],
    ]
