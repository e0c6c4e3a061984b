"""Processes the web server starts and leaves to run on their own (a board search, a large
dictionary's compile): detached, their output in a log file, reaped by a thread so none
lingers as a zombie of the server. Work that takes seconds of CPU and hundreds of MiB runs
there, not in a request's thread."""

from __future__ import annotations

import logging
import subprocess
import threading
from pathlib import Path
from typing import IO

from django.conf import settings

logger = logging.getLogger(__name__)


def process_log_path(kind: str, name: str) -> Path:
    """Return the log file of a process of this kind ("board-search", "dictionary-compile"):
    beside the compiled dictionaries (var/ by default), so a server with its own cache keeps
    its own logs."""
    return Path(settings.BOGGLE_CACHE_DIR).parent / kind / f"{name}.log"


def _log_file(log_path: Path) -> IO[bytes] | None:
    """Return the log opened for writing, or None where it cannot be written: the work
    matters more than its log, so it then runs without one."""
    try:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        return log_path.open("wb")  # each start writes its log anew
    except OSError:
        logger.warning("cannot write %s: the process runs without a log", log_path)
        return None


def process_spawn(argv: list[str], log_path: Path) -> int:
    """Start a detached process writing to `log_path` and return its id; a thread reaps it
    when it ends, so it never lingers as a zombie of the web server."""
    log = _log_file(log_path)
    try:
        process = subprocess.Popen(
            argv,
            cwd=settings.BASE_DIR,
            stdin=subprocess.DEVNULL,
            stdout=log if log is not None else subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # not killed with the server's process group
            close_fds=True,
        )
    finally:
        if log is not None:
            log.close()  # the process has its own copy
    threading.Thread(target=process.wait, name=f"reap-{process.pid}", daemon=True).start()
    return process.pid
