"""The forms of a player's account: Django's own, worded for players, with no e-mail."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User

USERNAME_TAKEN = "That username is taken. Choose another."
WRONG_PASSWORD = "That is not your password."


class SignUpForm(UserCreationForm):
    """A username and a password typed twice; Django's password validators apply
    (settings.AUTH_PASSWORD_VALIDATORS) and a username differing only in case is taken."""

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]
        model = User
        fields = ("username",)
        error_messages = {"username": {"unique": USERNAME_TAKEN}}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].help_text = (
            "Up to 150 letters, digits and @ . + - _ only. Others see your nicknames in rooms, "
            "never this name."
        )

    def clean_username(self) -> str:
        """Return the username, refusing one taken in any case with the players' words."""
        username: str = self.cleaned_data["username"]
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(USERNAME_TAKEN, code="unique")
        return username


class DeleteAccountForm(forms.Form):
    """Deleting an account asks for its password again."""

    password = forms.CharField(
        label="Your password", strip=False, widget=forms.PasswordInput(attrs={"autofocus": True})
    )

    def __init__(self, user: User, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        """Return the password if it is the account's."""
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(WRONG_PASSWORD, code="wrong_password")
        return password
