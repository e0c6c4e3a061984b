"""The page an admin sign-in gets while django-axes has locked it out."""

from __future__ import annotations

from typing import Any

from axes.helpers import get_cool_off  # type: ignore[import-untyped]
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def admin_locked_out(request: HttpRequest, response: Any, credentials: Any) -> HttpResponse:
    """Return 429 and a page saying why the sign-in is refused and for how long."""
    cool_off = get_cool_off(request)
    minutes = max(1, round(cool_off.total_seconds() / 60)) if cool_off else None
    context = {"failure_limit": settings.AXES_FAILURE_LIMIT, "minutes": minutes}
    return render(request, "admin_locked_out.html", context, status=429)
