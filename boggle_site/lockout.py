"""The page a sign-in gets while django-axes has locked it out: the admin's, or a player's
login form saying why."""

from __future__ import annotations

from typing import Any

from axes.helpers import get_cool_off  # type: ignore[import-untyped]
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse


def locked_out(request: HttpRequest, response: Any, credentials: Any) -> HttpResponse:
    """Return 429 and a page saying why the sign-in is refused and for how long: the
    player's login form for a player, the admin's page for anyone else."""
    cool_off = get_cool_off(request)
    minutes = max(1, round(cool_off.total_seconds() / 60)) if cool_off else None
    context: dict[str, Any] = {"failure_limit": settings.AXES_FAILURE_LIMIT, "minutes": minutes}
    if request.path == reverse("login"):
        username = (credentials or {}).get("username", "")
        context["form"] = AuthenticationForm(request, initial={"username": username})
        context["locked_out"] = True
        return render(request, "accounts/login.html", context, status=429)
    return render(request, "admin_locked_out.html", context, status=429)
