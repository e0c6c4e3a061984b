"""Watching a page for Content-Security-Policy violations: every securitypolicyviolation event
in any document the page loads, and every console error in which Chromium names the policy."""

from __future__ import annotations

from typing import Any

# Runs in every document before its own scripts; the list survives until the next navigation.
_LISTENER = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(
    `${event.violatedDirective} blocked ${event.blockedURI || "inline"} ` +
      `at ${event.sourceFile || document.location.href}:${event.lineNumber}`
  );
});
"""


class CSPWatch:
    """Collects a page's policy violations; `violations()` returns those seen so far."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.seen: list[str] = []
        page.add_init_script(_LISTENER)
        page.on("console", self._console)

    def _console(self, message: Any) -> None:
        if message.type == "error" and "Content Security Policy" in message.text:
            self.seen.append(message.text)

    def violations(self) -> list[str]:
        """Return what was refused so far, in this document's events and the console's."""
        events = self.page.evaluate("window.__cspViolations || []")
        return [*self.seen, *events]
