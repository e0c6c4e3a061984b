"""The admin of daily attempts: every attempt, and the queue of ranked attempts held for
review (played fuller or faster than people play: games.daily.rules.review_reason), which an
admin ranks (its score joins the leaderboard) or keeps off (games.daily.scores.attempt_review).
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from games.daily.scores import HELD, attempt_review
from games.models import DailyAttempt


@admin.register(DailyAttempt)
class DailyAttemptAdmin(admin.ModelAdmin):
    """Daily attempts, newest first; read only, but for the review's two actions."""

    list_display = (
        "started_at", "board", "nickname", "ranked", "score", "words", "review", "review_reason"
    )  # fmt: skip
    list_filter = ("review", "ranked", "board__game", "board__day")
    list_select_related = ("board",)
    search_fields = ("nickname", "player_key", "room__code")
    ordering = ("-id",)
    actions = ("rank_held", "keep_off")
    readonly_fields = [field.name for field in DailyAttempt._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        """Attempts come from players only."""
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        """An attempt goes with its player's account, never alone."""
        return False

    def _review(self, request: HttpRequest, queryset: QuerySet[DailyAttempt], rank: bool) -> None:
        held = list(queryset.filter(review=HELD).values_list("pk", flat=True))
        if not held:
            self.message_user(request, "None of those attempts is held for review.", messages.ERROR)
            return
        for attempt_id in held:
            self.message_user(request, attempt_review(attempt_id=attempt_id, rank=rank))

    @admin.action(description="Rank the held attempts: their scores join the leaderboard")
    def rank_held(self, request: HttpRequest, queryset: QuerySet[DailyAttempt]) -> None:
        self._review(request, queryset, rank=True)

    @admin.action(description="Keep the held attempts off the leaderboard")
    def keep_off(self, request: HttpRequest, queryset: QuerySet[DailyAttempt]) -> None:
        self._review(request, queryset, rank=False)
