"""`board_feasible`, `board_words_unreachable` and `board_standing`: answers, exit codes and
clear messages for bad input."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from solver.engine.dice import DICE_SETS
from solver.engine.reachability import unreachable_words
from solver.engine.wordlist import read_word_list
from tests.commands.conftest import DATA, manage, migrated_copy

ALGS4 = str(DATA / "dictionaries" / "dictionary-algs4.txt")
SETUP = f"""
from solver.dictionaries import shipped
from solver.engine.wordlist import read_word_list
from solver.models import DiceSet
from solver.dictionaries.services import dictionary_create
from pathlib import Path
word_list = read_word_list(Path({ALGS4!r}))
dictionary_create(name="algs4", slug="algs4", word_list=word_list, alphabet=word_list.alphabet)
for fields in shipped.dice_sets():
    DiceSet.objects.create(**fields)
"""
COUNT = "from solver.models import BoardStanding; print(BoardStanding.objects.count())"


@pytest.fixture(scope="module")
def database(
    tmp_path_factory: pytest.TempPathFactory, migrated_template: Path, command_cache: Path
) -> str:
    """A migrated database with the shipped dice sets and the algs4 list."""
    cache = command_cache
    url = migrated_copy(migrated_template, tmp_path_factory.mktemp("facts-db"))
    result = manage("shell", "--no-imports", "-c", SETUP, database=url, cache=cache)
    assert result.returncode == 0, result.stderr
    return url


def test_a_rollable_board_exits_0_with_each_die_placed(cache: Path) -> None:
    result = manage("board_feasible", "PERS/LATG/SINE/TERS", "--dice", "new16", cache=cache)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "PERS/LATG/SINE/TERS can be rolled from New 4×4 (1992 Hasbro dice):"
    placed = [
        re.match(r"\s+die +(\d+) (\S+) +→ row (\d), column (\d): (\S+)$", ln) for ln in lines[1:]
    ]
    assert all(placed) and len(placed) == 16
    cells = {(m[3], m[4]) for m in placed if m}
    assert len(cells) == 16 and sorted(int(m[1]) for m in placed if m) == list(range(1, 17))
    for m in placed:
        assert m and m[5] in m[2].replace("[Qu]", "")  # the face shown is on that die
    assert "die 15 HIMN[Qu]U" in result.stdout


def test_a_board_the_dice_cannot_roll_exits_1_with_the_reason(cache: Path) -> None:
    result = manage("board_feasible", "4x4-ZZAETSRNLOIEDTAS", "--dice", "new16", cache=cache)
    assert result.returncode == 1
    assert result.stdout.strip() == (
        "ZZAE/TSRN/LOIE/DTAS cannot be rolled from New 4×4 (1992 Hasbro dice): "
        "needs 2 dice showing Z, the set has 1"
    )
    other_size = manage("board_feasible", "ABC/DEF/GHI", "--dice", "new16", cache=cache)
    assert other_size.returncode == 1
    assert "the board is 3×3, the dice set rolls 4×4" in other_size.stdout


def test_a_board_file_is_read(tmp_path: Path, cache: Path) -> None:
    path = tmp_path / "board.txt"
    path.write_text("2 2\nQu A\n_ In\n")
    result = manage("board_feasible", str(path), "--dice", "english-letters", cache=cache)
    assert result.returncode == 1
    assert result.stdout.strip().endswith("its letter table has no a blank, In")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("PERS/LATG/SINE/TERS", "--dice", "nope"), "unknown dice set 'nope': choose one of"),
        (("PERS/LATG/SIN", "--dice", "new16"), "row 3 has 3 faces, expected 4"),
        (("0 4", "--dice", "new16"), "size 0 must be at least 1"),
        (("missing.txt", "--dice", "new16"), "missing.txt: no such board file"),
    ],
)
def test_bad_input_exits_2_with_one_clear_message(
    args: tuple[str, ...], message: str, cache: Path
) -> None:
    result = manage("board_feasible", *args, cache=cache)
    assert result.returncode == 2
    assert message in result.stderr and result.stdout == ""


def test_unreachable_words_are_counted_with_examples_and_reasons(cache: Path) -> None:
    result = manage(
        "board_words_unreachable", "--dice", "new16", "--dictionary", ALGS4, "--examples", "5",
        cache=cache,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    words = read_word_list(Path(ALGS4)).words
    expected = unreachable_words(words, DICE_SETS["new16"])
    lines = result.stdout.splitlines()
    assert re.fullmatch(
        rf"{expected.count:,} of {len(words):,} words of .*dictionary-algs4.txt appear on no "
        r"board rolled from New 4×4 \(1992 Hasbro dice\) \(king adjacency\); checked in "
        r"[0-9.]+ s",
        lines[0],
    )
    assert lines[1] == "5 examples, spread over the list:"
    examples = [line.strip().split(": ", 1) for line in lines[2:]]
    assert len(examples) == 5
    assert all(word in expected.words and reason for word, reason in examples)


def test_unreachable_words_bad_input(cache: Path) -> None:
    unknown = manage("board_words_unreachable", "--dice", "nope", cache=cache)
    assert unknown.returncode == 2 and "unknown dice set 'nope'" in unknown.stderr
    letters = manage("board_words_unreachable", "--dice", "english-letters", cache=cache)
    assert letters.returncode == 2 and "draws letters, not dice" in letters.stderr
    negative = manage("board_words_unreachable", "--examples", "-1", cache=cache)
    assert negative.returncode == 2 and "--examples must be 0 or more" in negative.stderr


def test_standing_is_stored_once_and_read_back(database: str, cache: Path) -> None:
    args = ("board_standing", "--dice", "new16", "--dictionary", "algs4")
    first = manage(*args, database=database, cache=cache)
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    assert lines[0].startswith("New 4×4 (1992 Hasbro dice) 4×4, algs4, min length 3")
    assert "10,000 boards from seed" in lines[0]
    assert any(re.fullmatch(r"\s+50\s+\d+\s+\d+", ln) for ln in lines)
    assert any(ln.startswith("band monster   percentiles 95–100: ") for ln in lines)
    second = manage(*args, database=database, cache=cache)
    assert second.stdout.splitlines()[:-1] == lines[:-1]  # same figures, read back
    count = manage("shell", "--no-imports", "-c", COUNT, database=database, cache=cache)
    assert count.stdout.strip() == "1"
    sized = manage(
        "board_standing", "--dice", "english-letters", "--size", "3x3", "--dictionary", "algs4",
        database=database, cache=cache,
    )  # fmt: skip
    assert sized.returncode == 0 and "English letter frequencies (any size) 3×3" in sized.stdout


def test_standing_without_a_database_is_computed_not_stored(cache: Path) -> None:
    result = manage("board_standing", "--dice", "new16", "--dictionary", ALGS4, cache=cache)
    assert result.returncode == 0, result.stderr
    assert "computed (not stored" in result.stdout.splitlines()[-1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--dice", "nope"), "unknown dice set 'nope'"),
        (("--dice", "new16", "--size", "5x5"), "has dice for a 4×4 board, not 5×5"),
        (("--dice", "new16", "--size", "0x4"), "a board needs at least 1×1"),
        (("--dice", "new16", "--size", "big"), "--size 'big' is not like 5x5"),
    ],
)
def test_standing_bad_input(args: tuple[str, ...], message: str, cache: Path) -> None:
    result = manage("board_standing", *args, cache=cache)
    assert result.returncode == 2 and message in result.stderr
