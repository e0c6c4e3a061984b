"""`--dictionary` names a database slug first, then a shipped list, then a file; and
`load_dictionaries` loads the shipped data once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.commands.conftest import DATA, manage, migrated_copy

BOARD = "ATEE/APYO/TINU/EDSE"
# "tiny" is created first, so it is the database's default; "enable2k" shadows the shipped list.
SETUP = """
from solver.engine.wordlist import parse_word_list
from solver.dictionaries.services import dictionary_create
for slug, words in (("tiny", "tape pity type tin tins"), ("enable2k", "tape")):
    word_list = parse_word_list(words)
    dictionary_create(name=slug, slug=slug, word_list=word_list, alphabet=word_list.alphabet)
"""
DUMP = """
import json
from solver.models import DiceSet, Dictionary
dictionaries = Dictionary.objects.order_by("pk").values_list("slug", "content_hash", "updated_at")
dice_sets = DiceSet.objects.order_by("pk").values_list("slug", "updated_at")
print(json.dumps([list(dictionaries), list(dice_sets)], default=str))
"""


@pytest.fixture(scope="module")
def database(
    tmp_path_factory: pytest.TempPathFactory, migrated_template: Path, command_cache: Path
) -> str:
    """A migrated database holding the dictionaries "tiny" (default) and "enable2k"."""
    cache = command_cache
    url = migrated_copy(migrated_template, tmp_path_factory.mktemp("commands-db"))
    result = manage("shell", "--no-imports", "-c", SETUP, database=url, cache=cache)
    assert result.returncode == 0, result.stderr
    return url


def test_a_database_slug_names_a_dictionary(database: str, cache: Path) -> None:
    result = manage("solve", BOARD, "--dictionary", "tiny", database=database, cache=cache)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["TAPE", "TIN", "TINS", "TYPE", "Score = 4"]


def test_a_database_slug_comes_before_a_shipped_name(database: str, cache: Path) -> None:
    result = manage("solve", BOARD, "--dictionary", "enable2k", database=database, cache=cache)
    assert result.stdout.splitlines() == ["TAPE", "Score = 1"]


def test_without_a_name_the_databases_default_is_used(database: str, cache: Path) -> None:
    result = manage("solve", BOARD, database=database, cache=cache)
    assert result.stdout.splitlines()[-1] == "Score = 4"


def test_shipped_names_and_paths_still_work_beside_a_database(database: str, cache: Path) -> None:
    yawl = manage("solve", BOARD, "--dictionary", "yawl", database=database, cache=cache)
    assert yawl.returncode == 0 and len(yawl.stdout.splitlines()) > 100
    algs4 = str(DATA / "dictionaries" / "dictionary-algs4.txt")
    by_path = manage("solve", BOARD, "--dictionary", algs4, database=database, cache=cache)
    assert by_path.returncode == 0 and by_path.stdout.splitlines()[-1].startswith("Score = ")


def test_an_unknown_name_lists_what_is_accepted(database: str, cache: Path) -> None:
    result = manage("solve", BOARD, "--dictionary", "klingon", database=database, cache=cache)
    assert result.returncode == 2
    assert "unknown dictionary 'klingon': use a dictionary's slug" in result.stderr


def test_play_bench_and_board_stats_take_a_database_slug(database: str, cache: Path) -> None:
    game = "4\nATEE\nAPYO\nTINU\nEDSE\ntape\n???\n"
    played = manage(
        "play", "--dictionary", "tiny", "--min-length", "4", stdin=game, database=database
    )
    assert played.returncode == 0, played.stderr
    assert "TYPE" in played.stdout
    # No kernels' race: it runs on the shipped lists, not this one (test_bench_and_stats).
    bench = manage(
        "bench_solver", "--dictionary", "tiny", "--boards", "50", "--reference-boards", "10",
        "--repeats", "1", "--race-dictionaries", "", database=database, cache=cache,
    )  # fmt: skip
    assert bench.returncode == 0, bench.stderr
    assert "dictionary      tiny: 5 words" in bench.stdout
    assert json.loads(bench.stdout.splitlines()[-1])["mismatches"] == 0
    stats = manage("board_stats", "--boards", "20", "--dictionary", "tiny", database=database)
    assert stats.returncode == 0 and "both algorithms found the same words" in stats.stdout


def test_load_dictionaries_loads_the_shipped_data_once(
    tmp_path: Path, cache: Path, migrated_template: Path
) -> None:
    url = migrated_copy(migrated_template, tmp_path)
    first = manage("load_dictionaries", database=url, cache=cache)
    assert first.returncode == 0, first.stderr
    assert "yawl (default): 264,061 words" in first.stdout
    assert "enable2k: 173,528 words" in first.stdout
    assert "everyday: " in first.stdout  # Everyday English, cut from YAWL
    rows = manage("shell", "--no-imports", "-c", DUMP, database=url).stdout
    again = manage("load_dictionaries", database=url, cache=cache)
    assert again.returncode == 0, again.stderr
    assert manage("shell", "--no-imports", "-c", DUMP, database=url).stdout == rows
    dictionaries = [row[0] for row in json.loads(rows)[0]]
    assert dictionaries == ["yawl", "enable2k", "everyday"]  # each once, Everyday after YAWL
    slugs = [row[0] for row in json.loads(rows)[1]]
    assert sorted(slugs) == ["big25", "classic16", "english-letters", "new16", "superbig36"]


def test_load_dictionaries_before_migrate_says_what_to_do(cache: Path) -> None:
    result = manage("load_dictionaries", cache=cache)
    assert result.returncode != 0
    assert "run `manage.py migrate` first" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "command",
    [
        ["board_search", "--dice", "new16", "--seconds", "1"],
        ["preset_standings"],
        ["arena_default"],
        ["sweep"],
        ["bench_rooms"],
    ],
    ids=lambda argv: argv[0],
)
def test_a_command_that_needs_the_database_says_what_to_run_before_it_exists(
    cache: Path, command: list[str]
) -> None:
    result = manage(*command, cache=cache)
    assert result.returncode == 2
    assert "run `make run`, or run `manage.py migrate` first" in result.stderr
    assert "Traceback" not in result.stderr
