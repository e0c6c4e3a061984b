"""The room chat as a service: what a line may be, when it may be written, who may silence
whom, and an admin's deletion reaching every client (docs/protocol.md, "Chat")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import protocol
from games.chat import services as chat
from games.chat.selectors import CHAT_SHOWN
from games.models import ChatMessage, Player, RoomEvent
from games.protocol import ProtocolError
from games.rooms.selectors import events_since, room_snapshot, snapshot_frames
from games.rounds import services as rounds
from games.rules import clock
from solver.models import Dictionary
from tests.games.conftest import make_room, seat

pytestmark = pytest.mark.django_db
T0 = clock.now()


def refused(code: str, action: object) -> None:
    """Assert that calling `action` raises ProtocolError with this code."""
    with pytest.raises(ProtocolError) as caught:
        action()  # type: ignore[operator]
    assert caught.value.code == code


def post(room, player, text="hello", at=T0):  # type: ignore[no-untyped-def]
    room.refresh_from_db()
    player.refresh_from_db()
    return chat.chat_post(room=room, player=player, text=text, now=at)


def test_a_chat_frame_is_trimmed_text_of_at_most_300_characters() -> None:
    assert protocol.parse('{"type": "chat", "text": "  hi there  "}') == protocol.Chat("hi there")
    assert protocol.parse('{"type":"chat","text":"' + "é" * 300 + '"}') == protocol.Chat("é" * 300)
    for frame, code in [
        ('{"type":"chat","text":"' + "a" * 301 + '"}', protocol.CHAT_TOO_LONG),
        ('{"type": "chat", "text": "   "}', protocol.BAD_MESSAGE),
        ('{"type": "chat", "text": 5}', protocol.BAD_MESSAGE),
        ('{"type": "chat", "text": "two\\nlines"}', protocol.BAD_MESSAGE),
        ('{"type": "chat", "text": "\\ud800"}', protocol.BAD_MESSAGE),
        ('{"type": "chat"}', protocol.BAD_MESSAGE),
        ('{"type": "chat", "text": "hi", "html": true}', protocol.BAD_MESSAGE),
    ]:
        with pytest.raises(ProtocolError) as caught:
            protocol.parse(frame)
        assert caught.value.code == code, frame
    assert protocol.parse('{"type":"mute_player","player_id":3,"muted":true}') == (
        protocol.MutePlayer(3, True)
    )
    with pytest.raises(ProtocolError):
        protocol.parse('{"type":"mute_player","player_id":3,"muted":1}')


def test_a_line_is_stored_as_written_and_sent_as_a_numbered_event(game_data: Dictionary) -> None:
    room, host, _ = make_room()
    markup = '<img src=x onerror="alert(1)"> & <b>bold</b>'
    message = post(room, host, markup)
    stored = RoomEvent.objects.get(room=room, seq=room.seq + 1)
    assert message.text == markup and message.nickname == "Ann"
    assert (stored.type, stored.payload["message"]["text"]) == (protocol.CHAT_MESSAGE, markup)
    assert stored.payload["message"]["player_id"] == host.id
    assert room_snapshot(room, host, T0)["chat"] == [stored.payload["message"]]


def test_the_chat_is_closed_during_a_round_unless_the_host_opened_it(
    game_data: Dictionary,
) -> None:
    room, host, _ = make_room({"duration": 0})
    bob, _ = seat(room, "Bob")
    post(room, bob, "ready?")
    rounds.round_start(room=room, player=host, now=T0)
    refused(protocol.CHAT_CLOSED, lambda: post(room, bob, "try SITE"))
    refused(protocol.CHAT_CLOSED, lambda: post(room, host, "host too"))
    rounds.round_end_by_host(room=room, player=host, now=T0 + timedelta(seconds=5))
    post(room, bob, "gg", T0 + timedelta(seconds=6))

    open_room, open_host, _ = make_room({"duration": 0, "chat_in_rounds": True})
    rounds.round_start(room=open_room, player=open_host, now=T0)
    post(open_room, open_host, "talk while we play")
    assert list(
        ChatMessage.objects.filter(room=room).order_by("id").values_list("text", flat=True)
    ) == [
        "ready?",
        "gg",
    ]


def test_a_solo_room_has_no_chat_to_read_write_or_show(game_data: Dictionary) -> None:
    """Nobody else is in a solo room (a daily attempt is one): no box on the page, nothing
    in the snapshot, no query for it, no setting, and a line is refused even between rounds."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.identity import COOKIE_NAME, cookie_value
    from games.rooms import services as rooms
    from tests.games.conftest import new_identity

    identity = new_identity()
    solo, me = rooms.room_create(identity=identity, nickname="Ann", settings={}, solo=True)
    refused(protocol.CHAT_CLOSED, lambda: post(solo, me, "anyone?"))
    with pytest.raises(ProtocolError, match="A solo game has no chat"):  # not "during rounds"
        post(solo, me, "anyone?")
    with CaptureQueriesContext(connection) as captured:
        assert room_snapshot(solo, me, T0)["chat"] == []
    assert not [q for q in captured if "games_chatmessage" in q["sql"]]
    assert not ChatMessage.objects.filter(room=solo).exists()
    friends, _, friends_cookie = make_room()
    for room, cookie, hidden in (
        (solo, cookie_value(identity), True),
        (friends, friends_cookie, False),
    ):
        client = Client()
        client.cookies[COOKIE_NAME] = cookie
        page = client.get(f"/r/{room.code}/").content.decode()
        box = page[page.index('data-testid="chat"') :].split(">", 1)[0]
        assert (" hidden" in box) is hidden
        assert ('name="chat_in_rounds"' in page) is not hidden  # nor a setting for it


def test_a_player_writes_five_lines_in_ten_seconds_then_waits(game_data: Dictionary) -> None:
    room, host, _ = make_room()
    bob, _ = seat(room, "Bob")
    for i in range(chat.CHAT_BURST):
        post(room, bob, f"line {i}", T0 + timedelta(seconds=i))
    refused(protocol.CHAT_TOO_FAST, lambda: post(room, bob, "one more", T0 + timedelta(seconds=9)))
    post(room, host, "the host is not held up by Bob", T0 + timedelta(seconds=9))
    post(room, bob, "later", T0 + chat.CHAT_WINDOW + timedelta(seconds=0.5))
    assert ChatMessage.objects.filter(player=bob).count() == chat.CHAT_BURST + 1


def test_the_host_mutes_and_unmutes_a_player_and_nobody_else_can(game_data: Dictionary) -> None:
    room, host, _ = make_room()
    bob, _ = seat(room, "Bob")
    cy, _ = seat(room, "Cy")
    refused(
        protocol.NOT_HOST, lambda: chat.player_mute(room=room, by=bob, player_id=cy.id, muted=True)
    )
    refused(
        protocol.NO_SUCH_PLAYER,
        lambda: chat.player_mute(room=room, by=host, player_id=host.id, muted=True),
    )
    room.refresh_from_db()
    chat.player_mute(room=room, by=host, player_id=bob.id, muted=True)
    update = RoomEvent.objects.filter(room=room).order_by("-seq").first()
    assert update is not None and update.type == protocol.PLAYER_UPDATED
    assert update.payload["player"] == {**update.payload["player"], "id": bob.id, "muted": True}
    refused(protocol.CHAT_MUTED, lambda: post(room, bob, "let me speak"))
    post(room, cy, "Cy still can")
    chat.player_mute(room=room, by=host, player_id=bob.id, muted=False)
    post(room, bob, "thanks")
    assert Player.objects.get(pk=bob.id).chat_muted is False
    assert ChatMessage.objects.filter(player=bob).count() == 1


def test_a_snapshot_carries_the_latest_lines_in_frames_that_fit(game_data: Dictionary) -> None:
    room, host, _ = make_room()
    ChatMessage.objects.bulk_create(
        ChatMessage(
            room=room, player=host, nickname="Ann", text=f"{i:03} " + "ü" * 290, created_at=T0
        )
        for i in range(CHAT_SHOWN + 10)
    )
    snapshot = room_snapshot(room, host, T0)
    assert [line["text"][:3] for line in snapshot["chat"]] == [
        f"{i:03}" for i in range(10, CHAT_SHOWN + 10)
    ]
    frames = snapshot_frames(room_snapshot(room, host, T0), max_bytes=8000)
    assert len(frames) > 2 and frames[0]["chat"] == []
    assert all(protocol.size(frame) <= 8000 for frame in frames)
    assert [line for frame in frames[1:] for line in frame["chat"]] == snapshot["chat"]


def test_an_admin_deletes_lines_and_no_client_gets_their_text_again(
    game_data: Dictionary,
) -> None:
    room, host, _ = make_room()
    bob, _ = seat(room, "Bob")
    kept = post(room, host, "welcome")
    rude = post(room, bob, "something rude")
    room.refresh_from_db()
    before = room.seq
    admin = get_user_model().objects.create_superuser("boss", "boss@example.com", "pw-1234-xyz")
    client = Client()
    client.force_login(admin)
    listing = client.get("/admin/games/chatmessage/?q=rude")
    assert listing.status_code == 200 and b"something rude" in listing.content
    answer = client.post(
        "/admin/games/chatmessage/",
        {"action": "delete_selected", "_selected_action": [rude.pk], "post": "yes"},
    )
    assert answer.status_code == 302
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["welcome"]
    room.refresh_from_db()
    deleted = RoomEvent.objects.get(room=room, seq=before + 1)
    assert (deleted.type, deleted.payload) == (protocol.CHAT_DELETED, {"ids": [rude.pk]})
    caught_up = events_since(room, 0)
    assert caught_up is not None and "something rude" not in str(caught_up)
    assert [line["id"] for line in room_snapshot(room, host, T0)["chat"]] == [kept.pk]
    one = client.post(f"/admin/games/chatmessage/{kept.pk}/delete/", {"post": "yes"})
    assert one.status_code == 302 and not ChatMessage.objects.exists()
    assert client.get(f"/admin/games/chatmessage/{kept.pk}/change/").status_code == 302


def test_a_line_of_characters_that_show_nothing_is_refused() -> None:
    """Zero-width spaces, bidi controls, Hangul fillers and the blank Braille pattern draw
    as nothing: a line made only of them would be stored and broadcast as an empty line."""
    for blank in ["\u200b\u200b", "\u202e\u2066", "\u3164\u3164\u3164", "\u2800", "\u200d \ufe0f"]:
        frame = '{"type": "chat", "text": "' + blank.encode("unicode_escape").decode() + '"}'
        with pytest.raises(ProtocolError) as caught:
            protocol.parse(frame)
        assert caught.value.code == protocol.BAD_MESSAGE, repr(blank)
        assert "shows" in str(caught.value.detail), repr(blank)
    # A line with one mark that shows is a line, invisible characters and all.
    assert protocol.parse('{"type": "chat", "text": "\\u200bhi"}') == protocol.Chat("\u200bhi")
