"""Rounds and what players did in them: accepted words, hints taken, refused words."""

from __future__ import annotations

from django.db import models

from games.models.rooms import Player, Room
from games.protocol import HINT_KINDS


class Round(models.Model):
    """One board played in a room, from the countdown to the results."""

    RUNNING = "running"
    FINISHED = "finished"
    STATUSES = [(RUNNING, "running"), (FINISHED, "finished")]

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=STATUSES, default=RUNNING)
    board = models.CharField(max_length=600, help_text="share code of the board")
    seed = models.BigIntegerField(help_text="seed of the random generator that drew the board")
    settings = models.JSONField(help_text="the room settings this round was played with")
    dictionary = models.ForeignKey(
        "solver.Dictionary", null=True, on_delete=models.SET_NULL, related_name="+"
    )
    dictionary_hash = models.CharField(max_length=64, help_text="the list the round plays with")
    solution = models.JSONField(help_text="every word on the board: [word, path, points]")
    max_score = models.PositiveIntegerField()
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True, help_text="empty when untimed")
    finished_at = models.DateTimeField(null=True, blank=True)
    results = models.JSONField(null=True, blank=True)
    standing = models.JSONField(
        null=True,
        blank=True,
        help_text="how the board ranks among boards of its kind (shown with the results only)",
    )
    given = models.BooleanField(default=False, help_text="the host gave this board")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="unique_round_number"),
            models.UniqueConstraint(
                fields=["room"], condition=models.Q(status="running"), name="one_running_round"
            ),
        ]
        indexes = [models.Index(fields=["status", "ends_at"], name="round_due")]

    def __str__(self) -> str:
        return f"{self.room_id} round {self.number}"


class Submission(models.Model):
    """A word a player found and the server accepted in a round."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="submissions")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="submissions")
    word = models.CharField(max_length=255)
    path = models.JSONField()
    points = models.PositiveIntegerField()
    client_id = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["round", "player", "word"], name="word_once_per_player"
            ),
            models.UniqueConstraint(
                fields=["round", "player", "client_id"], name="client_id_once_per_player"
            ),
        ]

    def __str__(self) -> str:
        return self.word


class Hint(models.Model):
    """A hint a player took during a round: which kind, and the points it costs them (stored
    before it is answered; the round's results take the cost off their score)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="hints")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="hints")
    kind = models.CharField(max_length=16, choices=[(kind, kind) for kind in HINT_KINDS])
    cost = models.PositiveIntegerField(help_text="points, as the round's settings stated")
    created_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["round", "player"], name="hints_of_player")]

    def __str__(self) -> str:
        return f"{self.kind} hint in round {self.round_id}"


class Refusal(models.Model):
    """A word the server refused a player during a round, kept so that the results can list
    it with the reason and the player may report it ("this is a word")."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="refusals")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="refusals")
    word = models.CharField(max_length=255)
    reason = models.CharField(max_length=32, help_text="a refusal code of games.protocol")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["round", "player", "word"], name="refusal_once_per_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.word} ({self.reason})"
