"""Rooms and players: create, join, seats per browser, settings, removal and the host role."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils.html import escape

from games.bots import services as bots
from games.models import Player, Room, RoomEvent
from games.protocol import NO_SUCH_PLAYER, NOT_HOST, ProtocolError
from games.rooms import services as rooms
from games.rooms.services import JoinError
from games.rounds import services as rounds
from games.rules import clock
from games.rules.nicknames import nickname_key
from games.rules.room_settings import SettingsError
from games.seats import presence
from games.seats import services as seats
from solver.models import Dictionary
from tests.games.conftest import make_room, migrate_to, new_identity, seat


def test_the_creator_hosts_a_room_with_a_short_hard_to_guess_code(game_data: Dictionary) -> None:
    room, host, _ = make_room()
    assert room.host_id == host.id
    assert len(room.code) == 6 and set(room.code) <= set(rooms.CODE_ALPHABET)
    assert len({make_room()[0].code for _ in range(20)}) == 20


def test_the_same_browser_gets_the_same_seat(game_data: Dictionary) -> None:
    room, host, key = make_room()
    assert rooms.player_join(room=room, identity=host.identity, nickname="Other") == host
    assert Player.objects.filter(room=room).count() == 1


def test_a_taken_name_gets_a_number(game_data: Dictionary) -> None:
    room, _, _ = make_room(nickname="Ann")
    second, _ = seat(room, "Ann")
    third, _ = seat(room, "Ann")
    assert (second.nickname, third.nickname) == ("Ann 2", "Ann 3")


@pytest.mark.parametrize(
    "lookalike",
    ["Ηost", "Ｈost", "Hоst", "host", "HOST", " Host "],
    ids=["greek-eta", "fullwidth-h", "cyrillic-o", "lower", "upper", "spaces"],
)
def test_a_name_that_reads_like_a_taken_one_gets_a_number(
    game_data: Dictionary, lookalike: str
) -> None:
    room, _, _ = make_room(nickname="Host")
    player, _ = seat(room, lookalike)
    assert player.nickname == f"{lookalike.strip()} 2"


def test_a_player_renamed_for_a_look_alike_is_told_so_once(game_data: Dictionary) -> None:
    room, _, _ = make_room(nickname="Hana")
    guest = Client()
    page = guest.post(f"/r/{room.code}/join/", {"nickname": "hana"}, follow=True)
    html = page.content.decode()
    assert page.status_code == 200 and 'data-testid="notice"' in html
    assert escape("“hana” reads like a name already in this room") in html
    assert escape("so you play as “hana 2”") in html
    again = guest.post(f"/r/{room.code}/join/", {"nickname": "hana"}, follow=True)
    assert 'data-testid="notice"' not in again.content.decode()  # the seat is theirs now
    other = Client().post(f"/r/{room.code}/join/", {"nickname": "Kai"}, follow=True)
    assert 'data-testid="notice"' not in other.content.decode()  # a free name: nothing to say
    assert Player.objects.filter(room=room).count() == 3


def test_a_numbered_look_alike_skips_numbers_that_read_like_taken_ones(
    game_data: Dictionary,
) -> None:
    room, _, _ = make_room(nickname="Host")
    seat(room, "Host")  # "Host 2"
    player, _ = seat(room, "Ηost")
    assert player.nickname == "Ηost 3"


def test_the_nickname_key_is_the_case_folded_confusables_skeleton() -> None:
    assert {nickname_key(n) for n in ("Host", "Ηost", "Ｈost", "Hоst", "HOST")} == {"host"}
    assert nickname_key("Ann") != nickname_key("Anna")
    assert nickname_key("Zoë") != nickname_key("Zoe")


def test_the_database_refuses_two_look_alike_names_in_one_room(game_data: Dictionary) -> None:
    room, host, _ = make_room(nickname="Host")
    other, _, _ = make_room(nickname="Host")  # another room may have its own Host
    assert other.host.nickname == "Host"  # type: ignore[union-attr]
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(room=room, nickname="Ηost")  # save() stores its key, "host"


def test_seats_created_in_bulk_are_keyed_too(game_data: Dictionary) -> None:
    room, _, _ = make_room(nickname="Host")
    Player.objects.bulk_create([Player(room=room, nickname=f"p{n}") for n in range(3)])
    keys = set(Player.objects.filter(room=room).values_list("nickname_key", flat=True))
    assert keys == {"host", "po", "pl", "p2"}  # 0 reads as o, 1 as l
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.bulk_create([Player(room=room, nickname="HOST")])


def test_a_full_room_seats_nobody_else_and_a_leaving_player_frees_a_seat(
    game_data: Dictionary, settings: Any
) -> None:
    settings.BOGGLE_ROOM_PLAYERS_MAX = 3
    room, host, host_key = make_room()
    bob, _ = seat(room, "Bob")
    seat(room, "Cy")
    with pytest.raises(JoinError, match="^This room is full.$"):
        seat(room, "Dee")
    assert rooms.player_join(room=room, identity=host.identity, nickname="Ann") == host
    seats.player_leave(room=room, player=bob, now=clock.now())
    assert seat(room, "Dee")[0].nickname == "Dee"
    assert Player.objects.filter(room=room, removed_at__isnull=True).count() == 3


def test_computer_players_take_seats_and_are_refused_in_a_full_room(
    game_data: Dictionary, settings: Any
) -> None:
    settings.BOGGLE_ROOM_PLAYERS_MAX = 2
    room, host, _ = make_room()
    bots.bot_add(room=room, by=host, level="easy")
    with pytest.raises(JoinError, match="^This room is full.$"):
        seat(room, "Bob")
    with pytest.raises(bots.BotError, match="^This room is full.$"):
        bots.bot_add(room=room, by=host, level="easy")


@pytest.mark.parametrize(
    "name", ["", "   ", "x" * 25, "<script>alert(1)</script>", "a\u0000b", "tab\u200bzero", 42]
)
def test_hostile_or_empty_nicknames_are_refused(game_data: Dictionary, name: object) -> None:
    room, _, _ = make_room()
    with pytest.raises(JoinError):
        rooms.player_join(room=room, identity=new_identity(), nickname=name)  # type: ignore[arg-type]
    assert Player.objects.filter(room=room).count() == 1


def test_a_name_made_only_of_fillers_is_refused_and_one_with_a_filler_reads_as_without(
    game_data: Dictionary,
) -> None:
    """Hangul fillers (U+3164, U+115F, U+FFA0) are letters to str.isalnum() but draw as
    nothing: three of them made a blank name, and one after "Hch" sat beside "Hch"."""
    room, _, _ = make_room(nickname="Hch")
    for blank in ["\u3164\u3164\u3164", "\u115f", "\uffa0 \u3164", "..."]:
        with pytest.raises(JoinError, match="^A nickname needs letters or digits that show.$"):
            rooms.player_join(room=room, identity=new_identity(), nickname=blank)
    player, _ = seat(room, "Hch\u3164")
    assert player.nickname == "Hch\u3164 2"
    assert nickname_key("Hch\u3164") == nickname_key("Hch") == nickname_key("H\u3164ch")
    assert Player.objects.filter(room=room).count() == 2


def test_nicknames_are_tidied(game_data: Dictionary) -> None:
    assert rooms.nickname_clean("  Zoë   O'Neil ") == "Zoë O'Neil"
    assert rooms.nickname_clean("two\nlines") == "two lines"


def test_settings_change_by_the_host_only_and_are_validated(game_data: Dictionary) -> None:
    room, host, _ = make_room()
    guest, _ = seat(room, "Bob")
    with pytest.raises(ProtocolError) as info:
        rooms.room_settings_update(room=room, player=guest, settings={"preset": "big"})
    assert info.value.code == NOT_HOST
    with pytest.raises(SettingsError):
        rooms.room_settings_update(
            room=room, player=host, settings={"preset": "custom", "dice": "d20"}
        )
    with pytest.raises(SettingsError):
        rooms.room_settings_update(room=room, player=host, settings={"dictionary": "klingon"})
    room.refresh_from_db()
    assert room.settings["preset"] == "classic"
    rooms.room_settings_update(room=room, player=host, settings={"preset": "big"})
    room.refresh_from_db()
    assert (room.settings["dice"], room.settings["rows"]) == ("big25", 5)
    assert RoomEvent.objects.filter(room=room, type="settings_changed").exists()


def test_custom_letter_boards_keep_their_size_and_dice_sets_bring_theirs(
    game_data: Dictionary,
) -> None:
    room, host, _ = make_room()
    rooms.room_settings_update(
        room=room,
        player=host,
        settings={"preset": "custom", "dice": "english-letters", "rows": 8, "cols": 3},
    )
    room.refresh_from_db()
    assert (room.settings["rows"], room.settings["cols"]) == (8, 3)
    rooms.room_settings_update(
        room=room, player=host, settings={"preset": "custom", "dice": "superbig36", "rows": 2}
    )
    room.refresh_from_db()
    assert (room.settings["rows"], room.settings["cols"]) == (6, 6)


def test_the_host_removes_players_and_passes_the_role(game_data: Dictionary) -> None:
    room, host, _ = make_room()
    bob, bob_key = seat(room, "Bob")
    with pytest.raises(ProtocolError) as info:
        seats.player_remove(room=room, by=bob, player_id=host.id, now=clock.now())
    assert info.value.code == NOT_HOST
    seats.player_remove(room=room, by=host, player_id=bob.id, now=clock.now())
    with pytest.raises(JoinError, match="removed"):
        rooms.player_join(room=room, identity=bob.identity, nickname="Bob")
    with pytest.raises(ProtocolError) as info:
        seats.player_remove(room=room, by=host, player_id=bob.id, now=clock.now())
    assert info.value.code == NO_SUCH_PLAYER
    cy, _ = seat(room, "Cy")
    seats.host_transfer(room=room, by=host, player_id=cy.id)
    assert Room.objects.get(pk=room.pk).host_id == cy.id


def test_a_leaving_host_passes_the_role_to_the_longest_present_connected_player(
    game_data: Dictionary,
) -> None:
    room, host, _ = make_room()
    bob, _ = seat(room, "Bob")
    cy, _ = seat(room, "Cy")
    for p in (cy, bob):
        presence.player_connect(player=p, now=clock.now())
    seats.player_leave(room=room, player=host, now=clock.now())
    assert Room.objects.get(pk=room.pk).host_id == bob.id


def test_a_disconnected_host_keeps_the_role_for_a_moment_then_the_sweep_passes_it(
    game_data: Dictionary,
) -> None:
    room, host, _ = make_room()
    bob, _ = seat(room, "Bob")
    now = clock.now()
    for p in (host, bob):
        presence.player_connect(player=p, now=now)
    presence.player_disconnect(player_id=host.id, now=now)
    rooms.rooms_tidy(now=now + timedelta(seconds=2))
    assert Room.objects.get(pk=room.pk).host_id == host.id
    rooms.rooms_tidy(now=now + clock.HOST_AWAY + timedelta(seconds=1))
    assert Room.objects.get(pk=room.pk).host_id == bob.id


def test_players_not_seen_for_a_while_are_marked_away(game_data: Dictionary) -> None:
    room, host, _ = make_room()
    now = clock.now()
    presence.player_connect(player=host, now=now)
    rooms.rooms_tidy(now=now + clock.PRESENCE_TIMEOUT + timedelta(seconds=1))
    assert Player.objects.get(pk=host.pk).connections == 0


def test_players_gone_stale_together_are_marked_away_together(
    game_data_committed: Dictionary,
) -> None:
    """A worker that died with many sockets leaves many stale players at once: the sweep
    reads and updates them in a fixed number of queries, tells each room of its own players
    (not the arena's, whose page lists none), and leaves alone a player seen since."""
    now = clock.now()
    made = [make_room(), make_room()]
    arena_room, arena_host, _ = make_room()
    Room.objects.filter(pk=arena_room.pk).update(is_arena=True)
    arena_players = [arena_host] + [seat(arena_room, f"A{n}")[0] for n in range(12)]
    players = [p for room, host, _ in made for p in [host, seat(room, "Bob")[0]]]
    for p in players + arena_players:
        presence.player_connect(player=p, now=now)
    later = now + clock.PRESENCE_TIMEOUT + timedelta(seconds=1)
    seen = players[1]
    presence.player_seen(player=seen, now=later)
    updates = RoomEvent.objects.filter(type="player_updated")
    events = updates.count()

    with CaptureQueriesContext(connection) as queries:
        rooms.rooms_tidy(now=later)

    sql = [q["sql"] for q in queries]
    stale_part = sql[: sql.index("COMMIT")]  # then the hosts' passing and the idle rooms
    on_players = [q for q in stale_part if '"games_player"' in q.split(" WHERE ")[0]]
    assert len(on_players) == 3, on_players  # list, update, read: not four for each of 15
    assert Player.objects.get(pk=seen.pk).connections == 1
    gone = [p for p in players + arena_players if p.pk != seen.pk]
    assert all(
        c == 0
        for c in Player.objects.filter(pk__in=[p.pk for p in gone]).values_list(
            "connections", flat=True
        )
    )
    told = RoomEvent.objects.filter(type="player_updated").order_by("-pk")[: len(players) - 1]
    assert updates.count() == events + len(players) - 1  # none for the arena's
    assert sorted(e.payload["player"]["id"] for e in told) == sorted(
        p.pk for p in players if p.pk != seen.pk
    )
    assert not any(e.payload["player"]["connected"] for e in told)


def test_empty_rooms_are_closed_after_a_long_time(game_data: Dictionary) -> None:
    room, _, _ = make_room()
    rooms.rooms_tidy(now=clock.now() + clock.IDLE_ROOM + timedelta(minutes=1))
    room.refresh_from_db()
    assert room.closed_at is not None
    with pytest.raises(JoinError, match="closed"):
        rooms.player_join(room=room, identity=new_identity(), nickname="Late")


@pytest.mark.django_db(transaction=True)
def test_the_migration_keys_old_seats_and_keeps_look_alikes_seated_before_it() -> None:
    old = migrate_to(("games", "0002_bots_and_solo"))
    room = old.get_model("games", "Room").objects.create(code="BCDFGH")
    seated = old.get_model("games", "Player")
    for name in ("Host", "Ηost", "Ann"):
        seated.objects.create(room=room, nickname=name)

    migrate_to(("games", "0003_player_nickname_key_no_lookalikes"))
    keys = dict(Player.objects.filter(room_id=room.id).values_list("nickname", "nickname_key"))
    assert keys["Host"] == "host" and keys["Ann"] == "ann"
    assert keys["Ηost"].startswith("host#")  # kept, under a key no new name can take
    migrate_to()


@pytest.mark.django_db(transaction=True)
def test_the_migration_keys_again_the_names_holding_characters_that_show_nothing() -> None:
    old = migrate_to(("games", "0016_round_results_and_solution_lz4"))
    room = old.get_model("games", "Room").objects.create(code="BCDFGH")
    seated = old.get_model("games", "Player")
    # Seated under the old key, which kept the filler: "Hch" and "Hch" + U+3164 side by side.
    seated.objects.create(room=room, nickname="Hch", nickname_key="hch")
    seated.objects.create(room=room, nickname="Hch\u3164", nickname_key="hch\u3164")
    seated.objects.create(room=room, nickname="Bo\u3164b", nickname_key="bo\u3164b")

    migrate_to(("games", "0017_nickname_keys_without_invisibles"))
    keys = dict(Player.objects.filter(room_id=room.id).values_list("nickname", "nickname_key"))
    assert keys["Hch"] == "hch" and keys["Bo\u3164b"] == "bob"
    assert keys["Hch\u3164"].startswith("hch#")  # kept, under a key no new name can take
    migrate_to()


def test_every_host_command_refuses_anyone_but_the_host(game_data: Dictionary) -> None:
    room, host, _ = make_room()
    guest, _ = seat(room, "Bob")
    now = clock.now()
    commands = [
        lambda: rooms.room_settings_update(room=room, player=guest, settings={}),
        lambda: seats.player_remove(room=room, by=guest, player_id=host.id, now=now),
        lambda: seats.host_transfer(room=room, by=guest, player_id=guest.id),
        lambda: rounds.round_start(room=room, player=guest, now=now),
        lambda: rounds.round_end_by_host(room=room, player=guest, now=now),
        lambda: bots.bot_add(room=room, by=guest, level="easy"),
    ]
    for command in commands:
        with pytest.raises(ProtocolError) as info:
            command()
        assert info.value.code == NOT_HOST
    assert RoomEvent.objects.filter(room=room).count() == 1  # Bob's arrival, nothing since


@pytest.mark.django_db(transaction=True)
def test_the_identity_migration_keeps_every_seat_with_its_browser() -> None:
    """Seats held by a session key before identities existed are held by one identity per
    session afterwards, under that (server-issued, secret) key; computer players hold none."""
    old = migrate_to(("games", "0004_given_board_and_standing"))
    rooms_old = old.get_model("games", "Room")
    seated = old.get_model("games", "Player")
    first, second = rooms_old.objects.create(code="BCDFGH"), rooms_old.objects.create(code="BCDFGJ")
    seated.objects.create(room=first, nickname="Ann", nickname_key="ann", session_key="a" * 32)
    seated.objects.create(room=second, nickname="Ann", nickname_key="ann", session_key="a" * 32)
    seated.objects.create(room=first, nickname="Bob", nickname_key="bob", session_key="b" * 32)
    seated.objects.create(room=first, nickname="Bot", nickname_key="bot", bot_level="easy")

    # The models as they were then: later migrations add columns today's models read.
    seats = migrate_to(("games", "0005_player_identity")).get_model("games", "Player")
    held = {
        (seat.room.code, seat.nickname): seat.identity.key if seat.identity else None
        for seat in seats.objects.select_related("room", "identity")
    }
    assert held == {
        ("BCDFGH", "Ann"): "a" * 32,
        ("BCDFGJ", "Ann"): "a" * 32,
        ("BCDFGH", "Bob"): "b" * 32,
        ("BCDFGH", "Bot"): None,
    }
    migrate_to()


def test_activity_is_noted_at_most_twice_a_minute_and_keeps_a_room_open(
    game_data: Dictionary,
) -> None:
    room, host, _ = make_room()
    start = Room.objects.get(pk=room.pk).last_activity_at
    soon = start + presence.ACTIVITY_PRECISION / 2
    presence.player_connect(player=host, now=soon)  # the room's row is not written again
    assert Room.objects.get(pk=room.pk).last_activity_at == start
    later = start + presence.ACTIVITY_PRECISION + timedelta(seconds=1)
    presence.player_disconnect(player_id=host.id, now=later)
    assert Room.objects.get(pk=room.pk).last_activity_at == later
    rooms.rooms_tidy(now=later + clock.IDLE_ROOM - timedelta(seconds=1))
    assert Room.objects.get(pk=room.pk).closed_at is None
    rooms.rooms_tidy(now=later + clock.IDLE_ROOM + timedelta(seconds=1))
    assert Room.objects.get(pk=room.pk).closed_at is not None
