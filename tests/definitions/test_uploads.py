"""Reading uploaded definitions: WordNet archives and word<TAB>definition lists, checked in full."""

from __future__ import annotations

import gzip
import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from solver.definitions.uploads import (
    ARCHIVE_TOO_BIG,
    BAD_ARCHIVE,
    BAD_NAME,
    LONG_DEFINITION,
    NO_DEFINITION,
    NO_TAB,
    NO_WORDS,
    UPLOAD_TOO_BIG,
    DefinitionLimits,
    DefinitionUpload,
    definitions_upload_read,
    tsv_read,
)
from solver.dictionaries.uploads import UploadError
from solver.engine.glossary import MAX_GLOSS_CHARS, MAX_SENSES
from solver.engine.wordnet import NO_PARTS


def read(name: str, content: bytes, limits: DefinitionLimits | None = None) -> DefinitionUpload:
    return definitions_upload_read(io.BytesIO(content), name=name, size=len(content), limits=limits)


def tar_of(directory: Path, compression: str = "gz") -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=f"w:{compression}") as archive:
        archive.add(directory, arcname="dict")
    return buffer.getvalue()


def zip_of(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def test_a_tsv_list_gives_senses_per_word_and_reports_what_it_skipped() -> None:
    text = (
        "# word<TAB>definition\n"
        "Chat\tun petit félin\n"
        "chat\tune conversation\n"
        "chat\tun petit félin\n"
        "pomme de terre\tun tubercule\n"
        "\n"
        "x2\tnothing\n"
    )
    upload = tsv_read(text)
    assert upload.kind == "tsv"
    assert upload.data.entries["chat"].parts[0].glosses == ("un petit félin", "une conversation")
    assert set(upload.data.entries) == {"chat"}
    assert upload.report == (
        "skipped 2 line(s) that are not a single word of letters, e.g. pomme de terre, x2"
    )


def test_a_word_keeps_at_most_a_few_senses() -> None:
    upload = tsv_read("".join(f"owl\tsense {n}\n" for n in range(MAX_SENSES + 2)))
    assert len(upload.data.entries["owl"].parts[0].glosses) == MAX_SENSES
    assert "skipped 2 line(s) beyond the first" in upload.report


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("cat\tfeline\ndog canine\n", NO_TAB.format(line=2)),
        ("cat\t  \n", NO_DEFINITION.format(line=1, word="cat")),
        ("cat\t" + "x" * (MAX_GLOSS_CHARS + 1) + "\n", LONG_DEFINITION.format(line=1)),
        ("ice cream\ta dessert\n", NO_WORDS),
    ],
    ids=["no-tab", "empty-definition", "too-long", "no-word"],
)
def test_a_malformed_tsv_list_is_refused_whole(text: str, message: str) -> None:
    with pytest.raises(UploadError) as refused:
        read("defs.tsv", text.encode())
    assert str(refused.value) == message


def test_a_gzipped_tsv_is_read() -> None:
    upload = read("defs.tsv.gz", gzip.compress(b"owl\ta night bird\n"))
    assert upload.data.entries["owl"].parts[0].glosses == ("a night bird",)


def test_a_wordnet_archive_is_read_as_tar_or_zip(fake_dir: Path) -> None:
    from_tar = read("wn.tar.gz", tar_of(fake_dir))
    files = {f"dict/{p.name}": p.read_bytes() for p in fake_dir.iterdir()}
    from_zip = read("wn.zip", zip_of(files))
    assert from_tar.kind == from_zip.kind == "wordnet"
    assert from_tar.data.entries == from_zip.data.entries
    assert "quash" in from_tar.data.entries
    assert from_tar.licence.startswith("A fake WordNet for tests.")


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("defs.csv", b"cat,feline", BAD_NAME.format(name="defs.csv")),
        ("wn.tar.gz", b"not a tar at all", None),
        ("wn.zip", b"PK\x03\x04 broken", None),
        ("wn.zip", zip_of({"README": b"no wordnet here"}), NO_PARTS),
    ],
    ids=["bad-name", "bad-tar", "bad-zip", "no-wordnet-files"],
)
def test_a_bad_archive_is_refused(name: str, content: bytes, message: str | None) -> None:
    with pytest.raises(UploadError) as refused:
        read(name, content)
    if message is None:
        assert str(refused.value).startswith(BAD_ARCHIVE.partition("(")[0])
    else:
        assert str(refused.value) == message


def test_an_oversized_upload_is_refused_before_it_is_read() -> None:
    limits = DefinitionLimits(upload_bytes=100, text_bytes=1000)
    with pytest.raises(UploadError) as refused:
        read("defs.tsv", b"owl\tbird\n" * 20, limits)
    assert str(refused.value) == UPLOAD_TOO_BIG.format(size=180 / 2**20, limit=100 / 2**20)


@pytest.mark.parametrize("zipped", [False, True], ids=["tar.gz", "zip"])
def test_an_archive_that_unpacks_past_the_cap_is_abandoned(fake_dir: Path, zipped: bool) -> None:
    big = b"  1 padding\n" * 20_000  # compresses to almost nothing
    limits = DefinitionLimits(upload_bytes=10**6, text_bytes=100_000)
    if zipped:
        content, name = zip_of({"dict/data.noun": big}), "wn.zip"
    else:
        (directory := fake_dir.parent / "big-wordnet").mkdir(exist_ok=True)
        (directory / "data.noun").write_bytes(big)
        content, name = tar_of(directory), "wn.tar.gz"
    with pytest.raises(UploadError) as refused:
        read(name, content, limits)
    assert str(refused.value) == ARCHIVE_TOO_BIG.format(limit=100_000 / 2**20)
