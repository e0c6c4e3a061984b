"""The admin of definition sources: upload a WordNet archive or a word<TAB>definition list.

A source serves the dictionaries of its language, before the shipped WordNet (English).
The upload is read and checked in full in the form; nothing changes unless all of it is usable.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest
from django.utils.timezone import localtime

from solver.definitions.services import definition_source_save
from solver.definitions.uploads import DefinitionLimits, DefinitionUpload, definitions_upload_read
from solver.dictionaries.uploads import UploadError
from solver.models import DefinitionSource

FILE_REQUIRED = "Upload the definitions (a WordNet archive or a .tsv list) of the new source."
DETAILS = ["language", "name", "licence", "use_shipped_too", "is_active"]
FACTS = ["kind", "file_name", "headword_count", "sense_count", "uploaded_at", "upload_report"]


class DefinitionSourceForm(forms.ModelForm):
    """A source's details and, when a file is given, its glossary read and checked in full."""

    source_file = forms.FileField(
        required=False,
        label="Definitions",
        help_text=(
            "A WordNet database as a .zip or .tar(.gz/.xz/.bz2) archive of its dict/ files "
            "(data.noun, index.noun, … and the .exc lists), or a UTF-8 list with a word, a tab "
            "and its definition on each line (.tsv or .txt, optionally .gz; repeat a word for "
            "more senses). Uploading replaces the source's definitions; nothing changes "
            "unless the whole file is valid."
        ),
    )

    class Meta:
        model = DefinitionSource
        fields = DETAILS

    upload: DefinitionUpload | None = None
    limits = DefinitionLimits()

    def clean_language(self) -> str:
        """Return the language tag as typed, without spaces."""
        return str(self.cleaned_data["language"]).strip()

    def clean(self) -> dict[str, Any]:
        """Read and check an uploaded file; refuse the whole form if it is not usable."""
        cleaned: dict[str, Any] = super().clean() or {}
        upload = cleaned.get("source_file")
        if not upload:
            if self.instance.pk is None:
                self.add_error("source_file", FILE_REQUIRED)
            return cleaned
        try:
            self.upload = definitions_upload_read(
                upload, name=upload.name, size=upload.size, limits=self.limits
            )
        except UploadError as exc:
            self.add_error("source_file", str(exc))
        return cleaned


@admin.register(DefinitionSource)
class DefinitionSourceAdmin(admin.ModelAdmin):
    form = DefinitionSourceForm
    list_display = [
        "language",
        "name",
        "kind",
        "headwords",
        "use_shipped_too",
        "is_active",
        "uploaded",
    ]
    list_filter = ["kind", "is_active"]
    search_fields = ["language", "name"]
    readonly_fields = FACTS

    @admin.display(description="headwords", ordering="headword_count")
    def headwords(self, source: DefinitionSource) -> str:
        """Return how many words the source defines, e.g. 63,702."""
        return f"{source.headword_count:,}"

    @admin.display(description="uploaded", ordering="uploaded_at")
    def uploaded(self, source: DefinitionSource) -> str:
        """Return when the source's file was last uploaded, in the site's time zone."""
        return localtime(source.uploaded_at).strftime("%Y-%m-%d %H:%M")

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        """Return the details, the upload and (on the change page) what is stored now."""
        fieldsets: list[Any] = [(None, {"fields": DETAILS}), ("File", {"fields": ["source_file"]})]
        if obj is not None:
            fieldsets.append(("Stored definitions", {"fields": FACTS}))
        return fieldsets

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        """Save the details and any uploaded glossary through the service."""
        upload = form.upload
        name = form.cleaned_data["source_file"].name if upload is not None else ""
        definition_source_save(source=obj, upload=upload, file_name=name)
        if upload is not None:
            messages.success(
                request,
                f"Stored definitions of {obj.headword_count:,} words "
                f"({obj.sense_count:,} senses) from {name}.",
            )
            for line in upload.report.splitlines():
                messages.warning(request, line)
