"""Reading the daily boards: a day's leaderboard, a player's rank, percentile and streaks.

Counts, ranks and percentiles come from a board's score histogram (DailyScore, a row per
score); a leaderboard page is one range of the index ``daily_leaderboard`` (board, score
descending, id) from the score the page starts in. The plans are in docs/daily.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import Q, QuerySet, Sum

from games.daily.rules import LEADERBOARD_PAGE, DailyError, DailyGame, streaks
from games.identity import identities_of_player
from games.models import DailyAttempt, DailyBoard, DailyScore, PlayerIdentity
from games.rules.standings import percentile_of

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
    """Return a board's finished ranked attempts (those the leaderboard counts: none held
    for review or kept off by an admin)."""
    return DailyAttempt.objects.filter(
        board_id=board_id, ranked=True, finished_at__isnull=False, review=""
    )


def score_counts(board_id: int) -> list[tuple[int, int]]:
    """Return a board's score histogram: (score, players), best score first."""
    return list(
        DailyScore.objects.filter(board_id=board_id, players__gt=0)
        .order_by("-score")
        .values_list("score", "players")
    )


def score_standing(board_id: int, score: int) -> Standing:
    """Return where a score stands among a board's ranked players: one read of the board's
    score histogram (an unranked replay is measured against them without counting)."""
    counts = DailyScore.objects.filter(board_id=board_id).aggregate(
        above=Sum("players", filter=Q(score__gt=score), default=0),
        below=Sum("players", filter=Q(score__lt=score), default=0),
        players=Sum("players", default=0),
    )
    return Standing(rank=1 + counts["above"], below=counts["below"], players=counts["players"])


def leaderboard_page(board_id: int, page: int = 1) -> LeaderboardPage:
    """Return a page of a board's leaderboard, best first (ties share a rank and are listed
    in the order they were played). Raise DailyError for a page beyond the last.

    The histogram says which score the page starts in and the rank of every score, so the
    page itself is one index range from that score, skipping only within it."""
    counts = score_counts(board_id)
    players = sum(n for _, n in counts)
    pages = max(1, -(-players // LEADERBOARD_PAGE))
    if not 1 <= page <= pages:
        raise DailyError(NO_SUCH_PAGE.format(page=page, pages=pages))
    offset = (page - 1) * LEADERBOARD_PAGE
    above: dict[int, int] = {}  # score -> players who scored more
    start_score, skip, seen = None, 0, 0
    for score, n in counts:
        above[score] = seen
        if start_score is None and seen + n > offset:
            start_score, skip = score, offset - seen
        seen += n
    rows: list[Row] = []
    if start_score is not None:
        found = (
            ranked_attempts(board_id)
            .filter(score__lte=start_score)
            .order_by("-score", "id")
            .values_list("id", "nickname", "score", "words")[skip : skip + LEADERBOARD_PAGE]
        )
        rows = [
            Row(1 + above.get(score, 0), nickname, score, words, attempt_id)
            for attempt_id, nickname, score, words in found
        ]
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
