"""Submissions: judging one word, storing it (or the refusal the results list), and only
then answering."""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from django.db import DatabaseError, IntegrityError, connection, transaction

from games import protocol
from games.models import Refusal, Round, Submission, sql
from games.rounds.counts import word_counts_changed
from games.rounds.selectors import round_latest
from games.rounds.services import round_end
from games.rules import clock
from games.rules.room_settings import RoomSettings, stored_settings
from solver.caches import cache_register
from solver.dictionaries import selectors as solver_selectors
from solver.engine import paths
from solver.engine.board import Board
from solver.engine.rules import Rules
from solver.engine.trie import Trie

log = logging.getLogger(__name__)

# Refusals kept, so that the results list a player's refused words with the reason and the
# player may report one ("this is a word"): the refusals about the word itself, not a forged
# path, a repeat or a closed round. A flood of nonsense stops being kept past
# REFUSALS_KEPT words per player and round (it is still answered).
KEPT_REFUSALS = frozenset({protocol.NOT_A_WORD, protocol.NOT_ON_BOARD, protocol.TOO_SHORT})
REFUSALS_KEPT = 200


Solution = Mapping[str, tuple[list[int], int]]  # word -> (path, points), read-only


@dataclass(frozen=True)
class _Facts:
    """What never changes about a round once it is drawn."""

    id: int
    number: int
    board: Board
    settings: RoomSettings
    dictionary_id: int | None
    dictionary_hash: str
    solution: Solution


_FACT_FIELDS = ("id", "number", "board", "settings", "dictionary", "dictionary_hash")


@lru_cache(maxsize=4096)
def _facts(round_id: int, seed: int) -> _Facts:
    """Return a round's fixed facts, read once per process (the random seed guards against
    a row id reused after rooms were deleted).

    Thousands of rounds run at once in a rush of daily attempts (a round each), so the cache
    holds thousands; their solutions, which are most of their size and the same for every
    attempt on a day's board, are shared (`_shared_solution`) rather than read and held
    once per round. With 256 rounds kept, most words of such a rush read their round again,
    solution and all: the largest single cost in a profile of `make bench-daily`."""
    rnd = Round.objects.only(*_FACT_FIELDS).get(pk=round_id)
    settings = stored_settings(rnd.settings)
    if rnd.dictionary_hash:
        solution = _shared_solution(rnd.board, rnd.dictionary_hash, settings.rules, rnd.id)
    else:  # an old row without its list's hash: its own solution
        solution = _solution_read(rnd.id)
    return _Facts(
        id=rnd.id,
        number=rnd.number,
        board=Board.from_share_code(rnd.board),
        settings=settings,
        dictionary_id=rnd.dictionary_id,
        dictionary_hash=rnd.dictionary_hash,
        solution=solution,
    )


def _solution_read(round_id: int) -> Solution:
    (rows,) = Round.objects.filter(pk=round_id).values_list("solution", flat=True)
    return MappingProxyType({word: (path, points) for word, path, points in rows})


_solutions: dict[tuple[str, str, Rules], Solution] = {}
_solutions_lock = threading.Lock()
SOLUTIONS_KEPT = 512


def _shared_solution(board: str, list_hash: str, rules: Rules, round_id: int) -> Solution:
    """Return the solution of a board played with a word list (by its content's hash) and
    rules, read from this round when no round read it before: every round solved the same
    board with the same list and rules holds the same words, paths and points."""
    key = (board, list_hash, rules)
    found = _solutions.get(key)
    if found is None:
        found = _solution_read(round_id)
        with _solutions_lock:
            if len(_solutions) >= SOLUTIONS_KEPT:
                _solutions.clear()  # rounds cached already keep theirs
            found = _solutions.setdefault(key, found)
    return found


@lru_cache(maxsize=16)
def _round_list(dictionary_id: int | None, list_hash: str) -> Trie | None:
    """Return the list a round started with, named by its content's hash (so it never
    changes, and is read once per process rather than with every refused word), or None when
    that version is gone."""
    dictionary = solver_selectors.dictionary_or_default(pk=dictionary_id)
    try:
        return solver_selectors.dictionary_trie(dictionary, content_hash=list_hash)
    except solver_selectors.DictionaryVersionGone:
        return None


def _in_dictionary(facts: _Facts, word: str) -> bool:
    """Return whether word is in the list the round started with (today's if that is gone)."""
    trie = (
        _round_list(facts.dictionary_id, facts.dictionary_hash) if facts.dictionary_hash else None
    )
    if trie is None:
        trie = solver_selectors.dictionary_trie(
            solver_selectors.dictionary_or_default(pk=facts.dictionary_id)
        )
    return word in trie


def _judge(
    facts: _Facts, word: str | None, path: tuple[int, ...] | None
) -> tuple[str, str | None, Any]:
    """Return (word, rejection or None, path) for a submission, without storing anything."""
    board, settings = facts.board, facts.settings
    if path is not None:
        spelled = paths.spell(board, [c for c in path if 0 <= c < board.size])
        word = (word or spelled).upper()
        problem = paths.path_problem(board, path, word, settings.adjacency)  # type: ignore[arg-type]
    else:
        word, problem = (word or "").upper(), None
    if problem is not None:
        return word, protocol.BAD_PATH, None
    if len(word) < settings.min_length:
        return word, protocol.TOO_SHORT, None
    if word not in facts.solution:
        reason = protocol.NOT_ON_BOARD if _in_dictionary(facts, word) else protocol.NOT_A_WORD
        return word, reason, None
    return word, None, list(path if path is not None else facts.solution[word][0])


def _stored_before(
    round_id: int, player_id: int, client_id: str, word: str | None = None
) -> dict[str, Any] | None:
    """Return the answer for a word that was not stored: the first answer again to a
    retried client id, or (given the word) `already_found` for a word the player has; None
    when neither is stored."""
    return _stored_lookup([(round_id, player_id, client_id, word)])[0]


def _refusal_keep(*, round_id: int, player_id: int, word: str, reason: str) -> None:
    """Store a refused word with its reason (once per player and round), before the refusal
    is answered; only the kinds and the number the results list (KEPT_REFUSALS).

    One statement, its own transaction: the count under the limit and the insert (nothing if
    the same word was refused before). Through the ORM these were a count, then an insert in
    a transaction of its own: four round trips for every refused word, as many as its round's
    read and its judging together."""
    if reason not in KEPT_REFUSALS or not word:
        return
    created = Refusal._meta.get_field("created_at")
    sql.execute(
        _refusal_sql(),
        [
            round_id, player_id, word, reason,
            created.get_db_prep_save(clock.now(), connection),
            round_id, player_id, REFUSALS_KEPT,
        ],
    )  # fmt: skip


@lru_cache(maxsize=4)
def _refusal_sql() -> str:
    """Return the statement that keeps a refusal while the player's are under the limit."""
    table = sql.table(Refusal)
    columns = sql.columns(Refusal, "round", "player", "word", "reason", "created_at")
    round_col, player_col = sql.column(Refusal, "round"), sql.column(Refusal, "player")
    return (
        f"INSERT INTO {table} ({columns}) SELECT %s, %s, %s, %s, %s "
        f"WHERE (SELECT COUNT(*) FROM {table} WHERE {round_col} = %s AND {player_col} = %s) < %s "
        "ON CONFLICT DO NOTHING"  # the same word refused again (refusal_once_per_player)
    )


@lru_cache(maxsize=512)
def _store_sql(postgresql: bool, rows: int) -> str:
    """Return the statement that stores `rows` words while their rounds run, on PostgreSQL or
    not (built once per number of rows)."""
    columns = sql.columns(Submission, *_STORED)
    row = ", ".join(
        "%s::jsonb" if name == "path" and postgresql else "%s"
        for name in (*_STORED, "round", "room")
    )
    chosen = ", ".join(f"v.column{n}" for n in range(1, len(_STORED) + 1))
    round_column, room_column = len(_STORED) + 1, len(_STORED) + 2
    lock = " FOR SHARE" if connection.features.has_select_for_update else ""
    # A word found before or a retried client id is not an error: an error is logged by
    # PostgreSQL with its statement and rolls the statement back, and players often type a
    # word again. Nothing inserted says so; the caller asks which (_stored_before, or
    # _stored_answers for a batch).
    return (
        f"INSERT INTO {sql.table(Submission)} ({columns}) "
        f"SELECT {chosen} FROM (VALUES {', '.join([f'({row})'] * rows)}) AS v "
        f"WHERE EXISTS (SELECT 1 FROM {sql.table(Round)} "
        f"WHERE {sql.column(Round, 'id')} = v.column{round_column} "
        f"AND {sql.column(Round, 'room')} = v.column{room_column} "
        f"AND {sql.column(Round, 'status')} = %s{lock}) "
        "ON CONFLICT DO NOTHING"
    )


_STORED = ("round", "player", "word", "path", "points", "client_id", "created_at")


@dataclass(frozen=True)
class _Row:
    """An accepted word to store, if its round (of its room) is still running."""

    round_id: int
    room_id: int
    player_id: int
    word: str
    path: list[int]
    points: int
    client_id: str
    now: datetime


def _store_statement(rows: Sequence[_Row]) -> tuple[str, list[Any]]:
    """Return the statement that stores words while their rounds run, and its parameters."""
    fields = {field.name: field for field in Submission._meta.concrete_fields}
    prepare = [fields[name].get_db_prep_save for name in _STORED]
    params: list[Any] = []
    for row in rows:
        values = (
            row.round_id,
            row.player_id,
            row.word,
            row.path,
            row.points,
            row.client_id,
            row.now,
        )
        params.extend(prep(value, connection) for prep, value in zip(prepare, values, strict=True))
        params.extend((row.round_id, row.room_id))
    return _store_sql(sql.on_postgresql(), len(rows)), [*params, Round.RUNNING]


def _store_while_running(row: _Row) -> bool:
    """Store an accepted word if its round (of this room) is still running and the player has
    neither this word nor this client id in it; return whether it was stored.

    One statement: the round may have ended since the caller looked, and a word stored after
    its results were computed would be acknowledged but missing from them. On PostgreSQL the
    statement share-locks the round row: ending a round (an UPDATE of that row) waits for it,
    and it waits for an end in progress and then sees the round ended; words of one round do
    not wait for each other. On SQLite a write holds the database's one write lock anyway.
    """
    return _rows_store([row]) == 1


def _rows_store(rows: Sequence[_Row]) -> int:
    """Store accepted words whose rounds still run, in one statement; return how many were
    stored (the others: a word found before, a retried client id, or a round ended)."""
    statement, params = _store_statement(rows)
    # Inside a caller's transaction a failed insert must roll back to a savepoint; alone, the
    # statement is its own transaction (BEGIN and COMMIT would be two more round trips).
    scope = transaction.atomic() if connection.in_atomic_block else contextlib.nullcontext()
    with scope:
        return sql.execute(statement, params)


def submission_create(
    *,
    player_id: int,
    room_id: int,
    client_id: str,
    word: str | None,
    path: tuple[int, ...] | None,
    now: datetime,
) -> dict[str, Any]:
    """Judge a submission, store it if accepted (recording that its room's word counts
    changed), and return the answer for its sender.

    A retry with the same client id gets the first answer again and counts nothing twice.
    The room's round is this process's copy while it takes words (_running_rounds); when the
    store finds it ended, the room is read again and the word judged once more.
    """
    return _submission_one(Sent(player_id, room_id, client_id, word, path, now))


def _submission_one(sent: Sent) -> dict[str, Any]:
    """Judge and store one submission in a transaction of its own; return its answer."""
    for fresh in (False, True):  # the kept round first; the room read afresh if need be
        answer = _submission_try(sent, fresh=fresh)
        if answer is not None:
            return answer
    raise AssertionError("a submission judged on the room read afresh always has an answer")


@dataclass(frozen=True)
class Sent:
    """A submission as its socket sent it."""

    player_id: int
    room_id: int
    client_id: str
    word: str | None
    path: tuple[int, ...] | None
    now: datetime


RoundRow = tuple[int, int, str, datetime, datetime | None]  # id, seed, status, starts, ends
_running_rounds: dict[int, RoundRow] = {}  # room id -> its round while it takes words
RUNNING_ROUNDS_KEPT = 10_000


def _room_round(room_id: int, now: datetime, *, fresh: bool) -> tuple[RoundRow | None, bool]:
    """Return a room's latest round (id, seed, status, start, end) and whether it is this
    process's copy: one query less per word. A copy is used only while its clock takes
    words; the store's statement checks the round in the database all the same."""
    if not fresh:
        kept = _running_rounds.get(room_id)
        if kept is not None and clock.RoundClock(kept[3], kept[4]).accepts_words(now):
            return kept, True
    latest = _round_latest_row(room_id)
    if latest is not None and latest[2] == Round.RUNNING:
        if len(_running_rounds) >= RUNNING_ROUNDS_KEPT:
            _running_rounds.clear()
        _running_rounds[room_id] = latest
    else:
        _running_rounds.pop(room_id, None)
    return latest, False


_LATEST_FIELDS = ("id", "seed", "status", "starts_at", "ends_at")


def _round_latest_row(room_id: int) -> RoundRow | None:
    """Return a room's latest round as (id, seed, status, start, end)."""
    rnd = round_latest(room_id, only=_LATEST_FIELDS)
    return None if rnd is None else (rnd.id, rnd.seed, rnd.status, rnd.starts_at, rnd.ends_at)


def _rounds_forget() -> None:
    """Forget every round kept, with its facts, list and solution."""
    _running_rounds.clear()
    _facts.cache_clear()
    _round_list.cache_clear()
    with _solutions_lock:
        _solutions.clear()


cache_register("rounds kept", _rounds_forget)


def _submission_try(sent: Sent, *, fresh: bool) -> dict[str, Any] | None:
    """Judge and store a submission against the room's round (kept or, fresh, read now);
    None when a kept round turned out to have ended, or refused the word (either is then
    said of the round read again)."""
    player_id, room_id, client_id, word, path, now = (
        sent.player_id, sent.room_id, sent.client_id, sent.word, sent.path, sent.now,
    )  # fmt: skip
    latest, kept = _room_round(room_id, now, fresh=fresh)

    def refuse(reason: str, shown: str | None = word) -> dict[str, Any]:
        return protocol.submit_result(client_id, shown or "", accepted=False, reason=reason)

    if latest is None:
        return refuse(protocol.ROUND_NOT_RUNNING)
    round_id, seed, status, starts_at, ends_at = latest
    round_clock = clock.RoundClock(starts_at, ends_at)
    if status != Round.RUNNING or not round_clock.accepts_words(now):
        if status == Round.RUNNING and round_clock.is_due(now):
            round_end(round_id=round_id, now=now)  # a late submission is one of the triggers
        return _stored_before(round_id, player_id, client_id) or refuse(protocol.ROUND_NOT_RUNNING)
    facts = _facts(round_id, seed)
    word, reason, cells = _judge(facts, word, path)
    if reason is not None:
        if kept:  # judged on this process's copy: a refusal is said of the round read now
            return None
        _refusal_keep(round_id=round_id, player_id=player_id, word=word, reason=reason)
        return refuse(reason, word)
    points = facts.solution[word][1]
    try:
        stored = _store_while_running(
            _Row(round_id, room_id, player_id, word, cells, points, client_id, now)
        )
    except IntegrityError:  # what ON CONFLICT does not cover (a seat removed meanwhile)
        return _stored_before(round_id, player_id, client_id) or refuse(protocol.ROUND_NOT_RUNNING)
    if not stored:  # a retry, the same word again (perhaps from another tab), or time-up
        before = _stored_before(round_id, player_id, client_id, word)
        if before is not None:
            return before
        if kept:
            _running_rounds.pop(room_id, None)
            return None
        return refuse(protocol.ROUND_NOT_RUNNING)
    word_counts_changed(room_id=room_id)
    return protocol.submit_result(client_id, word, accepted=True, points=points, path=cells)


# Several submissions at once ------------------------------------------------------------


@dataclass(frozen=True)
class _Ready:
    """A submission judged accepted on a running round, and the row that stores it."""

    index: int  # its place among the submissions asked about
    row: _Row


def submissions_create(sents: Sequence[Sent]) -> list[dict[str, Any] | Exception]:
    """Judge and store several submissions (of any rooms and players) and return each one's
    answer, or the exception its own call raised, in their order; none is answered before
    its word is committed.

    The words judged accepted on running rounds are stored by one statement, its own
    transaction: one commit, and one flush of the database's log, for them all, in place of
    one each (at a thousand words a second the flushes were what every word waited for).
    One query then tells the ones that were not stored apart: a retried client id gets its
    first answer again, a word found before `already_found`. The rest (refusals, words of a
    round that has ended or that could not be told apart) go one at a time through a single
    word's path (`submission_create`), and so does every word of a batch whose statement
    failed (a seat removed meanwhile, say): each is then answered exactly as if it had come
    alone.
    """
    answers: list[dict[str, Any] | Exception | None] = [None] * len(sents)
    ready: list[_Ready] = []
    for index, sent in enumerate(sents):
        try:
            judged = _ready(index, sent)
        except Exception:  # said again, and answered, by the word's own path below
            judged = None
        if judged is not None:
            ready.append(judged)
    if ready:
        try:
            answers_stored = _ready_store(ready)
        except DatabaseError:
            log.warning("a batch of %d words failed; storing each alone", len(ready), exc_info=True)
            answers_stored = {}
        for index, answer in answers_stored.items():
            answers[index] = answer
    for index, sent in enumerate(sents):
        if answers[index] is None:
            try:
                answers[index] = _submission_one(sent)
            except Exception as exc:  # this word's alone, as its socket would have had it
                answers[index] = exc
    return [answer for answer in answers if answer is not None]


def _ready(index: int, sent: Sent) -> _Ready | None:
    """Return a submission judged accepted on its room's running round (this process's copy
    or the round read now), or None when it is anything else."""
    latest, _ = _room_round(sent.room_id, sent.now, fresh=False)
    if latest is None:
        return None
    round_id, seed, status, starts_at, ends_at = latest
    if status != Round.RUNNING or not clock.RoundClock(starts_at, ends_at).accepts_words(sent.now):
        return None
    facts = _facts(round_id, seed)
    word, reason, cells = _judge(facts, sent.word, sent.path)
    if reason is not None:
        return None
    points = facts.solution[word][1]
    row = _Row(
        round_id, sent.room_id, sent.player_id, word, cells, points, sent.client_id, sent.now
    )
    return _Ready(index, row)


def _ready_store(ready: list[_Ready]) -> dict[int, dict[str, Any]]:
    """Store judged submissions in one statement (its own transaction: one round trip and
    one commit for them all); return the answers it could give, by index: the words stored,
    the retries and the words found before. One not answered was not stored because its
    round is no longer running (or is not the one this process kept).

    Rows go in by round, player and word, the same order in every worker, so two batches
    wanting the same rows (a player's two tabs on two workers) or the same rounds (one
    being ended) wait for each other in turn and never in a circle."""
    order = sorted(ready, key=lambda r: (r.row.round_id, r.row.player_id, r.row.word, r.index))
    stored = _rows_store([item.row for item in order])  # committed: one statement, alone
    if stored == len(order):  # every word stored: each answered as sent
        answers = {
            item.index: protocol.submit_result(
                item.row.client_id,
                item.row.word,
                accepted=True,
                points=item.row.points,
                path=item.row.path,
            )  # fmt: skip
            for item in order
        }
    else:
        answers = _stored_answers(order)
    if stored:  # some room's counts changed (a count sent unchanged is harmless)
        for room_id in {item.row.room_id for item in order}:
            word_counts_changed(room_id=room_id)
    return answers


def _stored_answers(items: list[_Ready]) -> dict[int, dict[str, Any]]:
    """Return, by index, the answers `_stored_before` gives the submissions, in one query."""
    asked = [(i.row.round_id, i.row.player_id, i.row.client_id, i.row.word) for i in items]
    found = _stored_lookup(asked)
    return {item.index: answer for item, answer in zip(items, found, strict=True) if answer}


Asked = tuple[int, int, str, str | None]  # round, player, client id, the word (if judged)


def _stored_lookup(asked: Sequence[Asked]) -> list[dict[str, Any] | None]:
    """Return, for each word not stored, `_stored_before`'s answer, in one query: a client
    id's row gives its (first) answer, else a row of the word `already_found`; None when
    neither is stored. The statement is written here, not by the ORM, whose query building
    was most of a batch's time when players type words again."""

    def within(name: str, values: set[Any]) -> tuple[str, list[Any]]:
        return f"{sql.column(Submission, name)} IN ({', '.join(['%s'] * len(values))})", sorted(
            values
        )

    in_rounds, round_params = within("round", {round_id for round_id, _, _, _ in asked})
    of_players, player_params = within("player", {player_id for _, player_id, _, _ in asked})
    by_ids, client_params = within("client_id", {client_id for _, _, client_id, _ in asked})
    judged = {word for _, _, _, word in asked if word}
    of_words, word_params = within("word", judged) if judged else ("", [])
    columns = sql.columns(Submission, "round", "player", "client_id", "word", "points", "path")
    rows = sql.rows(
        f"SELECT {columns} FROM {sql.table(Submission)} "
        f"WHERE {in_rounds} AND {of_players} AND ({by_ids}{f' OR {of_words}' if judged else ''})",
        [*round_params, *player_params, *client_params, *word_params],
    )
    by_client: dict[tuple[int, int, str], dict[str, Any]] = {}
    words: set[tuple[int, int, str]] = set()
    for round_id, player_id, client_id, word, points, path in rows:
        by_client[(round_id, player_id, client_id)] = protocol.submit_result(
            client_id, word, accepted=True, points=points,
            path=json.loads(path) if isinstance(path, str) else path,
        )  # fmt: skip
        words.add((round_id, player_id, word))
    answers: list[dict[str, Any] | None] = []
    for round_id, player_id, client_id, word in asked:
        first = by_client.get((round_id, player_id, client_id))
        if first is None and word and (round_id, player_id, word) in words:
            first = protocol.submit_result(
                client_id, word, accepted=False, reason=protocol.ALREADY_FOUND
            )
        answers.append(first)
    return answers
