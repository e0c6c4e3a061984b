"""Reading GCIDE (the GNU Collaborative International Dictionary of English) into a glossary.

GCIDE is Webster's Revised Unabridged Dictionary of 1913 with later additions, under the GNU
GPL. Debian's ``dict-gcide`` ships it for the dict server: ``gcide.index`` (a key, then the
offset and length of its article in base 64, one a line) and ``gcide.dict.dz`` (the articles
as text, gzip-compressed). An article reads::

    Quash \\Quash\\, v. t. [imp. & p. p. {Quashed}; p. pr. & vb.
       n. {Quashing}.] [OF. quasser, …] (Law)
       To abate, annul, overthrow, or make void; as, to quash an
       indictment. --Blackstone.
       [1913 Webster]

that is: the headwords (``Word \\Syl"la*ble\\``, several for spellings), a pronunciation, the
part of speech, brackets of inflections and etymology, an optional field label, then the
senses (numbered when there are several), with quotations, notes and phrases between them.

Only what a word game shows is kept: for each single-word headword made of letters, per part
of speech, at most a few senses (the label, the sense's text up to its first quotation or
citation, with GCIDE's character codes turned into letters); the inflections the articles
spell out (``{Quashed}``, ``pl. {Reis}``, ``compar. {Bigger}``) become irregular forms, and a
key the dict server indexes only because an article names it as another spelling ("[Written
also {ait}]") is defined by that article, which the gloss names ("variant of eyot: …").
Articles have no usage counts: a part of speech weighs as many senses as it has.
"""

from __future__ import annotations

import re
import unicodedata
import zlib
from collections import defaultdict
from collections.abc import Callable, Container
from dataclasses import dataclass, field

from solver.engine.glossary import (
    ANY_POS,
    CLOSED,
    INTERJECTION,
    MAX_GLOSS_CHARS,
    MAX_SENSES,
    Entry,
    Glossary,
    GlossaryData,
    PosSenses,
    is_headword,
)
from solver.engine.morphy import ADJECTIVE, ADVERB, NOUN, VERB

INDEX_FILE = "gcide.index"
DICT_FILE = "gcide.dict.dz"
LICENCE_FILES = ("copyright",)
BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
MAX_CHARS = 300  # a longer sense is cut at a word: Webster's are long, a results page is not
MAX_DICT_BYTES = 256 * 2**20  # Debian's is 40 MB once unpacked

NO_FILES = f"No GCIDE data: {INDEX_FILE} and {DICT_FILE} are both needed."
BAD_INDEX = INDEX_FILE + ", line {line}: not a dict index line (word, offset, length)."
BAD_DICT = DICT_FILE + ": not gzip-compressed ({error})."
NO_HEADWORDS = "The GCIDE files hold no single-word headwords made of letters."

# The part of speech after the headwords ("v. t.", "n.", "a.", "interj."): its first word.
POS_WORDS: dict[str, str] = {
    "n": NOUN,
    "v": VERB,
    "a": ADJECTIVE,
    "adj": ADJECTIVE,
    "p": ADJECTIVE,  # "p. a.", "p. p.": participles, used as adjectives
    "adv": ADVERB,
    "interj": INTERJECTION,
    "prep": CLOSED,
    "conj": CLOSED,
    "pron": CLOSED,
    "definite": CLOSED,
    "indefinite": CLOSED,
    "article": CLOSED,
}
POS_ABBREVIATIONS = {*POS_WORDS, "t", "i", "pl", "sing", "pr", "imp", "vb", "prop", "obs"}
# Inflections an article's header spells out, and the part of speech they belong to.
INFLECTION = re.compile(
    r"\b(pl|imp|p\.\s*p|p\.\s*pr|vb\.\s*n|compar|superl)\.\s*(?:&\s*[a-z. ]+?\s*)?"
    r"((?:\{[^}]+\}(?:\s*(?:or|,|and)\s*)?)+)",
    re.IGNORECASE,
)
INFLECTION_POS = {"pl": NOUN, "compar": ADJECTIVE, "superl": ADJECTIVE}
AFFIX = re.compile(r"^(?:An? )?(?:prefix|suffix|combining form|inseparable prefix)\b", re.I)
SEE_ALSO = re.compile(r"^(?:Same as|See|Variant of|A variant of) (?:\d\w* )?([A-Za-z]+)\.?$")
INFLECTION_OF = re.compile(
    r"[\s,]*(?:obs\.\s*)?(pl|imp|p\.\s*p|p\.\s*pr|compar|superl|3d\s*pers\.\s*sing\.\s*pres)\.[^{}\n]{0,40}?\bof\s+\{([^}]+)\}",
    re.IGNORECASE,
)
VARIANT = re.compile(
    r"\[(?:Written|Spelt|Spelled|Also written|Written also|Also spelt)[^\]]*?\]", re.IGNORECASE
)
# A source's initials ([PJC], [RHUD]), never a character code that looks like them ([AE]gle:
# Ægle, [OE] Œ): those are letters of the text (NAMED_CHARACTERS).
SOURCE_TAG = re.compile(
    r"\s*\[(?:[0-9]{4} Webster|Webster [0-9]{4}[^\]]*|WordNet[^\]]*|"
    r"(?!(?:AE|OE)\])[A-Z]{2,4}\.?|Century Dict\.|Chambers [^\]]*|MW10|RHUD)\]\s*"
)
# A sense a player rarely means: obsolete, mythology, or a god's name ("The Babylonian name of
# the god known among the Hebrews as Baal"). Webster orders senses by history, so these often
# come first; an entry shows them after the others (BEL: the tree before the god).
SIDE_SENSE = re.compile(
    r"\[Obs\b|^\([^()]*\bMyth\.\)|\bname of (?:the |a )?(?:god|goddess|deity)\b"
    r"|^(?:An?|The) (?:\w+ )?(?:god|goddess|deity)\b"
)
NUMBERED = re.compile(r"^\s*(?:\d+\.|\([a-z]\))\s+")
CITATION = re.compile(r"\s+--\s?[A-Z(].*$|\s+\"[^\"]*\"?.*$|\s*;\s*--.*$")
CROSS_REFERENCE = re.compile(r"\{([^{}]*)\}")

MARKS = {
    "'": "\u0301",
    "`": "\u0300",
    '"': "\u0308",
    "=": "\u0304",
    "~": "\u0303",
    ".": "\u0307",
    ",": "\u0327",
    "^": "\u0302",
    "-": "\u0304",
    "*": "\u030a",
}
NAMED_CHARACTERS = {
    "ae": "æ",
    "AE": "Æ",
    "oe": "œ",
    "OE": "Œ",
    "eth": "ð",
    "thorn": "þ",
    "imac": "ī",
    "amac": "ā",
    "aum": "ä",
    "deg": "°",
    "sect": "§",
    "pounds": "£",
    "ng": "ŋ",
    "yogh": "ȝ",
    "alpha": "α",
    "beta": "β",
    "root": "√",
    "frac12": "½",
    "frac14": "¼",
    "frac34": "¾",
}
CHARACTER_CODE = re.compile(r"\[([a-zA-Z]{1,6}|[\^=\-~.'\"`*,][a-zA-Z]{1,2}|[a-z]{1,2}\^)\]")

FileReader = Callable[[str], bytes | None]


class GcideError(ValueError):
    """GCIDE files that cannot be read; the message names the file and line."""


def _character(match: re.Match[str]) -> str:
    code = match.group(1)
    if code in NAMED_CHARACTERS:
        return NAMED_CHARACTERS[code]
    if code[0] in MARKS:
        return unicodedata.normalize("NFC", code[1:] + MARKS[code[0]])
    if code[-1] in MARKS:  # a letter then a breve: [i^] is ĭ
        mark = "\u0306" if code[-1] == "^" else MARKS[code[-1]]
        return unicodedata.normalize("NFC", code[:-1] + mark)
    return match.group(0)  # a label such as [Obs.] or a word in brackets: left as it is


def plain_text(text: str) -> str:
    """Return GCIDE text with its character codes as letters and cross-references unbraced."""
    text = CHARACTER_CODE.sub(_character, text)
    return CROSS_REFERENCE.sub(r"\1", text)


def _letters(headword: str) -> str:
    """Return a headword in lower case without accents (CAF['E] is café, played as CAFE)."""
    decomposed = unicodedata.normalize("NFD", plain_text(headword).lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _base64(text: str) -> int:
    number = 0
    for char in text:
        number = number * 64 + BASE64.index(char)
    return number


def read_index(raw: bytes) -> dict[str, list[tuple[int, int]]]:
    """Return each lower-case key of a dict index and the (offset, length) of its articles."""
    keys: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for number, line in enumerate(raw.decode("utf-8", "replace").splitlines(), 1):
        parts = line.split("\t")
        try:
            key, offset, length = parts
            place = (_base64(offset), _base64(length))
        except ValueError:
            raise GcideError(BAD_INDEX.format(line=number)) from None
        if place not in keys[key.lower()]:
            keys[key.lower()].append(place)
    return keys


def unpack_dict(raw: bytes) -> bytes:
    """Return the articles of a dictzip (gzip) file, refusing more than MAX_DICT_BYTES."""
    try:
        unpacker = zlib.decompressobj(16 + zlib.MAX_WBITS)
        text = unpacker.decompress(raw, MAX_DICT_BYTES + 1)
    except zlib.error as exc:
        raise GcideError(BAD_DICT.format(error=exc)) from None
    if len(text) > MAX_DICT_BYTES:
        raise GcideError(f"{DICT_FILE}: more than {MAX_DICT_BYTES // 2**20} MiB once unpacked.")
    return text


@dataclass
class Article:
    """What one article says: its headwords, part of speech, senses and inflections."""

    headwords: list[str]
    pos: str
    senses: list[str]
    inflections: dict[str, str] = field(default_factory=dict)  # form → part of speech
    variants: list[str] = field(default_factory=list)  # other spellings it names
    obsolete: bool = False
    base_of: tuple[str, str] | None = None  # an inflection's base form and part of speech


POS_TOKEN = re.compile(r"(prop\.\s*n|[a-zA-Z]+)\.")
HEAD_PAIR = re.compile(r"[ \t]*((?:[^\\\n\[\]{}]|\[[^\]\\\n]{1,6}\])*?)\s*\\[^\\\n]*\\[ \t]*")
INFLECTED_FORMS = re.compile(r"(?:(?:or|and|obs\.|Obs\.)\s+)?\{[^{}\n]*\}")
FIELD_LABEL = re.compile(r"\(([A-Z][A-Za-z. &]{1,30})\)\s*")
PRONUNCIATION_HINTS = ("*", '"', "`", "[", "?")


def _closing(text: str, start: int) -> int:
    """Return the index just past the bracket group that opens at text[start] (-1 if none)."""
    pairs = {"[": "]", "(": ")"}
    stack = [pairs[text[start]]]
    for i in range(start + 1, min(len(text), start + 2000)):
        char = text[i]
        if char in pairs:
            stack.append(pairs[char])
        elif char == stack[-1]:
            stack.pop()
            if not stack:
                return i + 1
    return -1


def _is_pronunciation(text: str, start: int) -> bool:
    """Return whether the parentheses opening at text[start] hold a pronunciation."""
    inside = text[start : start + 60].split(")")[0]
    return any(hint in inside for hint in PRONUNCIATION_HINTS)


def _skip_header(text: str, start: int) -> tuple[int, str]:
    r"""Return where the definition starts after a header's remains, and a field label if any.

    Skipped: punctuation, bracket groups (inflections, etymology), pronunciations in
    parentheses, further spellings (``Hansom cab \Han"som cab`\``) and part-of-speech words.
    """
    i = start
    while i < len(text):
        char = text[i]
        if char in " \t\n,;.&":
            i += 1
        elif char == "[" or (char == "(" and _is_pronunciation(text, i)):
            end = _closing(text, i)
            if end < 0:
                return i, ""
            i = end
        elif braced := INFLECTED_FORMS.match(text, i):  # "{Orts}", "or {Res}"
            i = braced.end()
        elif (pair := HEAD_PAIR.match(text, i)) and pair.end() > i and "\\" in pair.group(0):
            i = pair.end()
        elif (token := POS_TOKEN.match(text, i)) and token.group(1).lower() in POS_ABBREVIATIONS:
            i = token.end()
        elif label := FIELD_LABEL.match(text, i):
            return label.end(), label.group(1)
        else:
            return i, ""
    return i, ""


def _sense_text(lines: list[str], label: str) -> str:
    text = " ".join(" ".join(lines).split())
    text = NUMBERED.sub("", text)
    text = VARIANT.sub("", text)
    text = SOURCE_TAG.sub(" ", text).strip()
    text = CITATION.sub("", text).strip()
    text = plain_text(text).strip(" ;,")
    if label and text and not text.startswith("("):
        text = f"({label}) {text}"
    return text[:MAX_GLOSS_CHARS]


def parse_article(text: str) -> Article | None:
    """Return what an article says, or None if it does not start with headwords (or it is
    a proper noun's: word games hold no names)."""
    head = re.match(r"(?:(?:[^\\\n\[\]{}]|\[[^\]\\\n]{1,6}\])*?\n?\\[^\\\n]*\\,?[ \t]*\n?)+", text)
    if head is None:
        return None
    heads = (_letters(h.strip(" ,;\t\n")) for h in HEAD_PAIR.findall(head.group(0)))
    headwords = [h for h in heads if h]
    rest = text[head.end() :]
    start = 0
    if rest.lstrip().startswith("("):  # the pronunciation
        start = len(rest) - len(rest.lstrip())
        start = max(_closing(rest, start), start)
    pos_at = re.match(r"[\s,]*(?:\[[^\[\]]*\][\s,]*)?", rest[start:])
    token = POS_TOKEN.match(rest, start + (pos_at.end() if pos_at else 0))
    word = token.group(1).lower() if token else ""
    if word.startswith("prop"):
        return None
    pos = POS_WORDS.get(word, ANY_POS)
    inflection_of = INFLECTION_OF.match(rest, start)
    if inflection_of:  # "Ran, imp. of Run": an irregular form, defined by its base form
        kind = inflection_of.group(1).lower().replace(" ", "")
        base = inflection_of.group(2).strip().lower()
        return Article(headwords, ANY_POS, [], base_of=(base, INFLECTION_POS.get(kind, VERB)))
    body_at, label = _skip_header(rest, start)
    header = rest[:body_at]
    inflections = {
        form.strip().lower(): INFLECTION_POS.get(kind.lower(), VERB)
        for kind, forms in INFLECTION.findall(header)
        for form in CROSS_REFERENCE.findall(forms)
    }
    variants = [
        v.strip().lower()
        for bracket in VARIANT.findall(text)
        for v in CROSS_REFERENCE.findall(bracket)
    ]
    senses = _senses(rest[body_at:], label)
    obsolete = bool(senses) and all(SIDE_SENSE.search(s) for s in senses)
    return Article(headwords, pos, senses, inflections, variants, obsolete)


def _senses(body: str, label: str) -> list[str]:
    """Return the senses of an article's body: its numbered paragraphs, or its first one.

    A paragraph that starts with a note, synonyms, a phrase (``{To run riot}``) or a deeper
    indent (a quotation) is skipped; a sense ends at a blank line or a source tag.
    """
    senses: list[str] = []
    group: list[str] = []
    skipping = False
    paragraph_start = True

    def flush() -> None:
        if group:
            sense = _sense_text(group, label)
            if sense and sense not in senses:
                senses.append(sense)
            group.clear()

    for line in body.strip("\n").split("\n"):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if not stripped or SOURCE_TAG.fullmatch(line):
            flush()
            paragraph_start = True
            continue
        if NUMBERED.match(line) and indent <= 4:
            flush()
            skipping = False
            group.append(stripped)
        elif paragraph_start:
            skipping = stripped.startswith(("Note:", "Syn:", "{", "[")) or indent > 4
            if not skipping:
                group.append(stripped)
        elif not skipping:
            group.append(stripped)
        paragraph_start = False
    flush()
    return senses


@dataclass
class _Headword:
    senses: dict[str, list[tuple[bool, int, list[str]]]] = field(
        default_factory=lambda: defaultdict(list)
    )  # part of speech → (all side senses, order, senses) per article


def read_gcide(read: FileReader) -> GlossaryData:
    """Return the glossary of a GCIDE dict database (Debian: /usr/share/dictd/gcide.*)."""
    index_raw, dict_raw = read(INDEX_FILE), read(DICT_FILE)
    if index_raw is None or dict_raw is None:
        raise GcideError(NO_FILES)
    index = read_index(index_raw)
    articles_text = unpack_dict(dict_raw)
    articles: dict[int, Article | None] = {}
    for places in index.values():
        for offset, length in places:
            if offset not in articles:
                raw = articles_text[offset : offset + length].decode("utf-8", "replace")
                articles[offset] = parse_article(raw)
    headwords: dict[str, _Headword] = defaultdict(_Headword)
    exceptions: dict[str, dict[str, list[str]]] = defaultdict(dict)
    variant_of: dict[str, tuple[str, Article]] = {}
    for order, (_, article) in enumerate(sorted(articles.items())):
        if article is not None and article.base_of is not None:
            base, pos = article.base_of
            for word in article.headwords:
                if is_headword(word) and is_headword(base) and word != base:
                    bases = exceptions[word].setdefault(pos, [])
                    if base not in bases:
                        bases.append(base)
        if article is None or not article.senses or AFFIX.match(article.senses[0]):
            continue
        main = article.headwords[0]
        for word in article.headwords:
            if is_headword(word):
                pos = NOUN if len(word) == 1 else article.pos  # a letter of the alphabet
                headwords[word].senses[pos].append((article.obsolete, order, article.senses))
        for form, pos in article.inflections.items():
            if is_headword(form) and is_headword(main) and form != main:
                bases = exceptions[form].setdefault(pos, [])
                if main not in bases:
                    bases.append(main)
        for variant in article.variants:
            if is_headword(variant) and is_headword(main) and variant != main:
                variant_of.setdefault(variant, (main, article))
    entries = {word: _entry(found) for word, found in headwords.items()}
    for variant, (main, article) in variant_of.items():
        if variant not in entries and variant in index:
            glosses = tuple(f"variant of {main}: {s}" for s in article.senses[:MAX_SENSES])
            entries[variant] = Entry((PosSenses(article.pos, len(glosses), glosses),))
    entries = {w: e for w, e in entries.items() if e.parts}
    if not entries:
        raise GcideError(NO_HEADWORDS)
    return GlossaryData(entries, dict(exceptions))


def _entry(found: _Headword) -> Entry:
    parts = []
    for pos, articles in found.senses.items():
        ordered: list[str] = []
        for _, _, senses in sorted(articles, key=lambda a: (a[0], -len(a[2]), a[1])):
            ordered += [s for s in senses if s not in ordered]
        ordered.sort(key=lambda sense: SIDE_SENSE.search(sense) is not None)  # stable
        parts.append(PosSenses(pos, len(ordered), tuple(ordered)))
    return Entry.chosen(parts) if parts else Entry(())


def gcide_prune(
    data: GlossaryData, *, keep: Container[str], before: Glossary, max_chars: int = MAX_CHARS
) -> GlossaryData:
    """Return the part of a GCIDE glossary that adds to the glossary asked before it.

    Kept: the headwords a word list holds (``keep``), in the parts of speech the glossary
    before (WordNet) does not define them in, and the irregular forms of kept words with
    their base forms whole (DIPT → dip needs GCIDE's dip). A sense longer than max_chars is
    cut at a word and ends with "…".
    """
    exceptions = {form: bases for form, bases in data.exceptions.items() if form in keep}
    needed = {base for bases in exceptions.values() for b in bases.values() for base in b}
    entries: dict[str, Entry] = {}
    for word, entry in data.entries.items():
        if word not in keep and word not in needed:
            continue
        known = before.entry(word)
        parts = [
            part._replace(glosses=tuple(_shorten(g, max_chars) for g in part.glosses))
            for part in entry.parts
            if word in needed or known is None or part.pos == ANY_POS or not known.has(part.pos)
        ]
        if parts:
            entries[word] = Entry(tuple(parts))
    for word, entry in entries.items():
        entries[word] = Entry(
            tuple(
                part._replace(glosses=tuple(_see(g, data, before, max_chars) for g in part.glosses))
                for part in entry.parts
            )
        )
    exceptions = {
        form: {pos: [b for b in bases if b in entries] for pos, bases in by_pos.items()}
        for form, by_pos in exceptions.items()
    }
    exceptions = {
        form: {pos: bases for pos, bases in by_pos.items() if bases}
        for form, by_pos in exceptions.items()
        if any(by_pos.values())
    }
    return GlossaryData(entries, exceptions)


def _see(gloss: str, data: GlossaryData, before: Glossary, max_chars: int) -> str:
    """Return a sense that only points elsewhere ("Same as Pavan.") with what it points to."""
    match = SEE_ALSO.match(gloss)
    if match is None:
        return gloss
    target = match.group(1).lower()
    entry = before.entry(target) or data.entries.get(target)
    if entry is None or not entry.parts or SEE_ALSO.match(entry.parts[0].glosses[0]):
        return gloss
    return _shorten(f"{gloss.rstrip('.')}: {entry.parts[0].glosses[0]}", max_chars)


def _shorten(gloss: str, max_chars: int) -> str:
    if len(gloss) <= max_chars:
        return gloss
    return gloss[:max_chars].rsplit(" ", 1)[0].rstrip(" ,;:") + " …"
