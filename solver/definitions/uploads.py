"""Reading an uploaded definitions source safely: a WordNet archive or a word<TAB>definition list.

Checked in full before anything is stored, like word lists (solver/dictionaries/uploads.py, whose
size caps, gzip and UTF-8 reading this shares): a bad file raises UploadError and changes nothing.
An archive is never unpacked to disk; only the WordNet files are read from it, within a cap on what
it unpacks: the sizes its headers declare are added up before a member is skipped, so a bomb costs
at most the cap.
"""

from __future__ import annotations

import gzip
import lzma
import tarfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import BinaryIO

from solver.dictionaries.uploads import (
    GZIP_MAGIC,
    UPLOAD_TOO_BIG,
    MiB,
    UploadError,
    _decode,
    _read_capped,
)
from solver.engine.glossary import GlossaryData
from solver.engine.glossary_tsv import (
    EMPTY,
    LONG_DEFINITION,
    NO_DEFINITION,
    NO_TAB,
    NO_WORDS,
    TsvError,
    parse_tsv,
)
from solver.engine.wordnet import NEEDED_FILES, WordNetError, licence_of, read_wordnet

__all__ = ["EMPTY", "LONG_DEFINITION", "NO_DEFINITION", "NO_TAB", "NO_WORDS", "UPLOAD_TOO_BIG"]

TSV_SUFFIXES = (".tsv", ".tsv.gz", ".txt", ".txt.gz")
ARCHIVE_SUFFIXES = (".zip", ".tar", ".tar.gz", ".tgz", ".tar.xz", ".tar.bz2")

BAD_NAME = (
    "Upload a WordNet archive (.zip, .tar, .tar.gz, .tgz, .tar.xz, .tar.bz2) or a "
    "word<TAB>definition list (.tsv, .txt, optionally .gz); this one is called {name}."
)
ARCHIVE_TOO_BIG = "The archive holds more than {limit:.0f} MiB once unpacked; reading stopped."
TSV_TOO_BIG = (
    "The definitions are larger than {limit:.0f} MiB once decompressed; reading stopped there."
)
BAD_ARCHIVE = "The file is not a readable tar or zip archive ({detail})."
# What a broken archive raises (zip: RuntimeError if encrypted, NotImplementedError for an
# unknown compression method).
ARCHIVE_ERRORS = (
    tarfile.TarError,
    zipfile.BadZipFile,
    EOFError,
    OSError,
    lzma.LZMAError,
    zlib.error,
    RuntimeError,
    NotImplementedError,
)


@dataclass(frozen=True)
class DefinitionLimits:
    """How big an upload may be, compressed and once decompressed."""

    upload_bytes: int = 40 * MiB
    text_bytes: int = 128 * MiB


@dataclass(frozen=True)
class DefinitionUpload:
    """A checked upload: its glossary, kind, the licence it carries and what was skipped."""

    data: GlossaryData
    kind: str  # "wordnet" or "tsv", as DefinitionSource.Kind
    licence: str = ""
    report: str = ""


def definitions_upload_read(
    fileobj: BinaryIO, *, name: str, size: int | None, limits: DefinitionLimits | None = None
) -> DefinitionUpload:
    """Return the glossary in an uploaded file, or raise UploadError saying why not."""
    limits = limits or DefinitionLimits()
    lower = name.lower()
    if not lower.endswith(TSV_SUFFIXES + ARCHIVE_SUFFIXES):
        raise UploadError(BAD_NAME.format(name=name))
    if size is not None and size > limits.upload_bytes:
        raise UploadError(UPLOAD_TOO_BIG.format(size=size / MiB, limit=limits.upload_bytes / MiB))
    fileobj.seek(0)
    if lower.endswith(TSV_SUFFIXES):
        compressed = fileobj.read(len(GZIP_MAGIC)) == GZIP_MAGIC
        fileobj.seek(0)
        stream = gzip.GzipFile(fileobj=fileobj, mode="rb") if compressed else fileobj
        return tsv_read(_decode(_read_capped(stream, limits.text_bytes, TSV_TOO_BIG)))
    files = _archive_files(fileobj, zipped=lower.endswith(".zip"), limit=limits.text_bytes)
    try:
        data = read_wordnet(files.get)
    except WordNetError as exc:
        raise UploadError(str(exc)) from None
    return DefinitionUpload(data, "wordnet", licence_of(files.get))


def _archive_files(fileobj: BinaryIO, *, zipped: bool, limit: int) -> dict[str, bytes]:
    """Return the WordNet files in a tar or zip archive by base name, reading at most limit."""
    try:
        return _zip_files(fileobj, limit) if zipped else _tar_files(fileobj, limit)
    except ARCHIVE_ERRORS as exc:
        raise UploadError(BAD_ARCHIVE.format(detail=exc)) from None


def _tar_files(fileobj: BinaryIO, limit: int) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    declared = 0
    with tarfile.open(fileobj=fileobj, mode="r:*") as archive:
        for member in archive:  # the next header is read only after this check
            declared += max(member.size, 0)
            if declared > limit:
                raise UploadError(ARCHIVE_TOO_BIG.format(limit=limit / MiB))
            base = PurePosixPath(member.name).name
            if member.isfile() and base in NEEDED_FILES:
                extracted = archive.extractfile(member)
                if extracted is not None:
                    files[base] = extracted.read()  # member.size bytes, counted above
    return files


def _zip_files(fileobj: BinaryIO, limit: int) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    total = 0
    with zipfile.ZipFile(fileobj) as archive:
        for info in archive.infolist():
            base = PurePosixPath(info.filename).name
            if info.is_dir() or base not in NEEDED_FILES:
                continue
            with archive.open(info) as member:
                content = member.read(limit - total + 1)  # the declared size may lie
            total += len(content)
            if total > limit:
                raise UploadError(ARCHIVE_TOO_BIG.format(limit=limit / MiB))
            files[base] = content
    return files


def tsv_read(text: str) -> DefinitionUpload:
    """Return the glossary of word<TAB>definition lines (several lines give several senses)."""
    try:
        parsed = parse_tsv(text)
    except TsvError as exc:
        raise UploadError(str(exc)) from None
    return DefinitionUpload(parsed.data, "tsv", "", parsed.report)
