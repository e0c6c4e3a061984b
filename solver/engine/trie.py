"""The compiled dictionary: a flat trie in one buffer, saved to disk and memory-mapped.

Layout (little-endian, sections 16-byte aligned after a 32-byte header):

- nodes: one 16-byte record per node, ``mask: u64`` (bit s set when the child for
  symbol s exists), ``first: u32`` (index of the first child; children are contiguous in
  symbol order, so child s is ``first + popcount(mask & ((1 << s) - 1))``) and
  ``word: u32`` (the word id ending here, or NO_WORD). Node 0 is the root.
- offsets: ``u32 × (words + 1)`` into the blob; lengths: ``u8 × words`` in letters;
  alphabet: UTF-8; blob: the words in code-point order, UTF-8, joined by newlines.

Word ids are positions in the sorted list, so sorting ids sorts words.
"""

from __future__ import annotations

import bisect
import mmap
import struct
from array import array
from collections import deque
from collections.abc import Iterator
from pathlib import Path

from solver.engine.lexicon import Status
from solver.engine.wordlist import WordList

MAGIC = b"BOGTRIE\x00"
FORMAT_VERSION = 1
NO_WORD = 0xFFFFFFFF
ROOT = 0
_HEADER = struct.Struct("<8sIIIIII")  # magic, version, nodes, words, alphabet bytes, blob bytes, 0
_NODE_BYTES = 16


class TrieFormatError(ValueError):
    """A compiled dictionary file that is damaged or of another format version."""


def _align(n: int) -> int:
    return (n + 15) & ~15


def _sections(nodes: int, words: int, alphabet: int, blob: int) -> tuple[int, ...]:
    """Return the offsets of nodes, offsets, lengths, alphabet, blob and the end."""
    o_nodes = _align(_HEADER.size)
    o_offsets = _align(o_nodes + nodes * _NODE_BYTES)
    o_lengths = _align(o_offsets + (words + 1) * 4)
    o_alphabet = _align(o_lengths + words)
    o_blob = _align(o_alphabet + alphabet)
    return o_nodes, o_offsets, o_lengths, o_alphabet, o_blob, o_blob + blob


def build_trie(word_list: WordList) -> bytes:
    """Return the compiled form of a normalised word list."""
    words, alphabet = word_list.words, word_list.alphabet
    symbol = {ch: i for i, ch in enumerate(alphabet)}
    masks, firsts, ends = array("Q", [0]), array("I", [0]), array("I", [NO_WORD])
    # Each pending entry is a node and the range of words below it, all sharing `depth` letters.
    pending = deque([(ROOT, 0, len(words), 0)])
    while pending:
        node, lo, hi, depth = pending.popleft()
        if len(words[lo]) == depth:  # the shortest word of the range sorts first
            ends[node] = lo
            lo += 1
        firsts[node] = len(masks)
        children = []
        while lo < hi:
            prefix = words[lo][: depth + 1]
            end = bisect.bisect_left(words, prefix[:-1] + chr(ord(prefix[-1]) + 1), lo, hi)
            masks[node] |= 1 << symbol[prefix[-1]]
            children.append((len(masks), lo, end, depth + 1))
            masks.append(0)
            firsts.append(0)
            ends.append(NO_WORD)
            lo = end
        # Breadth-first: the short prefixes every search visits sit together at the front,
        # where they stay in the CPU cache.
        pending.extend(children)
    nodes = array("Q", bytes(16 * len(masks)))
    nodes[0::2] = masks
    nodes[1::2] = array("Q", (f | (e << 32) for f, e in zip(firsts, ends, strict=True)))
    encoded = [w.encode() for w in words]
    blob = b"\n".join(encoded)
    offsets, pos = array("I"), 0
    for w in encoded:
        offsets.append(pos)
        pos += len(w) + 1
    offsets.append(len(blob) + 1)
    alpha = alphabet.encode()
    sections = _sections(len(masks), len(words), len(alpha), len(blob))
    out = bytearray(sections[-1])
    _HEADER.pack_into(
        out, 0, MAGIC, FORMAT_VERSION, len(masks), len(words), len(alpha), len(blob), 0
    )
    parts = (nodes.tobytes(), offsets.tobytes(), bytes(map(len, words)), alpha, blob)
    for start, data in zip(sections, parts, strict=False):
        out[start : start + len(data)] = data
    return bytes(out)


class Trie:
    """A read-only compiled dictionary over a buffer (bytes or a memory map)."""

    def __init__(self, buffer: bytes | mmap.mmap, source: str = "trie") -> None:
        if len(buffer) < _HEADER.size:
            raise TrieFormatError(f"{source}: too short to be a compiled dictionary")
        magic, version, n_nodes, n_words, n_alpha, n_blob, _ = _HEADER.unpack_from(buffer, 0)
        if magic != MAGIC or version != FORMAT_VERSION:
            raise TrieFormatError(
                f"{source}: not a compiled dictionary of version {FORMAT_VERSION}"
            )
        o_nodes, o_offsets, o_lengths, o_alpha, o_blob, end = _sections(
            n_nodes, n_words, n_alpha, n_blob
        )
        if len(buffer) != end:
            raise TrieFormatError(f"{source}: the file is truncated or damaged")
        view = memoryview(buffer)
        self.buffer = buffer
        self.source = source
        self.nodes_offset = o_nodes
        self.lengths_offset = o_lengths
        self.node_count = n_nodes
        self._nodes = view[o_nodes:o_offsets].cast("Q")
        self._offsets = view[o_offsets : o_offsets + (n_words + 1) * 4].cast("I")
        self._lengths = view[o_lengths : o_lengths + n_words]
        self._blob = view[o_blob:end]
        self.alphabet = bytes(view[o_alpha : o_alpha + n_alpha]).decode()
        self.symbols = {ch: i for i, ch in enumerate(self.alphabet)}

    @classmethod
    def from_word_list(cls, word_list: WordList) -> Trie:
        """Return a trie built in memory from a word list."""
        return cls(build_trie(word_list), "word list")

    @classmethod
    def load(cls, path: Path) -> Trie:
        """Return the trie in a compiled file, memory-mapped so processes share its pages."""
        with path.open("rb") as fh:
            mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        return cls(mapped, str(path))

    # Nodes -----------------------------------------------------------------------------

    def child(self, node: int, sym: int) -> int:
        """Return the child of node for a symbol, or 0 when there is none."""
        mask = self._nodes[2 * node]
        if not (mask >> sym) & 1:
            return 0
        first = self._nodes[2 * node + 1] & 0xFFFFFFFF
        return first + (mask & ((1 << sym) - 1)).bit_count()

    def has_children(self, node: int) -> bool:
        """Return whether any word continues past this node."""
        return self._nodes[2 * node] != 0

    def word_at(self, node: int) -> int | None:
        """Return the id of the word that ends at node, if one does."""
        word = self._nodes[2 * node + 1] >> 32
        return None if word == NO_WORD else word

    def encode(self, text: str) -> tuple[int, ...] | None:
        """Return the symbols spelling text, or None if a letter is not in the alphabet."""
        try:
            return tuple(self.symbols[ch] for ch in text)
        except KeyError:
            return None

    def walk(self, node: int, symbols: tuple[int, ...]) -> int:
        """Return the node reached by following symbols from node, or 0 if the way ends."""
        for sym in symbols:
            node = self.child(node, sym)
            if not node:
                return 0
        return node

    # Words -----------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._lengths)

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.status(word) is Status.WORD

    def __iter__(self) -> Iterator[str]:
        return iter(bytes(self._blob).decode().split("\n"))

    def word(self, word_id: int) -> str:
        """Return the word with an id."""
        start, end = self._offsets[word_id], self._offsets[word_id + 1] - 1
        return bytes(self._blob[start:end]).decode()

    def length(self, word_id: int) -> int:
        """Return a word's length in letters."""
        return self._lengths[word_id]

    def id_of(self, word: str) -> int | None:
        """Return the id of a word (any case), or None if it is not in the dictionary."""
        symbols = self.encode(word.upper())
        node = self.walk(ROOT, symbols) if symbols is not None else 0
        return self.word_at(node) if node else None

    def status(self, text: str) -> Status:
        """Return WORD, PREFIX or NOT_WORD for a string of any case."""
        symbols = self.encode(text.upper())
        node = self.walk(ROOT, symbols) if symbols is not None else 0
        if not node and symbols != ():
            return Status.NOT_WORD
        if self.word_at(node) is not None:
            return Status.WORD
        return Status.PREFIX if self.has_children(node) else Status.NOT_WORD

    @property
    def nbytes(self) -> int:
        """Return the size of the compiled dictionary in bytes."""
        return len(self.buffer)
