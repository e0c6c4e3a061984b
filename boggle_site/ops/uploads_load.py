"""What a large request body costs a web worker, measured from outside: gunicorn started as
production starts it (one worker, so its memory is the one measured), and the peak resident
memory of that worker (Linux's VmHWM, reset before each request) against its memory before.

Four requests, as an attacker and an admin sent them: a 100 MiB multipart POST to the home
page (refused by its declared size before anything reads it), the same body sent chunked
(no declared size: Django reads no body it was not told the size of), an admin upload of a
13 MiB word list within the caps (read and checked in the request; compiled afterwards in a
process of its own), and an admin upload of a word<TAB>definition list just under the
definitions' 40 MiB cap (read, checked and stored in the request). A thread asks for a
small page every 100 ms meanwhile: the slowest answer says how long other requests waited."""

from __future__ import annotations

import http.client
import http.cookiejar
import random
import re
import secrets
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

MiB = 1 << 20
LETTERS = "etaoinshrdlcumwfgypbvkjxqz"
WEIGHTS = [12, 9, 8, 8, 7, 7, 6, 6, 6, 4, 4, 3, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1]


@dataclass(frozen=True)
class Measured:
    """One request's answer and what it cost the worker."""

    name: str
    status: int
    seconds: float
    rss_before_mib: float
    peak_added_mib: float
    slowest_other_s: float  # the slowest answer to another request meanwhile


def memory_kib(pid: int) -> tuple[int, int]:
    """Return a process's resident memory now and its peak since the last reset (KiB)."""
    values = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, rest = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            values[name] = int(rest.split()[0])
    return values["VmRSS"], values["VmHWM"]


def peak_reset(pid: int) -> None:
    """Start counting a process's peak resident memory afresh (Linux: clear_refs 5)."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")


def worker_pid(master_pid: int, timeout: float = 30.0) -> int:
    """Return the pid of gunicorn's one worker process, a child of its master."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        children = Path(f"/proc/{master_pid}/task/{master_pid}/children").read_text().split()
        if children:
            return int(children[0])
        time.sleep(0.1)
    raise RuntimeError("gunicorn started no worker")


def word_list_bytes(size: int, seed: int = 1) -> bytes:
    """Return a word list of about `size` bytes: distinct made-up words of 3 to 12 letters,
    one a line, drawn with English letter frequencies (the same list for the same seed)."""
    rng = random.Random(seed)
    seen: set[str] = set()
    lines: list[str] = []
    total = 0
    while total < size:
        word = "".join(rng.choices(LETTERS, WEIGHTS, k=rng.randint(3, 12)))
        if word not in seen:
            seen.add(word)
            lines.append(word)
            total += len(word) + 1
    return ("\n".join(lines) + "\n").encode()


def definitions_tsv_bytes(size: int, seed: int = 2) -> bytes:
    """Return a word<TAB>definition list of about `size` bytes (at most `size`): made-up words
    of 3 to 12 letters, each with a definition of 4 to 14 made-up words, a few words with a
    second sense (the same list for the same seed)."""
    rng = random.Random(seed)
    lines: list[bytes] = []
    total = 0
    word = ""

    def made_up(low: int, high: int) -> str:
        return "".join(rng.choices(LETTERS, WEIGHTS, k=rng.randint(low, high)))

    while True:
        if not word or rng.random() > 0.1:  # one word in ten gets a second sense
            word = made_up(3, 12)
        line = f"{word}\t{' '.join(made_up(2, 9) for _ in range(rng.randint(4, 14)))}\n".encode()
        if total + len(line) > size:
            return b"".join(lines)
        lines.append(line)
        total += len(line)


def multipart(fields: dict[str, str], files: dict[str, tuple[str, bytes]]) -> tuple[str, bytes]:
    """Return a multipart/form-data body of these fields and files, and its content type."""
    boundary = f"----bench{secrets.token_hex(8)}"
    parts: list[bytes] = []
    for name, value in fields.items():
        head = f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
        parts.append(f"{head}{value}\r\n".encode())
    for name, (filename, content) in files.items():
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
            f'filename="{filename}"\r\nContent-Type: application/octet-stream\r\n\r\n'
        )
        parts += [head.encode(), content, b"\r\n"]
    parts.append(f"--{boundary}--\r\n".encode())
    return f"multipart/form-data; boundary={boundary}", b"".join(parts)


class Site:
    """A browser's cookies on the benchmark's server."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str) -> bytes:
        with self.opener.open(self.url + path, timeout=120) as answer:
            return bytes(answer.read())

    def token(self, path: str) -> str:
        found = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', self.get(path))
        if found is None:
            raise RuntimeError(f"no form on {path}")
        return found[1].decode()

    def login(self, username: str, password: str) -> None:
        token = self.token("/admin/login/")
        form = {"username": username, "password": password, "csrfmiddlewaretoken": token}
        body = urllib.parse.urlencode({**form, "next": "/admin/"}).encode()
        request = urllib.request.Request(self.url + "/admin/login/", data=body, method="POST")
        with self.opener.open(request, timeout=30) as answer:
            if not answer.url.rstrip("/").endswith("/admin"):
                raise RuntimeError("the benchmark's staff user could not log in")

    def post(self, path: str, content_type: str, body: bytes, chunked: bool = False) -> int:
        """POST a body (declared, or chunked without a size); return the status."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.jar)
        headers = {"Content-Type": content_type, "Cookie": cookies, "Referer": self.url + path}
        try:
            connection.putrequest("POST", path)
            framing = (
                {"Transfer-Encoding": "chunked"} if chunked else {"Content-Length": str(len(body))}
            )
            for name, value in {**headers, **framing}.items():
                connection.putheader(name, value)
            connection.endheaders()
            try:
                for start in range(0, len(body), MiB):
                    piece = body[start : start + MiB]
                    connection.send(
                        f"{len(piece):x}\r\n".encode() + piece + b"\r\n" if chunked else piece
                    )
                if chunked:
                    connection.send(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass  # the server answered before the body ended, and closed: read its answer
            answer = connection.getresponse()
            answer.read()
            return answer.status
        except (ConnectionError, http.client.HTTPException):
            return 0  # closed without an answer
        finally:
            connection.close()


class Prober(threading.Thread):
    """Asks for a small page every 100 ms and keeps the slowest answer's time."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.stopping = threading.Event()
        self.slowest = 0.0

    def run(self) -> None:
        while not self.stopping.is_set():
            started = time.perf_counter()
            try:
                with urllib.request.urlopen(self.url, timeout=60) as answer:  # noqa: S310
                    answer.read()
            except OSError:
                pass
            self.slowest = max(self.slowest, time.perf_counter() - started)
            self.stopping.wait(0.1)

    def stop(self) -> float:
        self.stopping.set()
        self.join()
        return self.slowest


def measure(name: str, pid: int, probe_url: str, send: Callable[[], int]) -> Measured:
    """Send one request while probing; return its answer and the worker's peak memory."""
    time.sleep(0.5)  # let the last request's memory settle
    before, _ = memory_kib(pid)
    peak_reset(pid)
    prober = Prober(probe_url)
    prober.start()
    started = time.perf_counter()
    status = send()
    seconds = time.perf_counter() - started
    slowest = prober.stop()
    _, peak = memory_kib(pid)
    return Measured(name, status, seconds, before / 1024, max(0, peak - before) / 1024, slowest)
