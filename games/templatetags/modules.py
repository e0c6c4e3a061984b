"""`{% module_script "js/room.js" %}`: a page's entry module, with a `modulepreload` link for
every module it imports at any depth, so a cold load fetches them all at once instead of one
level of imports per round trip."""

from __future__ import annotations

import re
from functools import cache
from pathlib import PurePosixPath

from django import template
from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from solver.caches import cache_register

register = template.Library()

# The static imports of the game's modules: `import … from "./x.js"`, `export … from "./x.js"`
# and `import "./x.js"` (a dynamic import() is fetched when it runs, and is not preloaded).
IMPORT = re.compile(r"""(?:\bfrom|^\s*import)\s*["'](\./[\w./-]+\.js)["']""", re.MULTILINE)


def module_imports(path: str) -> list[str]:
    """Return the static paths of every module `path` imports, directly or not, nearest
    first, each once; a module the static finders do not know is left out."""
    found: list[str] = []
    pending = [path]
    while pending:
        for child in _direct_imports(pending.pop(0)):
            if child != path and child not in found:
                found.append(child)
                pending.append(child)
    return found


def _direct_imports(path: str) -> tuple[str, ...]:
    # Read once per process in production (the files do not change under a running worker);
    # each time with DEBUG, where they are edited.
    return _read_imports(path) if settings.DEBUG else _read_imports_kept(path)


def _read_imports(path: str) -> tuple[str, ...]:
    source = finders.find(path)
    if not source or isinstance(source, list):
        return ()
    with open(source, encoding="utf-8") as module:
        text = module.read()
    folder = PurePosixPath(path).parent
    return tuple(str(PurePosixPath(folder, name[2:])) for name in IMPORT.findall(text))


_read_imports_kept = cache(_read_imports)
cache_register("module imports", _read_imports_kept.cache_clear)


@register.simple_tag
def module_script(path: str) -> SafeString:
    """Return the page's `<script type="module">` for `path`, after its preload links."""
    links = format_html_join(
        "\n",
        '<link rel="modulepreload" href="{}">',
        ((static(child),) for child in module_imports(path)),
    )
    script = format_html('<script type="module" src="{}"></script>', static(path))
    return format_html("{}\n{}", links, script) if links else script
