"""Content-Security-Policy violations in the browser tests: a Chromium whose every page
reports them, so that a test fails on any (issue 21; docs/deploy/README.md, "Security
checklist")."""

from typing import Any

# Every page tells of each Content-Security-Policy violation (a blocked inline script,
# style attribute, <style> block, connection...) through a binding the test collects.
CSP_LISTENER = """document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolation(`${e.effectiveDirective} refused ${e.blockedURI || "?"} ` +
    `(${e.sourceFile || location.href}:${e.lineNumber}) ${e.sample || ""}`);
}, true);"""


class CSPWatchedBrowser:
    """The test's Chromium, whose every context reports Content-Security-Policy violations
    into `violations` (the DOM's securitypolicyviolation events and the console's
    "Refused to..." lines); the `browser` fixture fails the test on any at teardown."""

    def __init__(self, chromium: Any):
        self._chromium = chromium
        self.violations: list[str] = []
        #: Every context made through this object, for the `browser` fixture to close.
        self.contexts_opened: list[Any] = []

    def new_context(self, **kwargs: Any) -> Any:
        context = self._chromium.new_context(**kwargs)
        self.contexts_opened.append(context)
        context.expose_binding(
            "__cspViolation", lambda source, text: self.violations.append(str(text))
        )
        context.add_init_script(CSP_LISTENER)
        context.on("console", self._console)
        return context

    def new_page(self, **kwargs: Any) -> Any:
        return self.new_context(**kwargs).new_page()

    def _console(self, message: Any) -> None:
        if "Content Security Policy" in message.text:
            self.violations.append(message.text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._chromium, name)
