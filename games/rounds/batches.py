"""Submitted words, stored together: a worker's words that arrive while others are being
stored go to the database in one transaction (group commit), each answered once committed.

A socket awaits its word's answer as before (one word at a time per socket); the word waits
here only while WRITERS batches (one) are already being stored, then goes with every word
that arrived meanwhile, up to BATCH_MAX. A lone word goes at once, so an idle worker answers as
fast as before, and a busy one commits, and flushes the database's log, once per batch
instead of once per word (games.rounds.submissions.submissions_create says what a batch
promises: each word answered as if it had come alone). Batches run in database threads of
their own (a lane of the runner's, a thread per writer), never queued behind other services.
"""

from __future__ import annotations

import asyncio
import logging
from functools import partial
from typing import Any

from games.realtime.runner import Lane, service_run
from games.rounds.submissions import Sent, submissions_create

log = logging.getLogger(__name__)

# Batches in the database threads at once, per worker. One: the words arriving while a batch
# is stored go together in the next (with four, most batches were a single word), so a busy
# worker commits, and flushes the database's log, less often, and one thread, not four, wants
# Python's lock while the event loop serves the sockets. `make bench-arena` (2,000 players, a
# word every 2 s each, two workers on two cores, the live top spread) gave an acknowledgement
# p99 of 34-46 ms with one writer, 46-78 with two and 82 with four (docs/history.md).
WRITERS = 1
BATCH_MAX = 200  # words in one transaction

Waiting = tuple[Sent, "asyncio.Future[dict[str, Any]]"]


class WordBatches:
    """The words of one event loop's sockets waiting to be stored."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.lane = Lane(WRITERS, "words")  # a database thread per writer
        self.waiting: list[Waiting] = []
        self.writers: set[asyncio.Task[None]] = set()
        self.batches = 0  # stored so far (tests and benchmarks read it)

    async def submit(self, sent: Sent) -> dict[str, Any]:
        """Store a word (in the next batch) and return its answer, or raise its error."""
        future: asyncio.Future[dict[str, Any]] = self.loop.create_future()
        self.waiting.append((sent, future))
        if len(self.writers) < WRITERS:
            writer = self.loop.create_task(self._write())
            self.writers.add(writer)
            writer.add_done_callback(self.writers.discard)
        return await future

    async def _write(self) -> None:
        """Store batches of waiting words until none waits."""
        while self.waiting:
            batch, self.waiting = self.waiting[:BATCH_MAX], self.waiting[BATCH_MAX:]
            sents = [sent for sent, _ in batch]
            self.batches += 1
            try:
                answers = await service_run(partial(submissions_create, sents), self.lane)
            except asyncio.CancelledError:  # the loop is closing: so are the sockets waiting
                for _, future in batch:
                    future.cancel()
                raise
            except Exception as exc:  # the runner failed, not a word: every word's error
                log.exception("storing a batch of %d words failed", len(batch))
                answers = [exc] * len(batch)
            for (_, future), answer in zip(batch, answers, strict=True):
                if future.done():  # its socket closed meanwhile; the word is stored
                    continue
                if isinstance(answer, Exception):
                    future.set_exception(answer)
                else:
                    future.set_result(answer)


_batches: WordBatches | None = None


def word_batches() -> WordBatches:
    """Return the running event loop's batches (each test runs a loop of its own)."""
    global _batches
    loop = asyncio.get_running_loop()
    if _batches is None or _batches.loop is not loop:
        if _batches is not None:
            _batches.lane.close()
        _batches = WordBatches(loop)
    return _batches


async def word_submit(sent: Sent) -> dict[str, Any]:
    """Store a submitted word with the others arriving now; return its answer."""
    return await word_batches().submit(sent)
