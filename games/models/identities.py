"""A player identity: what a browser's signed cookie names, owned by an account once the
player makes one."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PlayerIdentity(models.Model):
    """Who a player is: an anonymous identity a browser keeps in a signed, HTTP-only cookie
    (games.identity), which owns that browser's seats and everything played from it. An
    account, once the player makes one, owns its identities: the first is the one every
    browser logged in to the account plays as; later ones are browsers whose anonymous play
    was moved into the account at login (games.accounts.services.identity_merge)."""

    key = models.CharField(
        max_length=64, unique=True, help_text="random and secret: what the cookie carries"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="identities",
        help_text="the account that owns this identity, if any",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "player identities"

    def __str__(self) -> str:
        return f"identity {self.pk}" + (f" of {self.user_id}" if self.user_id else "")
