"""What services cause, recorded in an outbox that fills only when their transaction commits.

Two kinds of effect: numbered room events (stored, then broadcast) and "the word counts (or
the spectator count) of room R changed" (sent, coalesced, by games.realtime.counts). A service
records them here; the runner (games.realtime.runner) that called it delivers them. Nothing recorded
in a transaction that rolls back ever leaves.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from games import protocol
from games.models import Room, RoomEvent, sql
from games.realtime.delivery import outbox_deliver_sync

KEEP_EVENTS = 500  # per room; a client further behind than this gets a snapshot


def room_group(room_id: int) -> str:
    """Return the channel-layer group of a room's sockets."""
    return f"room-{room_id}"


def account_group(user_id: int) -> str:
    """Return the channel-layer group of every socket an account's seats have open."""
    return f"account-{user_id}"


def relay_group(room_id: int) -> str:
    """Return the channel-layer group of the workers that relay a room's notices to their
    sockets (games.realtime.relay): one member per worker, not per socket."""
    return f"room-{room_id}-relay"


@dataclass
class Outbox:
    """What committed services emitted: messages for room groups, and the rooms whose word
    counts or spectator counts changed."""

    messages: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    # a kind of live count (games.realtime.counts) -> the rooms whose count of it changed
    counts_changed: dict[str, set[int]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.messages or self.counts_changed)


_open = threading.local()


@contextmanager
def outbox_collect() -> Iterator[Outbox]:
    """Collect what is committed in this block (in this thread) for the caller to deliver."""
    outbox = Outbox()
    outer = getattr(_open, "outbox", None)
    _open.outbox = outbox
    try:
        yield outbox
    finally:
        _open.outbox = outer


def event_emit(*, room_id: int, kind: str, data: dict[str, Any]) -> RoomEvent:
    """Store the room's next numbered event; it goes to the room once the transaction commits."""
    if kind not in protocol.EVENT_KINDS:
        raise ValueError(f"unknown room event kind {kind!r}")
    # No savepoint inside a caller's transaction (two more round trips for every event): an
    # event that fails to store fails its whole transaction, as it should.
    with transaction.atomic(savepoint=False):
        seq_column = sql.column(Room, "seq")
        ((seq,),) = sql.rows(  # one statement: bump and read (it locks the row)
            f"UPDATE {sql.table(Room)} SET {seq_column} = {seq_column} + 1 "
            f"WHERE {sql.column(Room, 'id')} = %s RETURNING {seq_column}",
            [room_id],
        )
        event = RoomEvent.objects.create(room_id=room_id, seq=seq, type=kind, payload=data)
        if seq % 100 == 0:
            RoomEvent.objects.filter(room_id=room_id, seq__lte=seq - KEEP_EVENTS).delete()
        message = {"type": "room.event", "seq": seq, "event": kind, "data": data}
        # robust: delivering without a runner (a view) must not fail the caller after the
        # commit; the event is stored and clients catch up by sequence number.
        transaction.on_commit(
            lambda: _record(lambda box: box.messages.append((room_group(room_id), message))),
            robust=True,
        )
    return event


def notice_emit(*, room_id: int, message: dict[str, Any], relayed: bool = False) -> None:
    """Record an unnumbered notice for the room's sockets, sent once this commits (each
    carries its whole state, so a lost one is made good by the next: never stored).
    `relayed`: to the room's workers, each writing it to its own sockets (games.realtime.relay;
    an arena's), rather than to each socket through the room's group."""
    group = relay_group(room_id) if relayed else room_group(room_id)
    notice = {"type": "relay.notice" if relayed else "room.notice", "message": message}
    transaction.on_commit(
        lambda: _record(lambda box: box.messages.append((group, notice))), robust=True
    )


def account_sockets_close(*, user_id: int) -> None:
    """Record that every open socket of the account is to close (CLOSE_SIGNED_OUT) once this
    commits: its sessions ended, and a socket is let in only at its opening."""
    message = {"type": "account.closed"}
    transaction.on_commit(
        lambda: _record(lambda box: box.messages.append((account_group(user_id), message))),
        robust=True,
    )


def count_changed(*, kind: str, room_id: int) -> None:
    """Record that the room's live count of a kind changed (sent, coalesced, once this
    commits: games.realtime.counts)."""
    transaction.on_commit(
        lambda: _record(lambda box: box.counts_changed.setdefault(kind, set()).add(room_id)),
        robust=True,
    )


def _record(put: Callable[[Outbox], object]) -> None:
    """Put a committed effect in this thread's open outbox, or deliver it now if none is
    open (a service called outside the runner, as views do)."""
    outbox = getattr(_open, "outbox", None)
    if outbox is not None:
        put(outbox)
        return

    alone = Outbox()
    put(alone)
    outbox_deliver_sync(alone)
