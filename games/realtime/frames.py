"""Frames as they leave a worker: stamped with the server time, and never over the frame
limit daphne enforces both ways."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings

from games import protocol
from games.rules import clock

log = logging.getLogger(__name__)


def stamped_frame(message: dict[str, Any]) -> str | None:
    """Return a message encoded as a frame stamped with the server time (clients correct
    their clocks by it), or None, logged as the bug it is, if the frame is over the limit
    daphne enforces both ways (it would close the socket with 1011)."""
    frame = protocol.dump({**message, "server_time": clock.millis(clock.now())})
    size = len(frame.encode())
    if size > settings.WEBSOCKET_MAX_FRAME_BYTES:
        log.error("not sending a %s frame of %d bytes", message.get("type"), size)
        return None
    return frame
