"""In production, static files get hashed names; the game's ES modules must import each other
by those names, or a page could mix an old module with a new one after a deploy."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from games.identity import COOKIE_NAME
from games.templatetags.modules import IMPORT
from solver.caches import caches_clear
from tests.games.conftest import game_data, make_room  # noqa: F401 (a fixture)

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "boggle_site.storage.StaticStorage"},
}


def test_collected_modules_import_their_neighbours_by_hashed_name(
    settings: Any, tmp_path: Path
) -> None:
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = STORAGES
    call_command("collectstatic", interactive=False, verbosity=0)
    (room,) = [
        p for p in (tmp_path / "js").glob("room.*.js") if re.fullmatch(r"room\.\w{12}\.js", p.name)
    ]
    imports = re.findall(r'from "(\./[^"]+)"', room.read_text())
    assert imports and all(re.fullmatch(r"\./\w+\.\w{12}\.js", name) for name in imports)
    for name in imports:
        assert (tmp_path / "js" / name[2:]).exists()


def _graph(folder: Path, entry: str) -> dict[str, int]:
    """Return every module the collected `entry` imports, at any depth, with its depth."""
    depth, pending = {}, [(entry, 0)]
    while pending:
        name, level = pending.pop(0)
        for child in re.findall(r'(?:from|import) "\./([^"]+)"', (folder / name).read_text()):
            if child not in depth and child != entry:
                depth[child] = level + 1
                pending.append((child, level + 1))
    return depth


@pytest.mark.django_db
def test_a_page_preloads_every_module_its_entry_imports_at_any_depth(
    settings: Any,
    tmp_path: Path,
    game_data: Any,  # noqa: F811 (the fixture imported above)
) -> None:
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = STORAGES
    settings.DEBUG = False
    call_command("collectstatic", interactive=False, verbosity=0)
    caches_clear("module imports")
    room, _, cookie = make_room(nickname="Ann")
    client = Client()
    client.cookies[COOKIE_NAME] = cookie
    html = client.get(f"/r/{room.code}/").content.decode()
    (entry,) = re.findall(r'<script type="module" src="/static/js/([^"]+)"', html)
    preloaded = re.findall(r'<link rel="modulepreload" href="/static/js/([^"]+)">', html)
    graph = _graph(tmp_path / "js", entry)
    assert sorted(preloaded) == sorted(graph)  # hashed names, each once, the entry not again
    assert max(graph.values()) >= 3  # without the links, as many round trips as this
    assert html.index("modulepreload") < html.index('<script type="module"')


def test_the_import_pattern_reads_every_static_form_and_no_dynamic_one() -> None:
    source = (
        'import { a } from "./a.js";\n'
        "import {\n  b,\n  c,\n} from './b.js';\n"
        'export { d } from "./d.js";\n'
        'import "./side.js";\n'
        'const late = await import("./late.js");\n'
        '// a comment that says from "https://example.com/x.js"\n'
    )
    assert IMPORT.findall(source) == ["./a.js", "./b.js", "./d.js", "./side.js"]
