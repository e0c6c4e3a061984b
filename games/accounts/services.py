"""Accounts: creating one from what a browser played, bringing a browser's play into an
account at login, and deleting an account with its record.

Passwords, sessions and login throttling are Django's own (django.contrib.auth, with
django-axes counting wrong passwords); these services only tie accounts to the player
identities (games.identity) that hold seats and rounds.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from axes.models import AccessAttempt, AccessFailureLog, AccessLog  # type: ignore[import-untyped]
from django.contrib.auth.models import User
from django.db import transaction

from games.arena.results import TOP
from games.daily.services import daily_attempts_move
from games.identity import account_identity, identity_create
from games.models import (
    ArenaEntry,
    ChatMessage,
    Player,
    PlayerIdentity,
    Refusal,
    Room,
    RoomEvent,
    Round,
    WordReport,
)
from games.realtime.outbox import account_sockets_close
from games.seats.services import nickname_free, player_leave

# The name a deleted account's seats take in the rooms where others still see its rounds.
DELETED_NICKNAME = "Deleted player"


def account_create(
    *, username: str, password: str, identity: PlayerIdentity | None
) -> tuple[User, PlayerIdentity]:
    """Create an account (username and password, already validated by the sign-up form)
    that owns `identity`, the browser's anonymous identity with everything it played, or a
    new identity when the browser has none; return the account and its identity."""
    with transaction.atomic():
        user = User.objects.create_user(username=username, password=password)
        if identity is None or identity.user_id is not None:
            return user, identity_create(user=user)
        PlayerIdentity.objects.filter(pk=identity.pk).update(user=user)
        identity.user = user
        return user, identity


def identity_merge(*, source: PlayerIdentity | None, user: User, now: datetime) -> PlayerIdentity:
    """Bring what an anonymous identity played into an account at login; return the
    identity the browser plays as from now on (the account's).

    The anonymous identity's seats move to the account's identity, so a room the browser
    sits in keeps its seat after login; where the account already has a seat in the same
    room (played from another device), the browser takes the account's seat there and the
    anonymous one is given up (the room is told), since nothing could open it again; its
    rounds stay, under that identity. Either way that identity joins the account, so the
    record counts every round. An identity another account owns is never taken. Call it
    through games.realtime.runner so the rooms hear of the seats given up.
    """
    with transaction.atomic():
        into = account_identity(user)
        if source is None or source.pk == into.pk or source.user_id is not None:
            return into
        # One conditional UPDATE claims the identity: of two logins racing, one moves it.
        if PlayerIdentity.objects.filter(pk=source.pk, user__isnull=True).update(user=user) == 0:
            return into
        taken = Player.objects.filter(identity=into).values("room_id")
        Player.objects.filter(identity=source).exclude(room_id__in=taken).update(identity=into)
        for seat in Player.objects.filter(identity=source, removed_at__isnull=True).select_related(
            "room"
        ):
            player_leave(room=seat.room, player=seat, now=now)
        # The daily attempts follow (one ranked attempt a day for the account as a whole).
        daily_attempts_move(source=source, into=into)
    return into


def account_delete(*, user: User, now: datetime) -> None:
    """Delete an account and its record. Rooms where nobody else played go whole; in the
    others the player's seats stay, under an anonymous name and with no identity, so the
    other players' results (who found which words, which were struck) still hold; nothing
    else names the player. django-axes' records of the account's sign-ins go too."""
    identities = list(PlayerIdentity.objects.filter(user=user).values_list("pk", flat=True))
    seats = list(Player.objects.filter(identity_id__in=identities).select_related("room"))
    with transaction.atomic():
        for room_id in {seat.room_id for seat in seats}:
            mine = [seat for seat in seats if seat.room_id == room_id]
            if _played_alone(room_id, identities) and not mine[0].room.is_arena:
                Room.objects.filter(pk=room_id).delete()
            else:
                for seat in mine:
                    _seat_anonymise(seat, now)
        PlayerIdentity.objects.filter(pk__in=identities).delete()
        username = user.get_username()
        for model in (AccessAttempt, AccessFailureLog, AccessLog):
            model.objects.filter(username=username).delete()
        account_sockets_close(user_id=user.pk)  # its other devices' open rooms, once gone
        user.delete()


def password_changed(*, user: User) -> None:
    """Close every open socket of the account once its password has changed (Django has
    ended its other sessions; a socket is let in only when it opens): this browser's page
    reconnects and finds its seat, another device's finds none."""
    account_sockets_close(user_id=user.pk)


def _played_alone(room_id: int, identities: Iterable[int]) -> bool:
    """Return whether the only people ever seated in the room are these identities'."""
    others = Player.objects.filter(room_id=room_id, bot_level="").exclude(
        identity_id__in=list(identities)
    )
    return not others.exists()


def _seat_anonymise(seat: Player, now: datetime) -> None:
    """Give up the seat (passing the host role on, telling the room), then strip its name
    from the seat, the room's stored results and its event log, and drop its refusals and
    word reports."""
    if seat.removed_at is None:
        player_leave(room=seat.room, player=seat, now=now)
    taken = set(
        Player.objects.filter(room_id=seat.room_id)
        .exclude(pk=seat.pk)
        .values_list("nickname_key", flat=True)
    )
    name = nickname_free(DELETED_NICKNAME, taken)
    seat.refresh_from_db()
    # The player's own words about words go: refusals only they saw, and their reports (with
    # what they wrote); what others' results need (submissions, hints) stays, unnamed.
    Refusal.objects.filter(player=seat).delete()
    WordReport.objects.filter(player=seat).delete()
    seat.nickname, seat.nickname_key, seat.identity = name, "", None
    seat.save(update_fields=["nickname", "nickname_key", "identity"])  # save() keys the name
    rounds = Round.objects.filter(room_id=seat.room_id, results__isnull=False)
    if seat.room.is_arena:  # an arena's rounds name their top 10; each player has an entry
        ArenaEntry.objects.filter(player=seat).update(nickname=name)
        rounds = rounds.filter(arena_entries__player=seat, arena_entries__rank__lte=TOP)
    for rnd in rounds:
        if _renamed(rnd.results, seat.pk, name):
            rnd.save(update_fields=["results"])
    # The chat keeps the lines (the others' talk would not read without them), unnamed; and
    # every stored event that names the seat (its arrival, its chat lines, the results, the
    # host role passed on...) is renamed: a room keeps at most KEEP_EVENTS of them.
    ChatMessage.objects.filter(player=seat).update(nickname=name)
    for event in RoomEvent.objects.filter(room_id=seat.room_id):
        if _renamed(event.payload, seat.pk, name):
            event.save(update_fields=["payload"])


def _renamed(data: Any, player_id: int, name: str) -> bool:
    """Rename the player in stored JSON (every object with a "nickname" and its seat's id as
    "id", or as "player_id" in a chat line); return whether anything changed."""
    changed = False
    if isinstance(data, dict):
        names_it = data.get("id") == player_id or data.get("player_id") == player_id
        if names_it and "nickname" in data and data["nickname"] != name:
            data["nickname"] = name
            changed = True
        for value in data.values():
            changed = _renamed(value, player_id, name) or changed
    elif isinstance(data, list):
        for item in data:
            changed = _renamed(item, player_id, name) or changed
    return changed
