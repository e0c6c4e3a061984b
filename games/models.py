"""Rooms, players, rounds, submissions, refused words, word reports and the room event log.

What matters (accepted words, scores, results, events) is stored here before anyone is
told about it, so no process's memory is ever the only copy.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import models

from games.protocol import CHAT_MAX_CHARS, HINT_KINDS
from games.rules.nicknames import nickname_key


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


class Room(models.Model):
    """A place where friends play rounds together on one board at a time."""

    code = models.CharField(max_length=12, unique=True)
    settings = models.JSONField(default=dict)
    host = models.ForeignKey(
        "Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    seq = models.PositiveBigIntegerField(default=0, help_text="last event sequence number")
    created_at = models.DateTimeField(auto_now_add=True)
    last_activity_at = models.DateTimeField(auto_now_add=True, db_index=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    is_solo = models.BooleanField(
        default=False, help_text="one player against the computer, who takes the rest after"
    )
    is_daily = models.BooleanField(
        default=False, help_text="holds one attempt at a daily board: one round, then no more"
    )
    is_arena = models.BooleanField(
        default=False, help_text="the room of an arena (games.models.Arena): no host, no seat cap"
    )
    next_board = models.CharField(
        max_length=600,
        blank=True,
        help_text="share code of a board the host gave for the next round (used once); "
        "never sent to players before that round starts",
    )

    def __str__(self) -> str:
        return self.code


class PlayerQuerySet(models.QuerySet["Player"]):
    """Seats; creating many at once keys their nicknames as Player.save does one."""

    def bulk_create(self, objs: Iterable[Player], *args: Any, **kwargs: Any) -> list[Player]:
        """Create the seats, with each nickname's look-alike key if none was given."""
        seats = list(objs)
        for seat in seats:
            seat.nickname_key = seat.nickname_key or nickname_key(seat.nickname)
        return super().bulk_create(seats, *args, **kwargs)


class Player(models.Model):
    """A seat in a room, held by one player identity (or a computer player; a seat whose
    player deleted their account keeps no identity and an anonymous name)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="players")
    identity = models.ForeignKey(
        PlayerIdentity, null=True, blank=True, on_delete=models.SET_NULL, related_name="seats"
    )
    nickname = models.CharField(max_length=24)
    nickname_key = models.CharField(
        max_length=255, help_text="what the nickname reads as (games.rules.nicknames.nickname_key)"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    connections = models.PositiveIntegerField(default=0)
    connected_since = models.DateTimeField(null=True, blank=True)
    last_seen_at = models.DateTimeField(auto_now_add=True)
    removed_at = models.DateTimeField(null=True, blank=True)
    total_score = models.IntegerField(default=0)
    bot_level = models.CharField(max_length=12, blank=True, help_text="empty for a person")
    bot_dictionary = models.ForeignKey(
        "solver.Dictionary",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="the words this computer player knows, if not the room's",
    )
    chat_muted = models.BooleanField(default=False, help_text="the host muted them in the chat")

    objects = PlayerQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["room", "identity"], name="one_seat_per_identity"),
            models.UniqueConstraint(fields=["room", "nickname"], name="unique_nickname_in_room"),
            # No two seats in a room whose names read alike ("Host" and "Ηost"), even when
            # two joins race past the check in seat_create.
            models.UniqueConstraint(
                fields=["room", "nickname_key"], name="no_lookalike_nicknames_in_room"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.nickname} in {self.room_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Save the seat, with its nickname's look-alike key if none was given."""
        if not self.nickname_key:
            self.nickname_key = nickname_key(self.nickname)
        super().save(*args, **kwargs)

    @property
    def is_bot(self) -> bool:
        """Return whether this seat is a computer player."""
        return bool(self.bot_level)

    @property
    def is_connected(self) -> bool:
        """Return whether at least one socket of this player is open."""
        return self.connections > 0


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


class RoomEvent(models.Model):
    """One numbered event of a room, kept so a reconnecting client can catch up."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveBigIntegerField()
    type = models.CharField(max_length=32)
    payload = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["room", "seq"], name="unique_event_seq")]

    def __str__(self) -> str:
        return f"{self.room_id}#{self.seq} {self.type}"


class DailyBoard(models.Model):
    """The board of one daily game on one UTC day: drawn once from the date and the server's
    secret, stored, and read by every worker from then on (games.daily.services)."""

    game = models.CharField(max_length=16, help_text="a games.daily.rules.DAILY_GAMES slug")
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
    if played on its own day and the player's first; unranked replays of past days too."""

    board = models.ForeignKey(DailyBoard, on_delete=models.CASCADE, related_name="attempts")
    identity = models.ForeignKey(
        PlayerIdentity, null=True, on_delete=models.SET_NULL, related_name="daily_attempts"
    )
    player_key = models.CharField(
        max_length=32,
        help_text="who counts as one player: 'u<account id>' or 'i<identity id>' "
        "(games.daily.services.player_key); one ranked attempt per board each",
    )
    room = models.OneToOneField(Room, on_delete=models.CASCADE, related_name="daily_attempt")
    nickname = models.CharField(max_length=24)
    ranked = models.BooleanField()
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


# The arena (docs/arena.md) ----------------------------------------------------------------


class Arena(models.Model):
    """A public game that never stops: round k of its schedule starts at epoch + k × period
    (games.arena.schedule.ArenaSchedule), on a board drawn from a seed of the arena and k. Its rounds
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


# Chat and spectators (games.chat.services, games.spectators.services) -------------------


class ChatMessage(models.Model):
    """A line a player wrote in a room's chat: plain text, kept while the room lasts (the
    latest CHAT_SHOWN come with every snapshot; an admin may delete any)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="chat_messages")
    player = models.ForeignKey(
        Player, null=True, on_delete=models.SET_NULL, related_name="chat_messages"
    )
    nickname = models.CharField(max_length=24, help_text="the author's name when they wrote")
    text = models.CharField(max_length=CHAT_MAX_CHARS)
    created_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["room", "-id"], name="chat_of_room"),
            models.Index(fields=["player", "created_at"], name="chat_of_player"),  # the limit
        ]

    def __str__(self) -> str:
        return f"{self.nickname}: {self.text[:40]}"


class Spectator(models.Model):
    """One open spectator socket of a room, counted against BOGGLE_ROOM_SPECTATORS_MAX by
    every worker; one not seen for clock.PRESENCE_TIMEOUT (its worker died) no longer counts."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="spectators")
    channel = models.CharField(max_length=200, unique=True, help_text="the socket's channel")
    opened_at = models.DateTimeField()
    seen_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["room", "seen_at"], name="spectators_of_room")]

    def __str__(self) -> str:
        return f"spectator of {self.room_id}"
