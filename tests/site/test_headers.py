"""Every page carries a strict Content-Security-Policy, and no template needs an exception
to it: no inline script or style, no event-handler attribute, no javascript: link."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.test import Client

from games.models import Room

pytestmark = pytest.mark.usefixtures("shipped_data")

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def policy(response: object) -> dict[str, list[str]]:
    """Return the response's Content-Security-Policy as directive: sources."""
    header = response["Content-Security-Policy"]  # type: ignore[index]
    parts = (part.split() for part in header.split(";") if part.strip())
    return {name: sources for name, *sources in parts}


def test_every_page_sends_a_strict_policy(client: Client) -> None:
    client.post("/", {"nickname": "Ann", "preset": "classic"})
    code = Room.objects.get().code
    for path in ("/", f"/r/{code}/", "/admin/login/", "/r/ZZZZZZ/"):
        found = policy(client.get(path))
        assert found["default-src"] == ["'self'"], path
        assert found["script-src"] == ["'self'"] and found["style-src"] == ["'self'"], path
        assert found["frame-ancestors"] == ["'none'"] and found["object-src"] == ["'none'"]
        assert found["connect-src"] == ["'self'", "ws://testserver"], path
        assert found["img-src"] == ["'self'", "data:"]  # the favicon is a data: image


def test_a_page_served_over_https_names_the_secure_websocket_origin(client: Client) -> None:
    found = policy(client.get("/", secure=True))
    assert found["connect-src"] == ["'self'", "wss://testserver"]


class InlineCode(HTMLParser):
    """Collects what a strict policy would refuse to run or apply."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "style":
            self.found.append("<style>")
        if tag == "script" and "src" not in named and named.get("type") != "application/json":
            self._in_script = True
        for name, value in attrs:
            if name == "style" or name.startswith("on"):
                self.found.append(f"<{tag} {name}=...>")
            if name in ("href", "src", "action") and (value or "").startswith("javascript:"):
                self.found.append(f"<{tag} {name}=javascript:...>")

    def handle_data(self, data: str) -> None:
        if self._in_script and data.strip():
            self.found.append(f"<script>{data.strip()[:40]}")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False


@pytest.mark.parametrize(
    "template", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: str(p.relative_to(TEMPLATES))
)
def test_no_template_has_inline_script_style_or_event_handlers(template: Path) -> None:
    parser = InlineCode()
    parser.feed(template.read_text(encoding="utf-8"))
    assert parser.found == []


def test_the_inline_check_finds_what_it_looks_for() -> None:
    parser = InlineCode()
    parser.feed(
        '<p style="x" onclick="f()"><script>go()</script><style>p{}</style>'
        '<script type="module" src="/a.js"></script><a href="javascript:f()">'
    )
    assert len(parser.found) == 5
