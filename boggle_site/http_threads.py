"""Django's ASGI handler, with the threads its requests' synchronous code runs in kept for reuse.

Django runs each HTTP request's synchronous parts (every middleware here but WhiteNoise, and
synchronous views) in a thread of that request's own: asgiref makes a new one-thread executor
for the request and, when it ends, joins that thread. Both steps wait for the new thread to be
scheduled, and on a busy worker that is the GIL's turn: under `make bench-daily` (2,000 starts
in a minute) the event loop spent about a tenth of its time starting and joining them, while
every socket on the worker waited. Here a request borrows an idle one-thread executor, or
makes one when all are busy, and gives it back: each request still has a thread of its own,
and concurrent requests still run side by side.

It also ends a request without a reference cycle (`listen_for_disconnect`, below).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext
from django.core.handlers.asgi import ASGIHandler

KEPT = 16  # idle executors kept; past that a returned one is shut down (its thread ends)


class KeptThreadsASGIHandler(ASGIHandler):
    """ASGIHandler whose requests borrow one-thread executors from a pool."""

    def __init__(self) -> None:
        super().__init__()
        self.idle: list[ThreadPoolExecutor] = []
        self.made = 0  # executors made so far (the tests read it)

    def _borrow(self) -> ThreadPoolExecutor:
        if self.idle:
            return self.idle.pop()
        self.made += 1
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="http")

    def _give_back(self, executor: ThreadPoolExecutor) -> None:
        if len(self.idle) < KEPT:
            self.idle.append(executor)
        else:
            executor.shutdown(wait=False)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        executor = self._borrow()
        try:
            # The request's synchronous calls all go to this executor's one thread, as they
            # would to the thread Django makes for a request; it outlives the request.
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            self._give_back(executor)

    async def listen_for_disconnect(self, receive: Any) -> None:
        """Wait for the client to go, and return then rather than raise RequestAborted.

        Django 5.2's `handle` cancels an unfinished view whichever way this ends. Raised, the
        exception (kept by this task, then raised again in `handle` from the task's result)
        held `handle`'s frame, and with it the request and the response, in a cycle only the
        garbage collector frees: after nearly every request, as daphne reports each client
        going. Under `make bench-daily` those were most of the worker's young garbage, and
        its collections paused every socket for tens of milliseconds.
        """
        message = await receive()
        if message["type"] != "http.disconnect":  # as Django's: an ASGI server's mistake
            raise AssertionError(f"Invalid ASGI message after request body: {message['type']}")


def kept_threads_asgi_application() -> KeptThreadsASGIHandler:
    """Set Django up and return the HTTP application (as get_asgi_application does)."""
    import django

    django.setup(set_prefix=False)
    return KeptThreadsASGIHandler()
