"""The daily board's ranking against real workers, as the attacker played it: fresh cookies
from one network for more ranked attempts, and a script that plays every word of the board
at machine speed over the socket."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

import pytest
import websockets
from django.utils.html import escape

from games.daily.rules import DAILY_GAMES, UNRANKED_NETWORK, utc_day
from games.daily.selectors import leaderboard_page
from games.daily.services import daily_board_get
from games.models import DailyAttempt
from games.rules import clock
from tests.resilience.client import Browser, frames_until
from tests.resilience.conftest import Cluster

pytestmark = [pytest.mark.resilience, pytest.mark.django_db(transaction=True)]


def test_fresh_cookies_and_machine_play_do_not_take_the_leaderboard(
    cluster: Cluster,
) -> None:
    # Today's board, drawn here (the test list is small: a lower minimum), then read by the
    # workers from the database as every worker reads a day's board.
    game = replace(DAILY_GAMES["4x4"], min_words=10)
    board = daily_board_get(game=game, day=utc_day(clock.now()))
    port = cluster.workers[0].port
    site = f"http://127.0.0.1:{port}"
    start = f"/daily/4x4/{board.day.isoformat()}/start/"

    script = Browser(site)
    _, _, page = script.get(f"/daily/4x4/{board.day.isoformat()}/")
    _, room_url = script.post(start, {"nickname": "Bot"}, page.decode())
    code = room_url.rstrip("/").rsplit("/", 1)[1]
    words = [word for word, _, _ in board.solution]

    async def play_everything() -> None:
        async with websockets.connect(
            f"ws://127.0.0.1:{port}/ws/rooms/{code}/",
            additional_headers={"Cookie": f"player={script.cookie('player')}", "Origin": site},
            open_timeout=10,
            proxy=None,
        ) as ws:
            await frames_until(ws, "board")  # after the countdown
            for n, word in enumerate(words):
                await ws.send(json.dumps({"type": "submit", "client_id": f"w{n}", "word": word}))
                answer = await frames_until(ws, "submit_result")
                assert answer["accepted"], answer
            await ws.send(json.dumps({"type": "end_round"}))  # done early: the solution shows
            await frames_until(ws, "round_ended")

    asyncio.run(play_everything())
    bot = DailyAttempt.objects.get(room__code=code)
    assert bot.ranked and bot.words == len(words)
    assert bot.review == "held" and bot.review_reason.startswith(f"found {len(words)} of")
    assert leaderboard_page(board.pk).players == 0  # not rank 1: waiting for an admin
    _, _, result = script.get(f"/daily/4x4/{board.day.isoformat()}/")
    assert b'data-testid="daily-review"' in result

    # The next attempt, from a fresh cookie on the same network, is unranked and says why.
    again = Browser(site)
    _, _, page = again.get(f"/daily/4x4/{board.day.isoformat()}/")
    again.post(start, {"nickname": "Bot"}, page.decode())
    second = DailyAttempt.objects.exclude(pk=bot.pk).get()
    assert not second.ranked
    assert escape(UNRANKED_NETWORK.format(game=game.name)).encode() in again.last_page
