"""Run management commands as a user would: a separate process, its output and exit status.

Each run is a process of its own, with the environment, arguments and standard input it is
given, but not started from scratch: a `manage.py` process spends over a second importing
Django, Twisted, wordfreq and the engine before Django even starts, most of what these tests
used to wait for. One helper process per pytest process imports those modules once, reading
no setting and nothing of the project but its engine (which imports nothing of Django), and
forks a child for each command. The child takes its environment, standard streams and
arguments, and runs manage.py from the top: Django starts, reads DATABASE_URL and the rest of
the environment, runs the command, and the child exits as Python would. The modules the
children import after the fork are compiled once into a cache outside the checkout
(PYCACHE), not by every child as PYTHONDONTWRITEBYTECODE would have it. Where the helper
cannot start (no fork, a preload failing) the commands run as plain subprocesses.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
TIMEOUT_S = 300
# Outside the checkout; a compiled module is used only while its source is unchanged.
PYCACHE = Path(tempfile.gettempdir()) / "boggle-command-pycache"

# A database with no tables, as before `migrate`: the commands fall back to the shipped files.
UNMIGRATED = "sqlite:///:memory:"

# Modules every manage.py run imports (Django starting imports them all), none of which reads
# a setting or the environment: Daphne's server first, which installs Twisted's asyncio
# reactor as it does in every run.
PRELOAD = (
    "daphne.server",
    "django.core.management",
    "django.db.models",
    "django.contrib.admin",
    "wordfreq",
    "langcodes",
    "redis",
    "OpenSSL.SSL",
    "channels.layers",
    "solver.engine.search",
    "solver.engine.everyday",
    "solver.engine.definitions",
    "solver.engine.boardsearch",
    "solver.engine.standing",
)

# The helper: preload, then for each request (a JSON line on fd 0) fork a child that runs
# manage.py, and answer with the child's pid, then its exit status (lines on fd 1).
HELPER = textwrap.dedent(
    """
    import atexit, importlib, json, os, random, runpy, sys, threading

    for name in json.loads(sys.argv[1]):
        importlib.import_module(name)
    if "boggle_site.settings" in sys.modules or threading.active_count() != 1:
        raise SystemExit("a preload started Django or a thread")
    # What the children import they compile once, into a cache of their own (with
    # PYTHONDONTWRITEBYTECODE set, each would compile the project again, a third of its run).
    sys.pycache_prefix = sys.argv[2]
    sys.dont_write_bytecode = False

    def line_read():
        data = b""
        while not data.endswith(b"\\n"):
            chunk = os.read(0, 65536)
            if not chunk:
                return None
            data += chunk
        return json.loads(data)

    def child(request):
        for fd, path, flags in (
            (0, request["stdin"], os.O_RDONLY),
            (1, request["stdout"], os.O_WRONLY | os.O_TRUNC),
            (2, request["stderr"], os.O_WRONLY | os.O_TRUNC),
        ):
            opened = os.open(path, flags)
            os.dup2(opened, fd)
            os.close(opened)
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        script = request["argv"][0]
        sys.argv = list(request["argv"])
        sys.path[0] = os.path.dirname(script)
        random.seed()  # a process of its own: not the helper's random sequence
        code = 0
        try:
            runpy.run_path(script, run_name="__main__")
        except SystemExit as stop:
            if stop.code is None:
                code = 0
            elif isinstance(stop.code, int):
                code = stop.code
            else:
                print(stop.code, file=sys.stderr)
                code = 1
        except BaseException:
            sys.excepthook(*sys.exc_info())
            code = 1
        try:  # what the interpreter does on its way out
            threading._shutdown()
            atexit._run_exitfuncs()
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code & 0xFF)

    os.write(1, b"ready\\n")
    while (request := line_read()) is not None:
        pid = os.fork()
        if pid == 0:
            child(request)
        os.write(1, f"{pid}\\n".encode())
        _, status = os.waitpid(pid, 0)
        os.write(1, f"{os.waitstatus_to_exitcode(status)}\\n".encode())
    """
)


class ForkServer:
    """The helper process of this pytest process, started on first use."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.failed = False
        self.log: IO[bytes] | None = None
        self.buffer = b""

    def _start(self) -> bool:
        if self.failed or not hasattr(os, "fork"):
            return False
        if self.process is not None:
            return True
        env = {**os.environ, "PYTHONWARNINGS": "ignore"}
        for name in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "BOGGLE_CACHE_DIR"):
            env.pop(name, None)  # read by the children only, from their own environment
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (closed by stop())
        self.process = subprocess.Popen(
            [sys.executable, "-c", HELPER, json.dumps(PRELOAD), str(PYCACHE)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            env=env,
            cwd=ROOT,
        )
        if self._line(timeout=120) != "ready":
            assert self.log is not None
            self.log.seek(0)
            said = self.log.read().decode(errors="replace")
            print(f"command helper unavailable, running subprocesses:\n{said}", file=sys.stderr)
            self.stop()
            self.failed = True
            return False
        return True

    def _line(self, timeout: float | None) -> str | None:
        """Return the helper's next line, or None if it says nothing within `timeout`."""
        assert self.process is not None and self.process.stdout is not None
        fd = self.process.stdout.fileno()
        while b"\n" not in self.buffer:
            ready, _, _ = select.select([fd], [], [], timeout)
            if not ready:
                return None
            chunk = os.read(fd, 4096)
            if not chunk:
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode()

    def run(
        self, argv: list[str], env: dict[str, str], stdin: str
    ) -> subprocess.CompletedProcess[str] | None:
        """Run `argv` (manage.py and its arguments) in a forked child, or return None if
        the helper is not available."""
        if not self._start():
            return None
        assert self.process is not None and self.process.stdin is not None
        with tempfile.TemporaryDirectory() as directory:
            paths = {name: Path(directory, name) for name in ("stdin", "stdout", "stderr")}
            paths["stdin"].write_text(stdin)
            paths["stdout"].touch()
            paths["stderr"].touch()
            request = {
                "argv": argv,
                "env": env,
                "cwd": str(ROOT),
                **{name: str(path) for name, path in paths.items()},
            }
            self.process.stdin.write(json.dumps(request).encode() + b"\n")
            self.process.stdin.flush()
            pid_line = self._line(timeout=60)
            if pid_line is None:
                raise RuntimeError("the command helper stopped answering")
            status = self._line(timeout=TIMEOUT_S)
            if status is None:
                os.kill(int(pid_line), signal.SIGKILL)
                self._line(timeout=60)
                raise subprocess.TimeoutExpired(argv, TIMEOUT_S)
            # Read as subprocess.run(text=True) does: the locale's encoding, universal newlines.
            with open(paths["stdout"]) as out, open(paths["stderr"]) as err:
                stdout, stderr = out.read(), err.read()
        return subprocess.CompletedProcess(argv, int(status), stdout, stderr)

    def stop(self) -> None:
        if self.process is not None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            if self.process.stdout is not None:
                self.process.stdout.close()
            self.process = None
        if self.log is not None:
            self.log.close()
            self.log = None


_server = ForkServer()
atexit.register(_server.stop)  # when a test elsewhere imported `manage` (tests/test_readme.py)


@pytest.fixture(scope="session", autouse=True)
def command_helper_stopped() -> Iterator[None]:
    """Stop this process's command helper at the end of the session."""
    yield
    _server.stop()


def manage(
    *args: str, stdin: str = "", cache: Path | None = None, database: str = UNMIGRATED
) -> subprocess.CompletedProcess[str]:
    """Run `manage.py ARGS` and return what it printed and its exit status.

    The database is never the developer's own: an empty one unless a test gives its URL.
    """
    env = {**os.environ, "PYTHONWARNINGS": "ignore", "DATABASE_URL": database}
    if cache is not None:
        env["BOGGLE_CACHE_DIR"] = str(cache)
    argv = [str(ROOT / "manage.py"), *args]
    forked = _server.run(argv, env, stdin)
    if forked is not None:
        return forked
    return subprocess.run(
        [sys.executable, *argv],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=TIMEOUT_S,
    )


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory: pytest.TempPathFactory, command_cache: Path) -> Path:
    """A SQLite database `manage.py migrate` made, once per pytest process (each test that
    needs a migrated database gets a copy: migrating takes seconds, copying milliseconds)."""
    path = tmp_path_factory.mktemp("migrated-template") / "db.sqlite3"
    result = manage("migrate", "-v0", database=f"sqlite:///{path}", cache=command_cache)
    assert result.returncode == 0, result.stderr
    return path


def migrated_copy(template: Path, directory: Path) -> str:
    """Copy the migrated template into `directory`; return its database URL."""
    target = directory / "db.sqlite3"
    for suffix in ("", "-wal", "-shm"):  # WAL mode: the files beside it, if any are left
        source = template.with_name(template.name + suffix)
        if source.exists():
            shutil.copyfile(source, target.with_name(target.name + suffix))
    return f"sqlite:///{target}"


@pytest.fixture(scope="session")
def command_cache(pytestconfig: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The compiled-dictionary cache of the command tests, kept from one run to the next in
    pytest's cache directory (so YAWL and ENABLE2K are compiled once, not by every run of
    every worker): compiled lists are named by their content's hash and written whole, as
    workers on one host share them, so a kept one is the list it names or is built again."""
    if getattr(pytestconfig, "cache", None) is None:  # -p no:cacheprovider
        return tmp_path_factory.getbasetemp() / "command-cache"
    return pytestconfig.cache.mkdir("command-tries")


@pytest.fixture
def cache(command_cache: Path) -> Path:
    """A compiled-dictionary cache shared by the command tests (so YAWL is built once)."""
    return command_cache
