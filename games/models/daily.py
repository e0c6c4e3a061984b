"""The daily boards: a day's board per game, each player's attempt at it (a solo room), and
the histogram of ranked scores the leaderboard's percentiles are read from."""

from __future__ import annotations

from django.db import models

from games.models.identities import PlayerIdentity
from games.models.rooms import Room


class DailyBoard(models.Model):
    """The board of one daily game on one UTC day: drawn once from the date and the server's
    secret, stored, and read by every worker from then on (games.daily.services)."""

    game = models.CharField(max_length=16, help_text="a daily game's slug (4x4, 5x5)")
    day = models.DateField()
    board = models.CharField(max_length=600, help_text="share code of the board")
    seed = models.BigIntegerField(help_text="derived from the game, the date and the secret")
    dictionary = models.ForeignKey(
        "solver.Dictionary", null=True, on_delete=models.SET_NULL, related_name="+"
    )
    dictionary_hash = models.CharField(max_length=64)
    words = models.PositiveIntegerField(help_text="how many words the board holds")
    max_score = models.PositiveIntegerField()
    solution = models.JSONField(
        default=list,
        help_text="every word on the board, as a round stores them: [word, path, points]; "
        "solved once when the board is drawn, copied into each attempt's round",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "day"], name="one_daily_board_a_day")
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.day}"


class DailyAttempt(models.Model):
    """One player's play of a daily board: a solo room with one round on that board. Ranked
    if played on its own day and the player's first (without an account, also the first from
    its network); unranked replays of past days too. A ranked attempt counts on the
    leaderboard once finished, unless held for review."""

    board = models.ForeignKey(DailyBoard, on_delete=models.CASCADE, related_name="attempts")
    identity = models.ForeignKey(
        PlayerIdentity, null=True, on_delete=models.SET_NULL, related_name="daily_attempts"
    )
    player_key = models.CharField(
        max_length=32,
        help_text="who counts as one player: 'u<account id>' or 'i<identity id>'; "
        "one ranked attempt per board each",
    )
    room = models.OneToOneField(Room, on_delete=models.CASCADE, related_name="daily_attempt")
    nickname = models.CharField(max_length=24)
    ranked = models.BooleanField()
    address_key = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text="the network it was started from (as the throttles count addresses): one "
        "ranked attempt per board for all the players there without an account",
    )
    review = models.CharField(
        max_length=8,
        blank=True,
        default="",
        choices=[("", "none"), ("held", "held for review"), ("rejected", "kept off")],
        help_text="a ranked attempt played faster or fuller than a person plays waits here "
        "for an admin before it joins the leaderboard ('held'), or stays off it ('rejected')",
    )
    review_reason = models.CharField(max_length=200, blank=True, default="")
    started_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    # Signed: a round's score is its words' points less the hints taken, which can go below 0.
    score = models.IntegerField(default=0)
    words = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["board", "player_key"],
                condition=models.Q(ranked=True),
                name="one_ranked_attempt_per_player",
            )
        ]
        indexes = [
            # The day's leaderboard, a rank (scores above) and a percentile (scores below):
            # range scans of one board's finished ranked attempts, best first.
            models.Index(
                fields=["board", "-score", "id"],
                condition=models.Q(ranked=True, finished_at__isnull=False),
                name="daily_leaderboard",
            ),
            # A player's days (streaks) and running attempts.
            models.Index(fields=["player_key", "board"], name="daily_attempts_of_player"),
            # Whether a network has a ranked attempt at a board without an account.
            models.Index(
                fields=["board", "address_key"],
                condition=models.Q(ranked=True),
                name="daily_ranked_per_network",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.nickname} on {self.board}"


class DailyScore(models.Model):
    """How many ranked players finished a daily board with one score: the board's score
    histogram, a few hundred rows at most, from which ranks, percentiles, counts and where a
    leaderboard page starts are read without counting the attempts themselves."""

    board = models.ForeignKey(DailyBoard, on_delete=models.CASCADE, related_name="scores")
    score = models.IntegerField()  # signed, as DailyAttempt.score
    players = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["board", "score"], name="one_count_per_daily_score")
        ]

    def __str__(self) -> str:
        return f"{self.players} scored {self.score} on {self.board}"
