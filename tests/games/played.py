"""Rounds played to order: a given board, the words each player found, the round ended, so
that tests of the record and of accounts know every figure in advance."""

from __future__ import annotations

from games.models import Player, Room, Round, Submission
from games.rounds import services as rounds
from games.rules import clock

# A given board and a custom game that plays it with the games tests' word list (algs4):
# 118 words, RETAILERS (9 letters, 11 points) the longest.
BOARD = "4x4-PERSLATGSINETERS"
ROOM_SETTINGS = {"preset": "custom", "dice": "english-letters", "rows": 4, "cols": 4, "duration": 0}


def round_played(room: Room, host: Player, found: dict[Player, list[str]]) -> Round:
    """Play a round of the room on BOARD in which each player found these words; return it
    finished and scored (duplicates cancel, as the room's settings say by default)."""
    Room.objects.filter(pk=room.pk).update(next_board=BOARD)
    rnd = rounds.round_start(room=room, player=host, now=clock.now())
    paths = {word: (path, points) for word, path, points in rnd.solution}
    Submission.objects.bulk_create(
        Submission(
            round=rnd,
            player=player,
            word=word,
            path=paths[word][0],
            points=paths[word][1],
            client_id=word,
        )
        for player, words in found.items()
        for word in words
    )
    assert rounds.round_end(round_id=rnd.id, now=clock.now(), force=True)
    rnd.refresh_from_db()
    return rnd
