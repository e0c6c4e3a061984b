"""Dictionaries: a word list (stored packed, with its content hash), its alphabet and
language, and the words an admin added or removed since."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from solver.engine.wordlist import MAX_ALPHABET, MAX_WORD_LETTERS
from solver.models.choices import ENGLISH_ALPHABET


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
