"""Django's `{# ... #}` comments end on the line they start on: one spread over several lines
is not a comment at all, and its text shows on the page (the stage include once printed its
own description above the board). Longer notes use {% comment %}."""

from __future__ import annotations

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_no_template_opens_a_one_line_comment_it_does_not_close_on_that_line() -> None:
    unclosed = [
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if "{#" in line and "#}" not in line[line.index("{#") :]
    ]
    assert unclosed == []
    assert any(TEMPLATES.rglob("*.html"))  # the scan saw the templates
