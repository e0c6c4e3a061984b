"""A minimal HTTP/1.1 client on asyncio streams, for the load benchmarks: thousands of
requests in flight at once without a thread each (asyncio.to_thread's pool holds a handful,
and a benchmark timing requests queued there measures its own queue)."""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit


async def http_request(
    url: str, method: str, path: str, headers: dict[str, str], body: bytes = b""
) -> tuple[int, dict[str, str], bytes]:
    """Send one request to a server (url: http://host:port) on a new connection; return the
    status, the headers (lower-case names) and the body."""
    parts = urlsplit(url)
    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
    try:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {parts.netloc}", "Connection: close"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if body or method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await writer.drain()
        raw = await reader.read()
    finally:
        writer.close()
        await writer.wait_closed()
    head, _, content = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    answer = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        answer[name.strip().lower()] = value.strip()
    if answer.get("transfer-encoding", "").lower() == "chunked":
        content = _unchunk(content)
    return int(status_line.split(" ", 2)[1]), answer, content


def _unchunk(body: bytes) -> bytes:
    out, rest = b"", body
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out, rest = out + rest[:size], rest[size + 2 :]
    return out
