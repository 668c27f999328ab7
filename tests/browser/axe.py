"""axe-core (from the npm registry: tests/browser/axe/package.json, installed by .ci/run with
`npm ci`) injected into a page by Playwright: the page's accessibility violations."""

from pathlib import Path
from typing import Any

AXE_JS = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
SEVERE = {"serious", "critical"}


def axe_violations(page) -> list[dict[str, Any]]:
    """axe's violations of WCAG 2.x A and AA (and its best practices) on the page as shown.
    Injected as a script element's text would break the page's CSP; `add_script_tag(path=)`
    is an inline script too, so it is evaluated in the page's main world instead."""
    if not AXE_JS.exists():
        raise AssertionError(f"axe-core is not installed: npm ci --prefix {AXE_JS.parents[2]}")
    page.evaluate(AXE_JS.read_text(encoding="utf-8"))
    result = page.evaluate(
        """async () => {
          const tags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];
          const r = await axe.run(document, {
            runOnly: { type: "tag", values: tags },
            resultTypes: ["violations"],
          });
          return r.violations.map((v) => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })),
          }));
        }"""
    )
    return list(result)


def severe(violations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [v for v in violations if v["impact"] in SEVERE]


def summary(violations: list[dict[str, Any]]) -> str:
    """One line per violation: impact, rule, how many nodes, the first node."""
    lines = []
    for v in violations:
        first = v["nodes"][0]
        lines.append(
            f"{v['impact']}: {v['id']} ({len(v['nodes'])}): {v['help']};"
            f" e.g. {first['target']}: {first['summary']}"
        )
    return "\n".join(lines)
