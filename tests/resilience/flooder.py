"""An attacker in a process of its own: many sockets on one seat, each asking for a snapshot
several times a second (issue 11). Nothing here imports the project: it is a client written
from the protocol alone, as a hostile one would be.

    python -m tests.resilience.flooder '{"ports": [...], "code": "...", "key": "...",
        "sockets": 150, "resumes_per_second": 7, "seconds": 6}'

prints one JSON line: what each socket got when it connected, how it ended, and when (in
time.monotonic(), which every process on the machine shares) the flood started, had all its
answers to connecting, and ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
from dataclasses import asdict, dataclass
from typing import Any

import websockets


async def _open(port: int, code: str, key: str) -> Any:
    return await websockets.connect(
        f"ws://127.0.0.1:{port}/ws/rooms/{code}/",
        additional_headers={"Cookie": f"player={key}", "Origin": f"http://127.0.0.1:{port}"},
        open_timeout=30,
        close_timeout=2,
        proxy=None,
        max_size=None,
    )


@dataclass
class Flooder:
    """One of the attacker's sockets: what it got when it connected, and how it ended."""

    port: int
    first: dict[str, Any] | None = None  # the first frame: a snapshot, or the refusal
    close_code: int | None = None
    resumes_sent: int = 0
    rate_limited: int = 0

    async def connect(self, code: str, key: str) -> Any:
        """Open the socket; return it if the server let it in (sent a snapshot)."""
        try:
            ws = await _open(self.port, code, key)
        except websockets.InvalidStatus as refused:  # turned away at the handshake
            self.first = {"type": None, "code": f"http_{refused.response.status_code}"}
            return None
        except (websockets.InvalidMessage, ConnectionError):
            # Closed before any HTTP answer: seen once in CI, 1 socket of 150, while each
            # worker turned away about 55 at once. To an attacker it is one more refusal;
            # the test counts it beside the others.
            self.first = {"type": None, "code": "dropped"}
            return None
        with contextlib.suppress(websockets.ConnectionClosed):
            self.first = json.loads(await ws.recv())
        if self.first is None or self.first["type"] != "snapshot":
            with contextlib.suppress(websockets.ConnectionClosed):
                await ws.recv()  # the close that follows a refusal
            self.close_code = ws.close_code
            self.first = {
                "type": self.first and self.first["type"],
                "code": self.first and self.first.get("code"),
            }
            return None
        self.first = {"type": "snapshot"}
        return ws

    async def flood(self, ws: Any, rate: float, until: float) -> None:
        """Ask for a snapshot `rate` times a second until `until`, or until closed."""
        reading = asyncio.create_task(self._read(ws))
        with contextlib.suppress(websockets.ConnectionClosed):
            while time.monotonic() < until and not reading.done():
                await ws.send(json.dumps({"type": "resume", "last_seq": None}))
                self.resumes_sent += 1
                await asyncio.sleep(1 / rate)
        if not reading.done():
            await ws.close()
        await reading
        self.close_code = ws.close_code

    async def _read(self, ws: Any) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for frame in ws:
                if json.loads(frame).get("code") == "rate_limited":
                    self.rate_limited += 1


async def attack(
    ports: list[int], code: str, key: str, sockets: int, resumes_per_second: float, seconds: float
) -> dict[str, Any]:
    """Open every socket at once, over the workers in turn; once all have had their answer
    (so that none frees a place for another by being cut off), flood with the admitted."""
    started = time.monotonic()
    flooders = [Flooder(port=ports[n % len(ports)]) for n in range(sockets)]
    opened = await asyncio.gather(*(f.connect(code, key) for f in flooders))
    connected = time.monotonic()
    until = started + seconds
    await asyncio.gather(
        *(
            f.flood(ws, resumes_per_second, until)
            for f, ws in zip(flooders, opened, strict=True)
            if ws
        )
    )
    await asyncio.sleep(max(0.0, until - time.monotonic()))
    return {
        "started": started,
        "connected": connected,
        "ended": time.monotonic(),
        "sockets": [asdict(f) for f in flooders],
    }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(attack(**json.loads(sys.argv[1])))))
