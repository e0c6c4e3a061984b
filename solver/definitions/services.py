"""Changing definition sources: store an uploaded glossary with its details, in one transaction."""

from __future__ import annotations

import hashlib

from django.db import transaction
from django.utils import timezone

from solver.definitions.uploads import DefinitionUpload
from solver.engine.glossary import glossary_encode
from solver.models import DefinitionSource

NEEDS_UPLOAD = "A new definitions source needs its file."


class DefinitionSourceError(ValueError):
    """A change to a definitions source that was refused; the message says why."""


@transaction.atomic
def definition_source_save(
    *, source: DefinitionSource, upload: DefinitionUpload | None = None, file_name: str = ""
) -> DefinitionSource:
    """Save a source's details and, when given, its new glossary (replacing the old one whole).

    A licence left blank is taken from the upload when it carries one (a WordNet header).
    """
    if upload is None:
        if source.pk is None:
            raise DefinitionSourceError(NEEDS_UPLOAD)
        source.save()
        return source
    data = glossary_encode(upload.data)
    source.data = data
    source.content_hash = hashlib.sha256(data).hexdigest()
    source.kind = upload.kind
    source.file_name = file_name[:255]
    source.headword_count = len(upload.data.entries)
    source.sense_count = upload.data.sense_count
    source.upload_report = upload.report
    source.uploaded_at = timezone.now()
    if not source.licence.strip() and upload.licence:
        source.licence = upload.licence
    source.save()
    return source
