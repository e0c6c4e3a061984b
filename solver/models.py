"""Dictionaries and dice sets: the data an admin manages and every game and command uses."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from solver.engine import dice as engine_dice
from solver.engine.faces import FaceError, normalise_face
from solver.engine.rules import SCORINGS
from solver.engine.wordlist import MAX_ALPHABET, MAX_WORD_LETTERS

SCORING_CHOICES = [(s, s) for s in SCORINGS]
ENGLISH_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class DictionaryManager(models.Manager["Dictionary"]):
    """Leaves the compressed word list in the database unless it is asked for by name."""

    def get_queryset(self) -> models.QuerySet[Dictionary]:
        """Return dictionaries without their (large) stored word list."""
        return super().get_queryset().defer("words_gz")


class Dictionary(models.Model):
    """A word list games are played with: a base list plus single-word extras and exclusions.

    ``content_hash`` is the SHA-256 of the normalised effective list (base + extras −
    exclusions); it names the compiled trie every process loads, so a change to it is how
    workers learn that the list changed.
    """

    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=50, unique=True)
    language = models.CharField(max_length=35, default="en", help_text="A language tag: en, fr…")
    description = models.TextField(blank=True)
    source = models.CharField(max_length=500, blank=True, help_text="Where the list comes from.")
    licence = models.CharField(max_length=200, blank=True)
    alphabet = models.CharField(
        max_length=MAX_ALPHABET,
        default=ENGLISH_ALPHABET,
        help_text="The letters words may use; words with any other letter are skipped.",
    )
    words_gz = models.BinaryField(
        editable=False, help_text="The base list: normalised words, one a line, gzip-compressed."
    )
    word_count = models.PositiveIntegerField(default=0, editable=False)
    content_hash = models.CharField(max_length=64, editable=False, db_index=True)
    upload_report = models.TextField(
        blank=True, editable=False, help_text="Lines skipped when the list was last uploaded."
    )
    is_default = models.BooleanField(default=False, editable=False)
    is_active = models.BooleanField(
        default=True, help_text="Inactive dictionaries cannot be chosen for new games."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = DictionaryManager()

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "dictionaries"
        # Reaching a dictionary through a foreign key (a round's, a daily board's) must not
        # pull its megabyte of words along: the deferring manager serves those too.
        base_manager_name = "objects"
        constraints = [
            models.UniqueConstraint(
                fields=["is_default"],
                condition=models.Q(is_default=True),
                name="solver_dictionary_one_default",
            ),
            models.CheckConstraint(
                condition=models.Q(is_active=True) | models.Q(is_default=False),
                name="solver_dictionary_default_is_active",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class DictionaryWord(models.Model):
    """One word added to (extra) or taken out of (excluded) a dictionary's base list."""

    class Kind(models.TextChoices):
        EXTRA = "extra", "extra"
        EXCLUDED = "excluded", "excluded"

    dictionary = models.ForeignKey(Dictionary, on_delete=models.CASCADE, related_name="changes")
    word = models.CharField(max_length=MAX_WORD_LETTERS)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["word"]
        constraints = [
            models.UniqueConstraint(fields=["dictionary", "word"], name="solver_word_once"),
        ]

    def __str__(self) -> str:
        return f"{self.word} ({self.kind})"


def _faces_error(faces: list[Any], where: str) -> str | None:
    """Return why a list of faces is not in engine form, or None if it is."""
    for face in faces:
        try:
            if not isinstance(face, str) or normalise_face(face or "_") != face:
                return f"{where}: {face!r} is not a face (upper-case letters, '' for a blank)"
        except FaceError as exc:
            return f"{where}: {exc}"
    return None


class DiceSet(models.Model):
    """The dice of a board (each die a list of faces), or a letter-frequency table.

    Faces are stored in engine form: ``"A"``, ``"QU"``, ``"IN"``, ``""`` for a blank. A
    frequency set draws each cell independently and can fill a board of any size; ``rows``
    and ``cols`` are then only its usual size.
    """

    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=50, unique=True)
    description = models.TextField(blank=True)
    rows = models.PositiveSmallIntegerField(default=4)
    cols = models.PositiveSmallIntegerField(default=4)
    dice = models.JSONField(default=list, blank=True, help_text="Each die: a list of faces.")
    letter_frequencies = models.JSONField(
        default=dict, blank=True, help_text="Face → relative weight, instead of dice."
    )
    min_length = models.PositiveSmallIntegerField(default=3)
    scoring = models.CharField(max_length=10, choices=SCORING_CHOICES, default="classic")
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["rows", "name"]

    def __str__(self) -> str:
        return self.name

    @property
    def uses_frequencies(self) -> bool:
        """Return whether boards are drawn letter by letter rather than rolled from dice."""
        return bool(self.letter_frequencies)

    def clean(self) -> None:
        """Check the dice (or the frequency table) against the board size."""
        if self.rows < 1 or self.cols < 1:
            raise ValidationError("A board needs at least one row and one column.")
        if bool(self.dice) == bool(self.letter_frequencies):
            raise ValidationError("Give the dice or a letter-frequency table: one, not both.")
        if self.uses_frequencies:
            self._clean_frequencies()
        else:
            self._clean_dice()

    def _clean_dice(self) -> None:
        dice = self.dice
        if not isinstance(dice, list) or not all(isinstance(d, list) and d for d in dice):
            raise ValidationError({"dice": "Each die must be a non-empty list of faces."})
        for n, die in enumerate(dice, 1):
            if problem := _faces_error(die, f"die {n}"):
                raise ValidationError({"dice": problem})
        if len(dice) != self.rows * self.cols:
            raise ValidationError(
                {"dice": f"{len(dice)} dice cannot fill a {self.rows}×{self.cols} board."}
            )
        sides = sorted({len(die) for die in dice})
        if len(sides) > 1:
            raise ValidationError(
                {"dice": f"Every die needs the same number of faces (found {sides})."}
            )

    def _clean_frequencies(self) -> None:
        table = self.letter_frequencies
        if not isinstance(table, dict):
            raise ValidationError({"letter_frequencies": "Give a table of face → weight."})
        if problem := _faces_error([k for k in table if k], "letter frequencies"):
            raise ValidationError({"letter_frequencies": problem})
        if "" in table or not all(
            isinstance(w, int | float) and not isinstance(w, bool) and w > 0 for w in table.values()
        ):
            raise ValidationError(
                {"letter_frequencies": "Every weight must be a positive number, for a letter."}
            )

    def engine_dice(self) -> engine_dice.DiceSet:
        """Return the engine's form of a dice set (not for a letter-frequency set)."""
        return engine_dice.DiceSet(
            self.slug,
            self.name,
            self.rows,
            self.cols,
            tuple(tuple(die) for die in self.dice),
            self.min_length,
            self.scoring,  # type: ignore[arg-type]
        )


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
                    "min_length",
                    "adjacency",
                    "scoring",
                    "objective",
                    "parameter",
                    "board",
                ],
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
                    "min_length",
                    "adjacency",
                    "scoring",
                    "objective",
                    "parameter",
                    "board",
                ],
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
                    "min_length",
                    "adjacency",
                    "scoring",
                ],
                name="board_standing_once_per_kind",
            )
        ]

    def __str__(self) -> str:
        return f"standing of {self.dice_set} {self.rows}×{self.cols} ({self.samples} boards)"


class DefinitionSourceManager(models.Manager["DefinitionSource"]):
    """Leaves the compressed glossary in the database unless it is asked for by name."""

    def get_queryset(self) -> models.QuerySet[DefinitionSource]:
        """Return definition sources without their (large) stored glossary."""
        return super().get_queryset().defer("data")


class DefinitionSource(models.Model):
    """An uploaded glossary for the dictionaries of one language (solver/definitions/selectors.py).

    Definitions come from the language's active source first; ``use_shipped_too`` lets words
    it lacks fall back to the shipped WordNet (English only). ``data`` is the glossary in the
    engine's format (solver/engine/glossary.py), xz-compressed.
    """

    class Kind(models.TextChoices):
        WORDNET = "wordnet", "WordNet archive"
        TSV = "tsv", "word<TAB>definition list"

    language = models.CharField(
        max_length=35, unique=True, help_text="The dictionaries' language tag: en, fr…"
    )
    name = models.CharField(max_length=100)
    licence = models.TextField(blank=True)
    use_shipped_too = models.BooleanField(
        default=True,
        help_text="Look words this source lacks up in the shipped WordNet (English only).",
    )
    is_active = models.BooleanField(default=True)
    kind = models.CharField(max_length=8, choices=Kind.choices, editable=False)
    file_name = models.CharField(max_length=255, editable=False)
    data = models.BinaryField(editable=False)
    content_hash = models.CharField(max_length=64, editable=False)
    headword_count = models.PositiveIntegerField(default=0, editable=False)
    sense_count = models.PositiveIntegerField(default=0, editable=False)
    upload_report = models.TextField(blank=True, editable=False)
    uploaded_at = models.DateTimeField(editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = DefinitionSourceManager()

    class Meta:
        ordering = ["language"]

    def __str__(self) -> str:
        return f"{self.name} ({self.language})"
