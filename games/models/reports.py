"""Word reports: a player questioning a word of a finished round, and the admin's decision."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models.rooms import Player
from games.models.rounds import Round


class WordReport(models.Model):
    """A player's report on a word of a finished round, for the admin of its dictionary.

    It never changes the round: the outcome only changes the dictionary's live list, through
    the dictionary's own extras and exclusions, for the rounds after.
    """

    class Kind(models.TextChoices):
        SHOULD_NOT_COUNT = "should_not_count", "this should not count"
        IS_A_WORD = "is_a_word", "this is a word"

    class Outcome(models.TextChoices):
        PENDING = "pending", "pending"
        REMOVED = "removed", "removed from the list"
        ADDED = "added", "added to the list"
        DISMISSED = "dismissed", "dismissed"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="word_reports")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="word_reports")
    dictionary = models.ForeignKey(
        "solver.Dictionary",
        on_delete=models.CASCADE,
        related_name="word_reports",
        help_text="the dictionary the round was played with, whose queue shows the report",
    )
    word = models.CharField(max_length=255)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    reason = models.CharField(max_length=200, blank=True, help_text="the player's own words")
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.PENDING)
    created_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["round", "player", "word"], name="report_once_per_player_word_round"
            ),
        ]
        indexes = [
            models.Index(fields=["dictionary", "outcome", "word"], name="word_report_queue"),
        ]

    def __str__(self) -> str:
        return f"{self.word}: {self.get_kind_display()} ({self.outcome})"
