"""Word lists are normalised and checked; compiled dictionaries are built once and reloaded."""

from __future__ import annotations

import gzip
import logging
from pathlib import Path

import pytest

from solver.engine import search
from solver.engine.board import Board
from solver.engine.store import TrieStore
from solver.engine.trie import Trie, TrieFormatError, build_trie
from solver.engine.wordlist import WordListError, parse_word_list, read_word_list


def test_words_are_upper_cased_deduplicated_and_sorted() -> None:
    words = parse_word_list("cat Dog\nCAT\n  dog\tbird\n")
    assert words.words == ("BIRD", "CAT", "DOG")
    assert words.alphabet == "ABCDGIORT"


def test_words_with_non_letters_are_reported_not_silently_dropped() -> None:
    words = parse_word_list("cat don't r2d2 dog")
    assert words.words == ("CAT", "DOG")
    assert words.skipped["with characters that are not letters"] == 2
    assert "skipped 2 word(s)" in words.skipped_report() and "DON'T" in words.skipped_report()


def test_overlong_words_are_reported() -> None:
    words = parse_word_list("cat " + "a" * 300)
    assert words.words == ("CAT",)
    assert "longer than 255" in words.skipped_report()


def test_letters_beyond_a_to_z_come_from_the_dictionary() -> None:
    words = parse_word_list("été straße ÇA")
    assert "É" in words.alphabet and "Ç" in words.alphabet
    assert "ÉTÉ" in words.words


def test_an_empty_dictionary_is_an_error() -> None:
    with pytest.raises(WordListError, match="empty"):
        parse_word_list("  \n\n ", "empty.txt")


def test_files_may_be_gzip_and_may_start_with_a_bom(tmp_path: Path) -> None:
    plain = tmp_path / "words.txt"
    plain.write_bytes(b"\xef\xbb\xbfcat\ndog\n")
    packed = tmp_path / "words.txt.gz"
    packed.write_bytes(gzip.compress(b"cat\ndog\n"))
    assert read_word_list(plain).words == read_word_list(packed).words == ("CAT", "DOG")


def test_non_utf8_files_are_refused_with_the_line(tmp_path: Path) -> None:
    latin = tmp_path / "latin1.txt"
    latin.write_bytes("cat\ncafé\n".encode("latin-1"))
    with pytest.raises(WordListError, match=r"latin1.txt:2: the file is not UTF-8"):
        read_word_list(latin)


def test_missing_and_broken_gzip_files(tmp_path: Path) -> None:
    with pytest.raises(WordListError, match="cannot read"):
        read_word_list(tmp_path / "nope.txt")
    broken = tmp_path / "broken.gz"
    broken.write_bytes(b"\x1f\x8b" + b"garbage")
    with pytest.raises(WordListError, match="not a valid gzip"):
        read_word_list(broken)


def test_the_compiled_trie_is_built_once_then_loaded(tmp_path: Path) -> None:
    source = tmp_path / "w.txt"
    source.write_text("cat cats scat don't\n")
    store = TrieStore(tmp_path / "cache")
    trie, notes = store.load_file(source)
    assert len(trie) == 3 and "DON'T" in notes["skipped"]
    compiled = next((tmp_path / "cache").glob("*.trie"))
    built_at = compiled.stat().st_mtime_ns
    again, notes_again = store.load_file(source)
    assert compiled.stat().st_mtime_ns == built_at
    assert list(again) == list(trie) and notes_again == notes


def test_a_damaged_compiled_file_is_rebuilt(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    source = tmp_path / "w.txt"
    source.write_text("cat cats\n")
    store = TrieStore(tmp_path / "cache")
    store.load_file(source)
    compiled = next((tmp_path / "cache").glob("*.trie"))
    compiled.write_bytes(compiled.read_bytes()[:-3])
    with caplog.at_level(logging.WARNING):
        trie, _ = store.load_file(source)
    assert "rebuilding damaged" in caplog.text and "CATS" in trie


def test_truncated_or_foreign_buffers_are_refused() -> None:
    data = build_trie(parse_word_list("cat"))
    with pytest.raises(TrieFormatError):
        Trie(data[:-1])
    with pytest.raises(TrieFormatError):
        Trie(b"not a trie at all, just some bytes")


@pytest.mark.skipif(not search.KERNEL_AVAILABLE, reason="needs the compiled kernel")
def test_the_kernel_refuses_damaged_tries_and_malformed_boards() -> None:
    from solver.engine import _kernel  # type: ignore[attr-defined]

    trie = Trie(build_trie(parse_word_list("cat cats")))
    data = bytearray(trie.buffer)
    data[trie.nodes_offset + 8 : trie.nodes_offset + 12] = (10**6).to_bytes(4, "little")
    with pytest.raises(ValueError, match="damaged"):
        _kernel.Kernel(
            bytes(data), trie.nodes_offset, trie.node_count, trie.lengths_offset, len(trie)
        )
    kernel = _kernel.Kernel(trie.buffer, trie.nodes_offset, trie.node_count, trie.lengths_offset, 2)
    table = bytes(1024)
    with pytest.raises(ValueError, match="8 bytes each"):
        kernel.solve(b"\x01", b"", table, 3)
    with pytest.raises(ValueError, match="neighbour"):
        kernel.solve(bytes(8), b"\x01" + bytes(17), table, 3)  # a cell that neighbours itself
    with pytest.raises(ValueError, match="score table"):
        kernel.solve(bytes(8), bytes(18), b"", 3)
    with pytest.raises(ValueError, match="face"):
        kernel.solve(b"\x01\x63" + bytes(6), bytes(18), table, 3)


def test_the_reference_is_used_when_the_kernel_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "_kernel", None)
    trie = Trie(build_trie(parse_word_list("cat act")))
    solver = search.Solver(trie)
    assert not solver.uses_kernel
    assert solver.solve(Board.from_rows("CA/XT")).words == ["ACT", "CAT"]
