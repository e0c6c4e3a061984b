"""README.md, as a new user follows it from a fresh clone: every `make` target it names exists
and `make help` lists it, and every manage.py example names a real command and files that the
repository ships (never a path outside it), and prints what the README says it prints."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import get_commands

from tests.commands.conftest import manage

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
# The docs a newcomer follows after it: their make targets and commands must work too.
GUIDES = README + "\n" + (ROOT / "docs" / "playing.md").read_text()


def code_in(markdown: str) -> list[str]:
    """Return the code blocks and inline code spans of a markdown text."""
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```", markdown, flags=re.S | re.M)
    prose = re.sub(r"^```.*?^```", "", markdown, flags=re.S | re.M)
    return blocks + re.findall(r"`([^`\n]+)`", prose)


def shell_commands(markdown: str) -> list[str]:
    """Return the commands of the README's sh blocks, continuation lines joined."""
    blocks = re.findall(r"^```sh\n(.*?)^```", markdown, flags=re.S | re.M)
    return [
        line.strip()
        for block in blocks
        for line in block.replace("\\\n", " ").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]


def manage_commands(markdown: str) -> list[list[str]]:
    """Return the README's manage.py examples as argument lists (after `manage.py`)."""
    found = []
    for command in shell_commands(markdown):
        words = shlex.split(command, comments=True)
        if "manage.py" in words:
            found.append(words[words.index("manage.py") + 1 :])
    return found


MAKE_TARGETS = sorted(
    {t for code in code_in(GUIDES) for t in re.findall(r"\bmake ([a-z-]+)", code)}
)
MANAGE_COMMANDS = manage_commands(GUIDES)


def test_the_readme_names_make_targets_and_manage_commands() -> None:
    assert {"run", "test", "help", "check", "clean", "distclean"} <= set(MAKE_TARGETS)
    assert ["solve", "tests/data/boards/board-points4540.txt"] in MANAGE_COMMANDS


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_every_make_target_the_readme_names_is_in_the_makefile_and_in_make_help() -> None:
    makefile = (ROOT / "Makefile").read_text()
    listed = subprocess.run(
        ["make", "--no-print-directory", "-s", "help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    ).stdout
    described = dict(re.findall(r"^  make (\S+) +(\S.*)$", listed, flags=re.M))
    for target in MAKE_TARGETS:
        assert re.search(rf"^{re.escape(target)}:", makefile, flags=re.M), target
        assert described.get(target), f"`make help` says nothing about make {target}"


@pytest.mark.parametrize("args", MANAGE_COMMANDS, ids=lambda args: " ".join(args)[:50])
def test_every_manage_py_example_is_a_command_with_paths_the_repository_ships(
    args: list[str],
) -> None:
    assert args[0] in get_commands(), f"manage.py has no command {args[0]}"
    for word in args[1:]:
        if "/" in word and "." in word and "://" not in word:  # a file, not rows like A/B/C
            path = (ROOT / word).resolve()
            assert path.is_relative_to(ROOT), f"{word} is outside the repository"
            assert path.exists(), f"{word} is not in the repository"


SCORED = [
    (args, int(score[1]))
    for command in shell_commands(README)
    if (score := re.search(r"# Score = (\d+)$", command))
    for args in manage_commands(f"```sh\n{command}\n```\n")
]


@pytest.mark.slow
@pytest.mark.parametrize(("args", "score"), SCORED, ids=lambda v: str(v)[:50])
def test_the_readme_solve_examples_print_the_score_they_claim(
    args: list[str], score: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    result = manage(*args, cache=tmp_path_factory.getbasetemp() / "command-cache")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == f"Score = {score}"


def _daphne_options(words: list[str]) -> list[str]:
    """Return a daphne command's options and their values, without the address and port."""
    start = next(n for n, word in enumerate(words) if word.endswith("daphne")) + 1
    options = words[start:]
    for flag in ("-b", "-p"):
        if flag in options:
            at = options.index(flag)
            del options[at : at + 2]
    return options


@pytest.mark.parametrize("doc", ["README.md", "docs/operations.md"])
def test_the_documented_daphne_command_runs_workers_as_the_cluster_does(doc: str) -> None:
    """A deployment copies the docs' daphne command: it must carry every option the cluster
    and the benchmarks run their workers with (the frame limit, the handshake's timeout)."""
    from boggle_site.ops.cluster import HANDSHAKE_TIMEOUT_S, Worker

    text = (ROOT / doc).read_text().replace("\\\n", " ")
    commands = [
        shlex.split(line, comments=True)
        for line in text.splitlines()
        if re.search(r"\bdaphne -b\b", line)
    ]
    assert commands, f"{doc} shows no daphne command"
    expected = _daphne_options(Worker(port=8001, log_path=Path("x")).command())  # python -m daphne
    assert "--websocket_connect_timeout" in expected and str(HANDSHAKE_TIMEOUT_S) in expected
    for words in commands:
        assert _daphne_options(words) == expected, words
