"""Reading an uploaded word list safely: name, size caps, gzip, UTF-8, then normalisation.

Everything is checked before anything is stored, so a bad file changes nothing. A gzip file is
decompressed a chunk at a time and abandoned as soon as its text passes the cap, so a gzip bomb
costs at most the cap in memory and time.
"""

from __future__ import annotations

import codecs
import gzip
import zlib
from dataclasses import dataclass
from typing import BinaryIO

from solver.engine.wordlist import WordList, WordListError, parse_word_list

MiB = 1 << 20
CHUNK_BYTES = 256 * 1024
GZIP_MAGIC = b"\x1f\x8b"
ALLOWED_SUFFIXES = (".txt", ".txt.gz")

# Error messages, one per rule (tests assert them by name).
BAD_NAME = "Upload a .txt or .txt.gz file (this one is called {name})."
UPLOAD_TOO_BIG = "The file is {size:.1f} MiB; uploads are limited to {limit:.0f} MiB."
TEXT_TOO_BIG = (
    "The word list is larger than {limit:.0f} MiB once decompressed; reading stopped there."
)
BAD_GZIP = "The file is not valid gzip data ({detail})."
NOT_UTF8 = (
    "The file is not UTF-8 text (the first bad byte is on line {line}). "
    "Save it as UTF-8 and upload it again."
)
EMPTY = "The file is empty: it contains no words."


class UploadError(ValueError):
    """An uploaded word list that was refused; the message is meant for the person uploading."""


@dataclass(frozen=True)
class UploadLimits:
    """How big an upload may be, compressed and once decompressed."""

    upload_bytes: int = 20 * MiB
    text_bytes: int = 64 * MiB


def upload_report(word_list: WordList) -> str:
    """Return what normalisation did: duplicates removed and lines skipped, with examples."""
    lines = []
    if word_list.duplicates:
        lines.append(f"removed {word_list.duplicates} duplicate word(s)")
    if skipped := word_list.skipped_report():
        lines.append(skipped)
    return "\n".join(lines)


def upload_read(
    fileobj: BinaryIO,
    *,
    name: str,
    size: int | None,
    alphabet: str,
    limits: UploadLimits | None = None,
) -> WordList:
    """Return the normalised word list in an uploaded file, or raise UploadError saying why."""
    limits = limits or UploadLimits()
    if not name.lower().endswith(ALLOWED_SUFFIXES):
        raise UploadError(BAD_NAME.format(name=name))
    if size is not None and size > limits.upload_bytes:
        raise UploadError(UPLOAD_TOO_BIG.format(size=size / MiB, limit=limits.upload_bytes / MiB))
    fileobj.seek(0)
    compressed = fileobj.read(len(GZIP_MAGIC)) == GZIP_MAGIC
    fileobj.seek(0)
    stream = gzip.GzipFile(fileobj=fileobj, mode="rb") if compressed else fileobj
    text = _decode(_read_capped(stream, limits.text_bytes))
    if text.isspace() or not text:
        raise UploadError(EMPTY)
    try:
        return parse_word_list(text, name, alphabet)
    except WordListError as exc:  # every word skipped, or too many different letters
        raise UploadError(str(exc)) from None


def _read_capped(
    stream: BinaryIO | gzip.GzipFile, limit: int, too_big: str = TEXT_TOO_BIG
) -> bytes:
    """Return all of a stream, stopping (with the error too_big) as soon as it passes limit
    bytes."""
    parts: list[bytes] = []
    total = 0
    try:
        while chunk := stream.read(CHUNK_BYTES):
            total += len(chunk)
            if total > limit:
                raise UploadError(too_big.format(limit=limit / MiB))
            parts.append(chunk)
    except (OSError, EOFError, zlib.error) as exc:
        raise UploadError(BAD_GZIP.format(detail=exc)) from None
    return b"".join(parts)


def _decode(raw: bytes) -> str:
    """Return UTF-8 bytes as text without a byte-order mark."""
    try:
        return codecs.decode(raw, "utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise UploadError(NOT_UTF8.format(line=line)) from None
