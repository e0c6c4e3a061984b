"""Several workers on one machine: daphne processes and a private Redis, started, killed and
measured. Used by `manage.py cluster` (make cluster), the load benchmarks and the resilience
tests, so that all three run the workers exactly as docs/operations.md describes."""

from __future__ import annotations

import asyncio
import gc
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TypeVar

from django.conf import settings

from boggle_site.deploy.nginx import NGINX, nginx_main, nginx_site

ROOT = Path(__file__).resolve().parents[2]
T = TypeVar("T")


def clients_run(main: Coroutine[Any, Any, T]) -> T:
    """Run a benchmark's clients (`asyncio.run`) with this process's garbage collector paused.

    Thousands of simulated browsers in one process made its collections last up to a sixth of
    a second (measured in `bench_daily`'s client); every reply that arrived meanwhile was
    timed late and the delay charged to the server. A run lasts minutes: what it leaves for
    the collector is collected after it.
    """
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        return asyncio.run(main)
    finally:
        gc.enable()
        gc.unfreeze()


# How long a websocket handshake may wait for the consumer to accept it (daphne's default, 5 s,
# dropped some of 2,000 arena sockets arriving at once without an answer: docs/operations.md).
HANDSHAKE_TIMEOUT_S = 30


def max_frame_bytes() -> int:
    """Return daphne's --websocket-max-message-size: the largest frame either way (the
    consumer refuses client frames over 4 KiB itself and never sends one over this)."""
    return int(settings.WEBSOCKET_MAX_FRAME_BYTES)


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def port_open(port: int) -> bool:
    """Return whether something accepts connections on 127.0.0.1:port."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
    except OSError:
        return False
    return True


def rss_kib(pid: int) -> int:
    """Return a process's resident memory in KiB (Linux /proc; 0 if it has gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _die_with_parent() -> None:
    """In the child before exec: ask Linux to SIGKILL it when its parent dies, so that a
    test run or benchmark that is itself killed leaves no worker behind."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _stat_cpu_seconds(stat: str) -> float:
    """Return the CPU time (user + system, s) in a /proc stat file (0 if it is gone)."""
    try:
        fields = Path(stat).read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """Return the CPU time (user + system) a process has used, in seconds (0 if gone)."""
    return _stat_cpu_seconds(f"/proc/{pid}/stat")


def tree_cpu_seconds(pid: int) -> float:
    """Return the CPU time (s) of a process and of every process under it (gunicorn's
    master and its workers), those still running."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    total, todo = 0.0, [pid]
    while todo:
        current = todo.pop()
        total += cpu_seconds(current)
        todo.extend(children.get(current, []))
    return total


def loop_and_rest_cpu_seconds(pid: int) -> tuple[float, float]:
    """Return the CPU time (s) a worker's main thread used (daphne's event loop: protocols,
    frames, the consumers' own code) and the rest of the process (database threads, the
    sweep), threads that have ended included; (0, 0) if it has gone."""
    loop = _stat_cpu_seconds(f"/proc/{pid}/task/{pid}/stat")
    return loop, max(0.0, cpu_seconds(pid) - loop)


def machine_cpu() -> tuple[float, float]:
    """Return (busy, total) CPU time of the whole machine so far, in clock ticks."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    total = sum(values[:8])
    return total - idle, total


def pids_named(name: str) -> list[int]:
    """Return the processes whose command name is `name` (e.g. postgres), from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == name:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


class StartError(RuntimeError):
    """A process did not come up; the message ends with the tail of its log."""


def _tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


@dataclass
class Process:
    """One child process listening on a port on 127.0.0.1, with its output in a log file."""

    port: int
    log_path: Path
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0  # time.monotonic() of the last start
    ready_at: float = 0.0  # time.monotonic() when the port first accepted a connection
    _log: IO[bytes] | None = field(default=None, repr=False)

    def command(self) -> list[str]:
        raise NotImplementedError

    def environment(self) -> dict[str, str]:
        return dict(os.environ)

    @property
    def pid(self) -> int:
        assert self.process is not None, "not started"
        return self.process.pid

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self, *, wait: float = 30.0) -> None:
        """Start the process (again) and wait until its port accepts connections."""
        if self.alive:
            raise RuntimeError(f"{self} is already running")
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = self.log_path.open("ab")
        self.started_at = time.monotonic()
        self.process = subprocess.Popen(
            self.command(),
            cwd=ROOT,
            env=self.environment(),
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # a ^C to `make cluster` reaches the command, which stops us
            preexec_fn=_die_with_parent if sys.platform == "linux" else None,
        )
        if wait and self.port:
            self.wait_ready(wait)

    def wait_ready(self, timeout: float = 30.0) -> float:
        """Wait until the port accepts connections; return the seconds since the start."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise StartError(f"{self} exited with {self.process.returncode}:\n{self.tail()}")
            if port_open(self.port):
                self.ready_at = time.monotonic()
                return self.ready_at - self.started_at
            time.sleep(0.05)
        raise StartError(f"{self} did not listen within {timeout:.0f} s:\n{self.tail()}")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Send a signal (SIGKILL by default: no goodbye to sockets or the database)."""
        if self.alive:
            assert self.process is not None
            self.process.send_signal(sig)
            if sig == signal.SIGKILL:
                self.process.wait(timeout=10)
                self._close_log()

    def stop(self, timeout: float = 5.0) -> None:
        """Terminate politely, then kill if it has not gone within `timeout` seconds."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:  # daphne waits for open sockets to close
                self.process.kill()
                self.process.wait(timeout=10)
        self._close_log()

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def rss_kib(self) -> int:
        """Return the resident memory of the process in KiB."""
        return rss_kib(self.pid) if self.alive else 0

    def tail(self, lines: int = 30) -> str:
        """Return the last lines of the process's log."""
        return _tail(self.log_path, lines)


@dataclass
class Worker(Process):
    """A daphne worker serving the project, as in docs/operations.md."""

    env: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"daphne worker on port {self.port}"

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        return [
            sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
            "--proxy-headers", "--websocket-max-message-size", str(max_frame_bytes()),
            "--websocket_connect_timeout", str(HANDSHAKE_TIMEOUT_S),
            "boggle_site.asgi:application",
        ]  # fmt: skip

    def environment(self) -> dict[str, str]:
        return {**os.environ, **self.env}


GUNICORN_CONF = ROOT / "boggle_site" / "deploy" / "gunicorn.conf.py"


@dataclass
class HttpServer(Process):
    """gunicorn serving the project's pages and JSON (boggle_site.wsgi), as in
    docs/operations.md."""

    env: dict[str, str] = field(default_factory=dict)
    workers: int = 2
    threads: int = 8

    def __str__(self) -> str:
        return f"gunicorn on port {self.port}"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        return [
            sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF),
            "-b", f"127.0.0.1:{self.port}", "boggle_site.wsgi:application",
        ]  # fmt: skip

    def environment(self) -> dict[str, str]:
        return {
            **os.environ,
            "GUNICORN_WORKERS": str(self.workers),
            "GUNICORN_THREADS": str(self.threads),
            **self.env,
        }


@dataclass
class Sweeper(Process):
    """`manage.py sweep`: the sweep in a process of its own (it listens on no port)."""

    env: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return "sweep process"

    def command(self) -> list[str]:
        return [sys.executable, str(ROOT / "manage.py"), "sweep"]

    def environment(self) -> dict[str, str]:
        return {**os.environ, **self.env}


def nginx_path() -> str | None:
    """Return the nginx executable, if this machine has one (Debian's package: nginx)."""
    return shutil.which("nginx") or (NGINX if Path(NGINX).exists() else None)


@dataclass
class Proxy(Process):
    """nginx in front of gunicorn and the daphne workers, with the site docs/operations.md
    shows (boggle_site.deploy.nginx), over plain http on a port of its own."""

    http: list[int] = field(default_factory=list)
    ws: list[int] = field(default_factory=list)
    static_root: Path = Path()

    def __str__(self) -> str:
        return f"nginx on port {self.port}"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def prefix(self) -> Path:
        return self.log_path.parent / "nginx"

    def command(self) -> list[str]:
        self.prefix.mkdir(parents=True, exist_ok=True)
        site = nginx_site(
            listen=f"127.0.0.1:{self.port}",
            server_name="127.0.0.1",
            http=[f"127.0.0.1:{port}" for port in self.http],
            ws=[f"127.0.0.1:{port}" for port in self.ws],
            static_root=str(self.static_root),
        )
        conf = self.prefix / "nginx.conf"
        conf.write_text(nginx_main(site, self.prefix))
        return [nginx_path() or "nginx", "-p", str(self.prefix), "-c", str(conf)]


def redis_server_path() -> str | None:
    """Return the redis-server executable, if this machine has one."""
    return shutil.which("redis-server")


@dataclass
class RedisServer(Process):
    """A private, empty, non-persistent Redis on its own port: killing and restarting it
    touches nothing else on the machine."""

    def __str__(self) -> str:
        return f"redis-server on port {self.port}"

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def command(self) -> list[str]:
        server = redis_server_path() or "redis-server"
        return [
            server, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
            "--appendonly", "no", "--daemonize", "no",
        ]  # fmt: skip

    def clients(self) -> int:
        """Return how many client connections the server has, not counting this question."""
        return redis_clients(self.url)


def redis_clients(url: str) -> int:
    """Return the number of client connections of the Redis at `url`, not counting ours."""
    import redis

    client = redis.Redis.from_url(url, socket_timeout=3)
    try:
        info: dict[str, Any] = client.info("clients")  # type: ignore[assignment]
        return int(info["connected_clients"]) - 1
    finally:
        client.close()


@dataclass
class Cluster:
    """Workers started for a benchmark (and their private Redis, if they have one), with
    gunicorn for HTTP, nginx in front and a sweep process when asked for."""

    workers: list[Worker]
    redis: RedisServer | None
    http: HttpServer | None = None
    proxy: Proxy | None = None
    sweeper: Sweeper | None = None

    @property
    def urls(self) -> list[str]:
        """Return the websocket base URL of each daphne worker."""
        return [worker.url for worker in self.workers]

    @property
    def http_urls(self) -> list[str]:
        """Return where HTTP goes: nginx, else gunicorn, else each worker (daphne serves
        HTTP too, as under `make run`)."""
        if self.proxy is not None:
            return [self.proxy.url]
        if self.http is not None:
            return [self.http.url]
        return [worker.http_url for worker in self.workers]

    def processes(self) -> list[Process]:
        """Return every process of the cluster, the proxy first, Redis last."""
        extra = [p for p in (self.proxy, self.http, self.sweeper) if p is not None]
        return [*extra, *self.workers, *([self.redis] if self.redis is not None else [])]

    def stop(self) -> None:
        for process in self.processes():
            process.stop()


# A load benchmark's clients all come from this machine's one address: lift the limits that
# guard a worker against one address's flood, or the benchmark would measure those instead.
ONE_ADDRESS_LOAD = {
    "BOGGLE_SOCKETS_PER_ADDRESS": "1000000",
    "BOGGLE_SOCKET_OPENS_BURST": "1000000",
    "BOGGLE_DAILY_STARTS_PER_ADDRESS": "1000000",
}


def cluster_start(
    workers: int,
    *,
    log_dir: Path,
    secret_key: str,
    private_redis: bool = True,
    env: dict[str, str] | None = None,
    http: bool = False,
    proxy: Path | None = None,
    sweeper: bool = False,
) -> Cluster:
    """Start `workers` daphne workers on free ports with this environment's database and
    production settings (DEBUG off, plain http), sharing a private Redis (or REDIS_URL);
    `env` overrides any of their variables. `http`: gunicorn for HTTP too; `proxy` (the
    STATIC_ROOT collected): nginx in front of both, as in production; `sweeper`: a sweep
    process beside the workers."""
    redis = RedisServer(port=free_port(), log_path=log_dir / "redis.log") if private_redis else None
    if redis is not None:
        redis.start()
    redis_url = redis.url if redis is not None else os.environ.get("REDIS_URL", "")
    if workers > 1 and not redis_url:
        raise RuntimeError("several workers need Redis: set REDIS_URL or use a private one")
    env = {
        "DEBUG": "false",
        "HTTPS": "false",
        "SECRET_KEY": secret_key,  # identity cookies the benchmark signs must be valid there
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "WARNING",
        "REDIS_URL": redis_url,
        **(env or {}),
    }
    if proxy is not None:
        http = True
        env = {"BEHIND_PROXY": "true", "STATIC_ROOT": str(proxy), **env}
    cluster = Cluster(
        [
            Worker(port=free_port(), log_path=log_dir / f"worker-{n}.log", env=env)
            for n in range(workers)
        ],
        redis,
    )
    if http:
        cluster.http = HttpServer(port=free_port(), log_path=log_dir / "gunicorn.log", env=env)
    if proxy is not None:
        cluster.proxy = Proxy(
            port=free_port(),
            log_path=log_dir / "nginx.log",
            http=[cluster.http.port] if cluster.http is not None else [],
            ws=[worker.port for worker in cluster.workers],
            static_root=proxy,
        )
    if sweeper:
        cluster.sweeper = Sweeper(port=0, log_path=log_dir / "sweep.log", env=env)
    listening = [p for p in cluster.processes() if p is not redis]
    for process in listening:
        process.start(wait=False)
    try:
        for process in listening:
            if process.port:
                process.wait_ready()
    except StartError:
        cluster.stop()
        raise
    return cluster
