"""settings.MIDDLEWARE as a list in which each of boggle_site.loop_middleware's classes counts
as the Django middleware it runs.

Django's deploy checks (`manage.py check --deploy`) look for their middleware by its dotted
path (`"django.middleware.security.SecurityMiddleware" in settings.MIDDLEWARE`), not for a
subclass of it: with the loop versions listed instead, they would say the middleware is
missing and skip the checks of its settings (HSTS, secure cookies). Only paths are named
here, so settings.py can use this before Django has loaded anything.
"""

from __future__ import annotations

from typing import Any

LOOP = "boggle_site.loop_middleware."
# Each Django middleware the loop versions run, by its path: the loop version's class name
# (the same as Django's).
RUN_ON_THE_LOOP = {
    path: path.rsplit(".", 1)[1]
    for path in (
        "django.middleware.security.SecurityMiddleware",
        "django.contrib.sessions.middleware.SessionMiddleware",
        "django.middleware.common.CommonMiddleware",
        "django.middleware.csrf.CsrfViewMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
        "django.contrib.messages.middleware.MessageMiddleware",
        "django.middleware.clickjacking.XFrameOptionsMiddleware",
    )
}


class MiddlewareList(list[str]):
    """A list of middleware paths that also holds each Django path whose loop version it
    holds (for `in`, as the checks ask)."""

    def __contains__(self, path: Any) -> bool:
        if list.__contains__(self, path):
            return True
        name = RUN_ON_THE_LOOP.get(path) if isinstance(path, str) else None
        return name is not None and list.__contains__(self, LOOP + name)
