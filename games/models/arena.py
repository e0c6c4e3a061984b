"""The arena's rows: an arena (its schedule's settings, its one room) and each player's entry
in one of its rounds (their own results, stored apart from the round's shared part)."""

from __future__ import annotations

from django.db import models

from games.models.rooms import Player, Room
from games.models.rounds import Round


class Arena(models.Model):
    """A public game that never stops: round k of its schedule starts at epoch + k × period
    (games.arena.schedule.ArenaSchedule), on a board drawn from a seed of the arena and k. Its
    rounds
    are rounds of its room, so words, scoring, results and the record work as in any room."""

    slug = models.SlugField(max_length=32, unique=True)
    name = models.CharField(max_length=60)
    room = models.OneToOneField(Room, on_delete=models.PROTECT, related_name="arena")
    is_active = models.BooleanField(default=True, help_text="listed and played")
    order = models.PositiveSmallIntegerField(default=0, help_text="its place on the home page")
    dice = models.CharField(max_length=50, default="new16", help_text="a dice set's slug")
    rows = models.PositiveSmallIntegerField(default=4, help_text="for letter tables only")
    cols = models.PositiveSmallIntegerField(default=4, help_text="for letter tables only")
    dictionary = models.CharField(
        max_length=50, blank=True, help_text="a dictionary's slug; empty: the site's default"
    )
    min_length = models.PositiveSmallIntegerField(default=3)
    scoring = models.CharField(max_length=10, default="classic")
    adjacency = models.CharField(max_length=10, default="king")
    band = models.CharField(
        max_length=10, blank=True, default="standard", help_text="board richness; empty: any"
    )
    min_words = models.PositiveIntegerField(default=0)
    play_seconds = models.PositiveIntegerField(default=120)
    results_seconds = models.PositiveIntegerField(default=30)
    epoch = models.DateTimeField(help_text="when the round numbered base + 1 started")
    round_base = models.PositiveIntegerField(
        default=0, help_text="rounds numbered before the epoch (timings changed)"
    )
    top_sent_at = models.DateTimeField(
        null=True, blank=True, help_text="when a worker last sent the live top 10"
    )

    class Meta:
        ordering = ["order", "id"]

    def __str__(self) -> str:
        return self.name


class ArenaEntry(models.Model):
    """One player's result in one arena round: their words (each marked when nobody else
    found it), score, rank and percentile among the round's players. Written once, as the
    round is scored, so each player reads their own results without everyone's words."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="arena_entries")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="arena_entries")
    nickname = models.CharField(max_length=24)
    score = models.IntegerField()
    rank = models.PositiveIntegerField()
    below = models.PositiveIntegerField(help_text="how many of the round's players scored less")
    players = models.PositiveIntegerField(help_text="how many played the round")
    words = models.TextField(
        help_text="JSON, [{word, path, points, only_me, struck, zipf, commonness}], the "
        "player's own as their results show them; stored as text, not jsonb: parsing 2,000 "
        "players' jsonb was a third of an arena round's end, and results splice it in as it is"
    )
    word_count = models.PositiveIntegerField(default=0, help_text="how many words they found")
    only_me = models.TextField(
        default="[]", help_text="JSON, the words nobody else found, in alphabetical order"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="one_arena_entry_per_round")
        ]
        indexes = [models.Index(fields=["player", "round"], name="arena_entries_of_player")]

    def __str__(self) -> str:
        return f"{self.nickname} in {self.round}"
