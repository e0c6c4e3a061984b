"""Definition sources an admin uploads for a language (a WordNet archive or a word list)."""

from __future__ import annotations

from django.db import models


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
