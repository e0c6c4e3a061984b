"""Reading the daily boards: a day's leaderboard, a player's rank, percentile and streaks.

Every count here is a range scan of one board's finished ranked attempts in the index
``daily_leaderboard`` (board, score descending, id): the plans are in docs/daily.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import QuerySet

from games.daily import LEADERBOARD_PAGE, DailyError, DailyGame, percentile_of, streaks
from games.identity import identities_of_player
from games.models import DailyAttempt, DailyBoard, PlayerIdentity

NO_SUCH_PAGE = "There is no page {page} of this leaderboard: it has {pages}."


@dataclass(frozen=True)
class Standing:
    """Where a score stands on a day's board: its rank, how many of the board's ranked
    players scored less, and how many there are."""

    rank: int
    below: int
    players: int

    @property
    def percentile(self) -> int:
        """Return the whole percentage of the board's players who scored less."""
        return percentile_of(below=self.below, players=self.players)


@dataclass(frozen=True)
class Row:
    """One line of a leaderboard."""

    rank: int
    nickname: str
    score: int
    words: int
    attempt_id: int


@dataclass(frozen=True)
class LeaderboardPage:
    """One page of a day's leaderboard, and how many players and pages there are."""

    rows: list[Row]
    page: int
    pages: int
    players: int


def ranked_attempts(board_id: int) -> QuerySet[DailyAttempt]:
    """Return a board's finished ranked attempts (those the leaderboard counts)."""
    return DailyAttempt.objects.filter(board_id=board_id, ranked=True, finished_at__isnull=False)


def score_standing(board_id: int, score: int) -> Standing:
    """Return where a score stands among a board's ranked players (three index range counts:
    above, below and all; an unranked replay is measured against them without counting)."""
    ranked = ranked_attempts(board_id)
    return Standing(
        rank=1 + ranked.filter(score__gt=score).count(),
        below=ranked.filter(score__lt=score).count(),
        players=ranked.count(),
    )


def leaderboard_page(board_id: int, page: int = 1) -> LeaderboardPage:
    """Return a page of a board's leaderboard, best first (ties share a rank and are listed
    in the order they were played). Raise DailyError for a page beyond the last."""
    players = ranked_attempts(board_id).count()
    pages = max(1, -(-players // LEADERBOARD_PAGE))
    if not 1 <= page <= pages:
        raise DailyError(NO_SUCH_PAGE.format(page=page, pages=pages))
    offset = (page - 1) * LEADERBOARD_PAGE
    found = list(
        ranked_attempts(board_id)
        .order_by("-score", "id")
        .values_list("id", "nickname", "score", "words")[offset : offset + LEADERBOARD_PAGE]
    )
    rows: list[Row] = []
    if found:
        rank = 1 + ranked_attempts(board_id).filter(score__gt=found[0][2]).count()
        for n, (attempt_id, nickname, score, words) in enumerate(found):
            if rows and score != rows[-1].score:
                rank = offset + n + 1
            rows.append(Row(rank, nickname, score, words, attempt_id))
    return LeaderboardPage(rows=rows, page=page, pages=pages, players=players)


def attempt_row(attempt: DailyAttempt) -> Row | None:
    """Return a finished attempt's own leaderboard line (wherever it is), else None."""
    if attempt.finished_at is None:
        return None
    rank = score_standing(attempt.board_id, attempt.score).rank
    return Row(rank, attempt.nickname, attempt.score, attempt.words, attempt.id)


def player_attempts(
    identity: PlayerIdentity | None, game: DailyGame, day: date
) -> list[DailyAttempt]:
    """Return a player's attempts at a day's board, the ranked one first, then latest first."""
    if identity is None:
        return []
    found = DailyAttempt.objects.filter(
        board__game=game.slug, board__day=day, identity__in=identities_of_player(identity)
    ).select_related("room", "board")
    return sorted(found, key=lambda a: (not a.ranked, -a.started_at.timestamp()))


def player_streaks(
    identity: PlayerIdentity | None, game: DailyGame, today: date
) -> tuple[int, int]:
    """Return a player's (current, best) streak of days with a ranked attempt at a game."""
    if identity is None:
        return 0, 0
    days = DailyAttempt.objects.filter(
        identity__in=identities_of_player(identity), ranked=True, board__game=game.slug
    ).values_list("board__day", flat=True)
    return streaks(days, today=today)


def daily_board_of(game: DailyGame, day: date) -> DailyBoard | None:
    """Return a day's stored board, if anyone has started it (never drawn here)."""
    return DailyBoard.objects.filter(game=game.slug, day=day).first()


def past_days(game: DailyGame, today: date, limit: int = 14) -> list[DailyBoard]:
    """Return the stored boards of a game's past days, latest first."""
    return list(DailyBoard.objects.filter(game=game.slug, day__lt=today).order_by("-day")[:limit])
