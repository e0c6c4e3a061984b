"""In production, static files get hashed names; the game's ES modules must import each other
by those names, or a page could mix an old module with a new one after a deploy."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from django.core.management import call_command

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
