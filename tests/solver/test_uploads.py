"""Uploaded word lists are checked in full, from real files, before anything is stored."""

from __future__ import annotations

import gzip
import tracemalloc
from pathlib import Path

import pytest

from solver.dictionaries.uploads import (
    BAD_GZIP,
    BAD_NAME,
    EMPTY,
    NOT_UTF8,
    TEXT_TOO_BIG,
    UPLOAD_TOO_BIG,
    MiB,
    UploadError,
    UploadLimits,
    upload_read,
    upload_report,
)

AZ = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def read(path: Path, alphabet: str = AZ, limits: UploadLimits | None = None):  # noqa: ANN201
    """Read a file as the admin reads an upload."""
    with path.open("rb") as fh:
        return upload_read(
            fh, name=path.name, size=path.stat().st_size, alphabet=alphabet, limits=limits
        )


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def gzip_bomb(tmp_path: Path, gib: int = 1) -> Path:
    """A 1 MiB file that decompresses to gib GiB of zeros (many small gzip members)."""
    member = gzip.compress(b"\0" * MiB, compresslevel=9)
    return write(tmp_path, "bomb.txt.gz", member * (1024 * gib))


def test_words_are_upper_cased_and_duplicates_removed(tmp_path: Path) -> None:
    words = read(write(tmp_path, "words.txt", b"Cat\ncat\nCAT\ndog\r\nDog  bird\n"))
    assert words.words == ("BIRD", "CAT", "DOG")
    assert words.duplicates == 3
    assert upload_report(words) == "removed 3 duplicate word(s)"


def test_a_gzip_upload_is_decompressed(tmp_path: Path) -> None:
    words = read(write(tmp_path, "words.txt.gz", gzip.compress(b"tape\npity\n")))
    assert words.words == ("PITY", "TAPE")


def test_a_byte_order_mark_is_stripped(tmp_path: Path) -> None:
    words = read(write(tmp_path, "bom.txt", b"\xef\xbb\xbfzebra\napple\n"))
    assert words.words == ("APPLE", "ZEBRA")


def test_text_that_is_not_utf8_is_refused_with_its_line(tmp_path: Path) -> None:
    latin1 = "cat\ndog\ncaf\u00e9\n".encode("latin-1")
    with pytest.raises(UploadError) as error:
        read(write(tmp_path, "latin1.txt", latin1))
    assert str(error.value) == NOT_UTF8.format(line=3)


def test_utf16_is_refused_too(tmp_path: Path) -> None:
    with pytest.raises(UploadError, match="not UTF-8"):
        read(write(tmp_path, "utf16.txt", "cat\ndog\n".encode("utf-16")))


@pytest.mark.parametrize("content", [b"", b"  \n\n\t \n", b"\xef\xbb\xbf"])
def test_an_empty_file_is_refused(tmp_path: Path, content: bytes) -> None:
    with pytest.raises(UploadError) as error:
        read(write(tmp_path, "empty.txt", content))
    assert str(error.value) == EMPTY


def test_words_outside_the_alphabet_are_counted_with_examples(tmp_path: Path) -> None:
    text = "cat caf\u00e9 na\u00efve \u00e9t\u00e9 dog don't r2d2\n"
    words = read(write(tmp_path, "mixed.txt", text.encode()))
    assert words.words == ("CAT", "DOG")
    report = upload_report(words)
    assert "skipped 3 word(s) with letters outside the alphabet, e.g. CAFÉ, NAÏVE, ÉTÉ" in report
    assert "skipped 2 word(s) with characters that are not letters, e.g. DON'T, R2D2" in report


def test_another_alphabet_admits_its_letters(tmp_path: Path) -> None:
    words = read(write(tmp_path, "fr.txt", "caf\u00e9 \u00e9t\u00e9".encode()), AZ + "ÉÈ")
    assert words.words == ("CAFÉ", "ÉTÉ")


def test_huge_lines_are_skipped_and_reported(tmp_path: Path) -> None:
    huge = b"a" * 1_000_000
    words = read(write(tmp_path, "huge.txt", b"cat\n" + huge + b"\n" + b"b" * 300 + b"\ndog\n"))
    assert words.words == ("CAT", "DOG")
    assert "skipped 2 word(s) longer than 255 letters" in upload_report(words)


def test_a_file_whose_words_are_all_skipped_says_so(tmp_path: Path) -> None:
    with pytest.raises(UploadError, match="no usable words.*outside the alphabet"):
        read(write(tmp_path, "greek.txt", "αβγ δέλτα".encode()))


@pytest.mark.parametrize("name", ["words.csv", "words.gz.exe", "words", "words.txt.zip"])
def test_only_txt_and_txt_gz_names_are_accepted(tmp_path: Path, name: str) -> None:
    with pytest.raises(UploadError) as error:
        read(write(tmp_path, name, b"cat"))
    assert str(error.value) == BAD_NAME.format(name=name)


def test_an_upload_over_the_size_cap_is_refused_unread(tmp_path: Path) -> None:
    path = write(tmp_path, "big.txt", b"cat\n" * (MiB // 2))
    with pytest.raises(UploadError) as error:
        read(path, limits=UploadLimits(upload_bytes=MiB))
    assert str(error.value) == UPLOAD_TOO_BIG.format(size=2.0, limit=1)


def test_plain_text_over_the_text_cap_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "long.txt", b"cat\n" * MiB)
    with pytest.raises(UploadError) as error:
        read(path, limits=UploadLimits(text_bytes=2 * MiB))
    assert str(error.value) == TEXT_TOO_BIG.format(limit=2)


def test_a_gzip_bomb_is_stopped_while_streaming(tmp_path: Path) -> None:
    bomb = gzip_bomb(tmp_path)  # 1 MiB that would become 1 GiB
    limits = UploadLimits()
    tracemalloc.start()
    try:
        with bomb.open("rb") as fh, pytest.raises(UploadError) as error:
            upload_read(fh, name=bomb.name, size=None, alphabet=AZ)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert str(error.value) == TEXT_TOO_BIG.format(limit=limits.text_bytes / MiB)
    # Stopped at the cap: never more than the cap (and one chunk) of the gigabyte in memory.
    assert peak < limits.text_bytes + 4 * MiB


def test_a_gzip_bomb_is_abandoned_after_reading_only_part_of_it(tmp_path: Path) -> None:
    bomb = gzip_bomb(tmp_path)

    class Counting:
        """A file that remembers how many bytes were read from it."""

        def __init__(self, path: Path) -> None:
            self.fh = path.open("rb")
            self.read_bytes = 0

        def read(self, n: int = -1) -> bytes:
            data = self.fh.read(n)
            self.read_bytes += len(data)
            return data

        def seek(self, *args: int) -> int:
            return self.fh.seek(*args)

        def tell(self) -> int:
            return self.fh.tell()

    counting = Counting(bomb)
    with pytest.raises(UploadError, match="larger than 1 MiB"):
        upload_read(
            counting,  # type: ignore[arg-type]
            name="bomb.txt.gz",
            size=None,
            alphabet=AZ,
            limits=UploadLimits(text_bytes=MiB),
        )
    counting.fh.close()
    assert counting.read_bytes < bomb.stat().st_size / 100


def test_a_damaged_gzip_file_is_refused(tmp_path: Path) -> None:
    damaged = gzip.compress(b"cat\ndog\n" * 1000)[:-20] + b"garbage-garbage-garb"
    with pytest.raises(UploadError) as error:
        read(write(tmp_path, "damaged.txt.gz", damaged))
    assert str(error.value).startswith(BAD_GZIP.split("(")[0])
