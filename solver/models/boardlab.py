"""The board lab's rows: a kind of board (dictionary, dice or free faces, size, rules), the
searches run for it, the best boards they found, and the standing of random boards."""

from __future__ import annotations

from django.db import models

from solver.engine.rules import Rules
from solver.models.choices import SCORING_CHOICES
from solver.models.dice import DiceSet
from solver.models.dictionaries import Dictionary


class BoardSpace(models.TextChoices):
    """Where a board search moves: among rolls of a dice set, or over free faces."""

    DICE = "dice", "rolls of a dice set"
    FREE = "free", "free faces"


class BoardObjective(models.TextChoices):
    """What a board search is after (see solver/engine for the search itself)."""

    MAX_SCORE = "max-score", "highest score"
    MIN_SCORE = "min-score", "lowest score"
    MOST_WORDS = "most-words", "most words"
    MOST_LONG_WORDS = "most-long-words", "most long words"
    TARGET = "target", "exact score"


# What names a kind of board, one place for every model, form and admin page that lists it:
# its dictionary, where its faces come from (a dice set or free faces), its grid and its rules.
RULE_FIELDS = ("min_length", "adjacency", "scoring")
KIND_FIELDS = ("dictionary", "space", "dice_set", "rows", "cols", *RULE_FIELDS)


class BoardKindFields(models.Model):
    """The fields that say which kind of board a search, a record or a standing is about:
    the dictionary, the grid and the rules (each model adds its space or dice set)."""

    dictionary = models.ForeignKey(Dictionary, on_delete=models.CASCADE, related_name="+")
    rows = models.PositiveSmallIntegerField()
    cols = models.PositiveSmallIntegerField()
    min_length = models.PositiveSmallIntegerField(default=3)
    adjacency = models.CharField(max_length=8, default="king")
    scoring = models.CharField(max_length=10, choices=SCORING_CHOICES, default="classic")

    class Meta:
        abstract = True

    @property
    def rules(self) -> Rules:
        """Return the rules its boards are scored by."""
        return Rules(self.min_length, self.adjacency, self.scoring)  # type: ignore[arg-type]

    @property
    def kind_label(self) -> str:
        """Return the dictionary and the dice set or size, e.g. "yawl, new16" or "yawl, 5×5"."""
        dice_set = getattr(self, "dice_set", None)
        space = dice_set.slug if dice_set is not None else f"{self.rows}×{self.cols}"
        return f"{self.dictionary.slug}, {space}"


class BoardSearchRun(BoardKindFields):
    """One board search, started from the command line or the admin, and how far it got.

    ``progress`` is rewritten while the search runs (best value and board so far, boards
    scored, boards per second, seconds elapsed) so a page can show it.
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "queued"
        RUNNING = "running", "running"
        DONE = "done", "done"
        STOPPED = "stopped", "stopped"
        FAILED = "failed", "failed"

    space = models.CharField(max_length=4, choices=BoardSpace.choices)
    dice_set = models.ForeignKey(
        DiceSet, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    objective = models.CharField(max_length=20, choices=BoardObjective.choices)
    parameter = models.PositiveIntegerField(
        default=0, help_text="The target score, or the least letters of a long word; else 0."
    )
    seconds = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    jobs = models.PositiveSmallIntegerField(default=1)
    started_by = models.CharField(max_length=150, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    heard_at = models.DateTimeField(
        null=True, blank=True, help_text="When the search's process last said it is alive."
    )
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"search #{self.pk}: {self.objective} ({self.status})"


class BoardProof(BoardKindFields):
    """A proof of the best board of free faces of one kind (dictionary, size, rules), started
    from the command line or the admin, how far it got, and what it proved.

    The proof itself is the engine's (solver.engine.prover); it checkpoints to ``checkpoint``
    and writes ``progress`` (top classes done, boards covered, rate, time left) as it goes.
    A complete proof marks the records of its best boards ``proof``: proven best.
    """

    Status = BoardSearchRun.Status  # the same life: queued, running, done, stopped, failed

    dictionary_hash = models.CharField(max_length=64)
    target = models.PositiveIntegerField(help_text="The score a board must reach to be kept.")
    buckets = models.CharField(max_length=200, blank=True, help_text="The letter buckets.")
    jobs = models.PositiveSmallIntegerField(default=1)
    started_by = models.CharField(max_length=150, blank=True)
    status = models.CharField(
        max_length=10,
        choices=Status.choices,
        default=Status.QUEUED,
    )
    checkpoint = models.CharField(max_length=500, help_text="The file the proof is saved to.")
    progress = models.JSONField(default=dict, blank=True)
    best_score = models.IntegerField(null=True, blank=True)
    best_boards = models.CharField(max_length=400, blank=True, help_text="The best boards' rows.")
    figures = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    heard_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"proof #{self.pk}: {self.rows}x{self.cols} ({self.status})"

    @property
    def proven(self) -> bool:
        """Return whether the proof covered every board and found its best."""
        return self.status == self.Status.DONE and self.best_score is not None


class BoardRecord(BoardKindFields):
    """A board a search found, verified by the reference search, kept per objective.

    The kind of board is the dictionary (at one ``content_hash``), the space (a dice set,
    or free faces of a size) and the rules; ``value`` is the objective's measure of it.
    """

    dictionary_hash = models.CharField(max_length=64)
    space = models.CharField(max_length=4, choices=BoardSpace.choices)
    dice_set = models.ForeignKey(
        DiceSet, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    objective = models.CharField(max_length=20, choices=BoardObjective.choices)
    parameter = models.PositiveIntegerField(default=0)
    board = models.CharField(max_length=400, help_text="The share code.")
    board_rows = models.CharField(max_length=400, help_text="Rows joined by '/'.")
    score = models.IntegerField()
    words = models.PositiveIntegerField()
    value = models.IntegerField(help_text="The objective's measure of the board.")
    run = models.ForeignKey(
        BoardSearchRun, null=True, blank=True, on_delete=models.SET_NULL, related_name="records"
    )
    found_by = models.CharField(max_length=200, help_text="The command or search that found it.")
    seed = models.BigIntegerField(null=True, blank=True)
    proof = models.ForeignKey(
        BoardProof,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="records",
        help_text="The proof that this board is the best of its kind (proven best), if any.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["dictionary", "space", "objective", "-value"]
        constraints = [
            models.UniqueConstraint(
                fields=[
                    "dictionary",
                    "dictionary_hash",
                    "space",
                    "dice_set",
                    "rows",
                    "cols",
                    *RULE_FIELDS,
                    "objective",
                    "parameter",
                    "board",
                ],  # fmt: skip
                name="board_record_once_per_kind",
            ),
            # NULLs are distinct in a unique index, so free-face records (no dice set) need
            # their own constraint for a board found twice to be stored once.
            models.UniqueConstraint(
                fields=[
                    "dictionary",
                    "dictionary_hash",
                    "space",
                    "rows",
                    "cols",
                    *RULE_FIELDS,
                    "objective",
                    "parameter",
                    "board",
                ],  # fmt: skip
                condition=models.Q(dice_set__isnull=True),
                name="board_record_once_per_free_kind",
            ),
        ]
        indexes = [models.Index(fields=["dictionary", "space", "objective", "value"])]

    def __str__(self) -> str:
        return f"{self.board_rows} ({self.objective} {self.value})"


class BoardStanding(BoardKindFields):
    """The distribution of scores and word counts over random boards of one kind.

    Computed once per dictionary version, dice set, size and rules and then read by every
    worker: ``score_quantiles[k]`` is the score at percentile k/``steps`` (likewise
    ``word_quantiles``), from ``samples`` boards rolled with ``seed``.
    """

    dictionary_hash = models.CharField(max_length=64)
    dice_set = models.ForeignKey(DiceSet, on_delete=models.CASCADE, related_name="+")
    samples = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    score_quantiles = models.JSONField()
    word_quantiles = models.JSONField()
    seconds = models.FloatField(help_text="How long computing it took.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=[
                    "dictionary",
                    "dictionary_hash",
                    "dice_set",
                    "rows",
                    "cols",
                    *RULE_FIELDS,
                ],  # fmt: skip
                name="board_standing_once_per_kind",
            )
        ]

    def __str__(self) -> str:
        return f"standing of {self.dice_set} {self.rows}×{self.cols} ({self.samples} boards)"
