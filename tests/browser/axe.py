"""axe-core in the browser tests: run every rule on a page as it is now and list what fails.

axe-core (MPL-2.0, by Deque Systems) comes inside the PyPI package axe-playwright-python, a dev
dependency (pyproject.toml), which ships axe-core's own axe.min.js (4.12.1 in 0.1.8). Playwright
evaluates the script in the page through the DevTools protocol, so the app never serves it and
the page's Content-Security-Policy does not apply to it."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe

_AXE = Axe()


def axe_violations(page: Any) -> list[str]:
    """Return one line per rule axe-core finds broken on the page, naming the elements."""
    results = _AXE.run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + "; ".join(" ".join(node["target"]) for node in v["nodes"])
        for v in results.response["violations"]
    ]
