"""An arena round's end alone, timed (`manage.py bench_arena --scoring WORDS`; docs/arena.md).

The full benchmark measures the end under load, among the players' sockets; this measures
the work itself, on a quiet process: seat the players, store their words straight in the
round (each player a seeded sample of the board's words), and time `round_end` (scoring,
every player's ArenaEntry, the round's shared part, the announcement) once a round; then
what each worker does next for its sockets (games.arena.delivery): read the finished round
once, and make every player's results frames.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass
from datetime import timedelta

from boggle_site.ops.arena_load import arena_cleanup, arena_prepare
from games.arena.delivery import finished_arena_round_load
from games.models import ArenaEntry, Player, Round, Submission
from games.rounds.services import round_end
from games.rules.clock import GRACE
from solver.caches import caches_clear


@dataclass(frozen=True)
class ScoringRun:
    """One timed end: how many players and words it scored, and how long it took."""

    players: int
    words: int  # stored in the round, over all players
    solution: int  # the board's words
    entries: int  # ArenaEntry rows written
    ms: float
    load_ms: float  # a worker's read of the finished round
    frames_ms: float  # every player's results frames made from it
    frames_bytes: int  # the median player's frames


def arena_scoring_run(*, players: int, words_each: int, seed: int, dice: str) -> ScoringRun:
    """Store `words_each` words for each of `players` seats in a new arena round and time
    its end."""
    setup = arena_prepare(players=players, play_seconds=60, dice=dice)
    try:
        rnd = Round.objects.get(pk=setup.round_id)
        assert rnd.ends_at is not None  # an arena round is timed
        solution = list(rnd.solution)
        rows = []
        for n, player_id in enumerate(setup.player_ids):
            rng = random.Random(seed * 1_000_003 + n)
            for k, (word, path, points) in enumerate(
                rng.sample(solution, min(words_each, len(solution)))
            ):
                rows.append(
                    Submission(
                        round_id=rnd.pk,
                        player_id=player_id,
                        word=word,
                        path=path,
                        points=points,
                        client_id=f"s{k}",
                        created_at=rnd.starts_at,
                    )  # fmt: skip
                )
        Submission.objects.bulk_create(rows, batch_size=5_000)
        Player.objects.filter(pk__in=setup.player_ids).update(last_seen_at=rnd.starts_at)
        due = rnd.ends_at + GRACE + timedelta(seconds=1)
        started = time.perf_counter()
        if not round_end(round_id=rnd.pk, now=due):
            raise RuntimeError("the benchmark's round did not end")
        ms = (time.perf_counter() - started) * 1000
        entries = ArenaEntry.objects.filter(round_id=rnd.pk).count()
        caches_clear("finished arena rounds")
        started = time.perf_counter()
        finished = finished_arena_round_load(rnd.room_id, rnd.number)
        loaded = time.perf_counter()
        if finished is None:
            raise RuntimeError("the benchmark's round was not found finished")
        sizes = [sum(map(len, finished.frames(pid, 0))) for pid in setup.player_ids]
        made = time.perf_counter()
        return ScoringRun(
            len(setup.player_ids), len(rows), len(solution), entries, ms,
            load_ms=(loaded - started) * 1000, frames_ms=(made - loaded) * 1000,
            frames_bytes=int(statistics.median(sizes)),
        )  # fmt: skip
    finally:
        arena_cleanup(setup)
