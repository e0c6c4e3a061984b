"""Account pages: sign up, log in, log out, change the password, delete the account.

Django's auth does the work (its forms, password validators and sessions; django-axes counts
wrong passwords and locks a username out at one address, settings.AXES_*); these views tie
the account to the player identity the browser plays as (games.identity), so what a browser
played before signing up or logging in becomes the account's.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login as auth_login
from django.contrib.auth import logout as auth_logout
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST

from games.accounts.forms import DeleteAccountForm, SignUpForm
from games.accounts.services import (
    account_create,
    account_delete,
    identity_merge,
    password_changed,
)
from games.identity import request_identity, request_identity_forget, request_identity_switch
from games.limits.throttle import (
    ACCOUNTS_CREATED,
    PASSWORDS_RETYPED,
    SIGNUPS_FAILED,
    account_key,
    guard_creations,
    guard_failures,
)
from games.realtime.runner import service_run_sync
from games.rules import clock

# Signing up logs in at once, through Django's own backend (axes only counts failures).
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
PASSWORD_CHANGED = "Your password was changed. Your other devices must log in again."


def _next_or_record(request: HttpRequest) -> HttpResponse:
    """Redirect to the page the player came from (this site's only), else their record."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return redirect(target if target and safe else "record")


def _status(request: HttpRequest) -> int:
    return 400 if request.method == "POST" else 200


@sensitive_post_parameters("password1", "password2")
@never_cache
@guard_creations(ACCOUNTS_CREATED)
@guard_failures(SIGNUPS_FAILED)
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account that keeps everything this browser played so far, and log in."""
    if request.user.is_authenticated:
        return redirect("record")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user, identity = account_create(
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
            identity=request_identity(request),
        )
        auth_login(request, user, backend=MODEL_BACKEND)
        request_identity_switch(request, identity)
        return _next_or_record(request)
    context = {"form": form, "next": request.GET.get("next", "")}
    return render(request, "accounts/signup.html", context, status=_status(request))


@sensitive_post_parameters("password")
@never_cache
def login(request: HttpRequest) -> HttpResponse:
    """Log in; what this browser played anonymously joins the account's record, and the
    browser plays as the account from now on (on this device as on every other)."""
    if request.user.is_authenticated:
        return redirect("record")
    form = AuthenticationForm(request, data=request.POST or None)
    if request.method == "POST" and form.is_valid():
        before = request_identity(request)  # the browser's anonymous identity, if any
        user = form.get_user()
        auth_login(request, user)
        merged = service_run_sync(lambda: identity_merge(source=before, user=user, now=clock.now()))
        request_identity_switch(request, merged)
        return _next_or_record(request)
    context = {"form": form, "next": request.POST.get("next") or request.GET.get("next", "")}
    return render(request, "accounts/login.html", context, status=_status(request))


@require_POST
def logout(request: HttpRequest) -> HttpResponse:
    """Log out: the browser forgets the account and plays as a new anonymous player."""
    auth_logout(request)
    request_identity_forget(request)
    return redirect("home")


@sensitive_post_parameters("old_password", "new_password1", "new_password2")
@never_cache
@login_required
@guard_failures(PASSWORDS_RETYPED, account_key)
def password_change(request: HttpRequest) -> HttpResponse:
    """Change the password; this browser stays logged in, every other session ends."""
    assert isinstance(request.user, User)
    form = PasswordChangeForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        update_session_auth_hash(request, user)
        password_changed(user=user)
        messages.success(request, PASSWORD_CHANGED)
        return redirect("record")
    return render(request, "accounts/password.html", {"form": form}, status=_status(request))


@sensitive_post_parameters("password")
@never_cache
@login_required
@guard_failures(PASSWORDS_RETYPED, account_key)
def account_delete_view(request: HttpRequest) -> HttpResponse:
    """Delete the account and its record, once the password is typed again."""
    user = request.user
    assert isinstance(user, User)
    form = DeleteAccountForm(user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        service_run_sync(lambda: account_delete(user=user, now=clock.now()))
        auth_logout(request)
        request_identity_forget(request)
        return render(request, "accounts/deleted.html")
    return render(request, "accounts/delete.html", {"form": form}, status=_status(request))
