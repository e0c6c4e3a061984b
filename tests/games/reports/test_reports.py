"""Word reports: refused words are kept for the results; a player reports a word of a finished
round once; nothing about a report changes the round; the admin's decision changes the live
list through the dictionary's extras and exclusions, and the reporter reads the outcome."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import protocol
from games.models import Player, Refusal, Round, WordReport
from games.reports import services as reports
from games.reports.selectors import report_queue, round_reports_mine
from games.reports.services import ReportError
from games.rounds import services as rounds
from games.rounds.submissions import REFUSALS_KEPT, submission_create
from games.rules import clock
from solver.dictionaries import selectors as solver_selectors
from solver.models import Dictionary, DictionaryWord
from tests.fixed_dice import FIXED_ROOM, FIXED_WORDS_ALGS4
from tests.games.conftest import make_room, reschedule, seat

pytestmark = pytest.mark.django_db

# On the fixed S I T E board: TIS can be traced but is not in the algs4 list.
NOT_IN_LIST = "TIS"
OFF_BOARD = "THE"  # in the algs4 list, not on the board
NOW = clock.now


def submit(player: Player, word: str, cid: str = "") -> dict[str, Any]:
    return submission_create(
        player_id=player.id,
        room_id=player.room_id,
        client_id=cid or f"{word}-{player.id}",
        word=word,
        path=None,
        now=clock.now(),
    )


def played(*, finish: bool = True) -> tuple[Round, Player, Player]:
    """A round on the fixed dice: Ann finds SITE and SET, Bob SET and TIES; Bob is refused
    TIS (not in the list), THE (not on the board) and IT (too short)."""
    room, ann, _ = make_room(FIXED_ROOM)
    bob, _ = seat(room, "Bob")
    rnd = rounds.round_start(room=room, player=ann, now=clock.now(), seed=1)
    assert {entry[0] for entry in rnd.solution} == FIXED_WORDS_ALGS4
    reschedule(rnd, starts_in=-1, ends_in=60)
    for player, word in ((ann, "SITE"), (ann, "SET"), (bob, "SET"), (bob, "TIES")):
        assert submit(player, word)["accepted"]
    for word, reason in (
        (NOT_IN_LIST, protocol.NOT_A_WORD),
        (OFF_BOARD, protocol.NOT_ON_BOARD),
        ("IT", protocol.TOO_SHORT),
    ):
        assert submit(bob, word)["reason"] == reason
    if finish:
        assert rounds.round_end(round_id=rnd.id, now=clock.now(), force=True)
    rnd.refresh_from_db()
    return rnd, ann, bob


def report(rnd: Round, player: Player, word: str, kind: str, reason: str = "") -> WordReport:
    return reports.report_create(
        rnd=rnd, player=player, word=word, kind=kind, reason=reason, now=clock.now()
    )


def refused_report(rnd: Round, player: Player, word: Any, kind: Any, reason: Any = "") -> str:
    """Return the message of a refused report, checking that nothing was stored."""
    before = WordReport.objects.count()
    with pytest.raises(ReportError) as refused:
        reports.report_create(
            rnd=rnd, player=player, word=word, kind=kind, reason=reason, now=clock.now()
        )
    assert WordReport.objects.count() == before
    return refused.value.message


# Refused words are kept --------------------------------------------------------------


def test_refused_words_are_stored_with_their_reason_before_the_answer(
    game_data: Dictionary,
) -> None:
    rnd, ann, bob = played(finish=False)
    kept = dict(Refusal.objects.filter(round=rnd, player=bob).values_list("word", "reason"))
    assert kept == {
        NOT_IN_LIST: protocol.NOT_A_WORD,
        OFF_BOARD: protocol.NOT_ON_BOARD,
        "IT": protocol.TOO_SHORT,
    }
    assert not Refusal.objects.filter(player=ann).exists()


def test_a_repeat_a_forged_path_and_a_closed_round_keep_no_refusal(game_data: Dictionary) -> None:
    rnd, ann, bob = played(finish=False)
    assert submit(bob, NOT_IN_LIST, "again")["reason"] == protocol.NOT_A_WORD  # kept once
    assert submit(ann, "SITE", "again")["reason"] == protocol.ALREADY_FOUND
    forged = submission_create(
        player_id=ann.id, room_id=ann.room_id, client_id="forged", word="SITE", path=(0, 0),
        now=clock.now(),
    )  # fmt: skip
    assert forged["reason"] == protocol.BAD_PATH
    assert rounds.round_end(round_id=rnd.id, now=clock.now(), force=True)
    assert submit(ann, "TIES")["reason"] == protocol.ROUND_NOT_RUNNING
    assert Refusal.objects.filter(round=rnd, word=NOT_IN_LIST).count() == 1
    assert not Refusal.objects.filter(player=ann).exists()


def test_a_flood_of_refused_words_is_kept_up_to_the_limit(game_data: Dictionary) -> None:
    rnd, _, bob = played(finish=False)
    already = Refusal.objects.filter(player=bob).count()
    letters = "ABCDFGHJKLMNOPQRUVWXYZ"
    flood = [a + b + c for a in letters for b in letters for c in "QXZ"][: REFUSALS_KEPT + 5]
    for word in flood:
        assert not submit(bob, word)["accepted"]
    assert Refusal.objects.filter(round=rnd, player=bob).count() == REFUSALS_KEPT > already


def test_a_refused_word_costs_its_rounds_read_and_one_statement_storing_it(
    game_data: Dictionary,
) -> None:
    rnd, _, bob = played(finish=False)
    for word, reason in ((NOT_IN_LIST, protocol.NOT_A_WORD), (OFF_BOARD, protocol.NOT_ON_BOARD)):
        Refusal.objects.filter(round=rnd, player=bob, word=word).delete()
        with CaptureQueriesContext(connection) as queries:
            assert submit(bob, word, f"{word}-again")["reason"] == reason
        # The round read afresh (a refusal is said of the round as it is now), then the
        # refusal kept under the limit: no count of its own, no transaction of its own, and
        # the round's word list not read again (it is named by its content's hash).
        statements = [q["sql"] for q in queries]
        assert len(statements) == 2, statements
        assert '"games_round"' in statements[0] and statements[1].startswith("INSERT")
        assert Refusal.objects.get(round=rnd, player=bob, word=word).reason == reason


# Reporting ---------------------------------------------------------------------------


def test_a_player_reports_an_accepted_word_and_a_word_refused_as_not_in_the_list(
    game_data: Dictionary,
) -> None:
    rnd, ann, bob = played()
    struck = report(rnd, bob, "set", WordReport.Kind.SHOULD_NOT_COUNT, "  not  a\nword ")
    missed = report(rnd, bob, "SIT", WordReport.Kind.SHOULD_NOT_COUNT)
    mine = report(rnd, bob, NOT_IN_LIST, WordReport.Kind.IS_A_WORD, "'Tis the season")
    assert (struck.word, struck.reason, struck.dictionary_id) == ("SET", "not a word", game_data.pk)
    assert missed.outcome == mine.outcome == WordReport.Outcome.PENDING
    seen = round_reports_mine(rnd=rnd, player=bob)
    assert [(r["word"], r["outcome"]) for r in seen["reports"]] == [
        ("SET", "pending"),
        ("SIT", "pending"),
        (NOT_IN_LIST, "pending"),
    ]
    assert seen["reports"][0]["outcome_text"] == reports.OUTCOME_TEXTS[WordReport.Outcome.PENDING]
    assert [(r["word"], r["reason_text"], r["reportable"]) for r in seen["refused"]] == [
        (NOT_IN_LIST, "not in the dictionary", True),
        (OFF_BOARD, "not on the board", False),
        ("IT", "too short", False),
    ]
    assert round_reports_mine(rnd=rnd, player=ann) == {
        "round": rnd.number, "refused": [], "reports": [], "reason_max": reports.REASON_MAX_CHARS
    }  # fmt: skip


def test_one_report_per_player_word_and_round(game_data: Dictionary) -> None:
    rnd, ann, bob = played()
    report(rnd, bob, "SITE", WordReport.Kind.SHOULD_NOT_COUNT)
    message = refused_report(rnd, bob, "site", WordReport.Kind.SHOULD_NOT_COUNT)
    assert message == reports.ALREADY_REPORTED_TEXT.format(word="SITE")
    report(rnd, ann, "SITE", WordReport.Kind.SHOULD_NOT_COUNT)  # another player may
    assert WordReport.objects.filter(word="SITE").count() == 2


def test_a_word_that_was_not_in_the_round_is_refused_and_nothing_is_stored(
    game_data: Dictionary,
) -> None:
    rnd, ann, bob = played()
    not_in_round = reports.NOT_IN_ROUND_TEXT.format(word="CAT")
    assert refused_report(rnd, bob, "CAT", WordReport.Kind.SHOULD_NOT_COUNT) == not_in_round
    assert refused_report(rnd, bob, "CAT", WordReport.Kind.IS_A_WORD) == not_in_round
    # Bob's refusal is not Ann's: she never typed TIS.
    tis = reports.NOT_IN_ROUND_TEXT.format(word=NOT_IN_LIST)
    assert refused_report(rnd, ann, NOT_IN_LIST, WordReport.Kind.IS_A_WORD) == tis
    # A word refused as not in the list did not count, and a word that counted is in it.
    assert refused_report(
        rnd, bob, NOT_IN_LIST, WordReport.Kind.SHOULD_NOT_COUNT
    ) == reports.REFUSED_NOT_COUNTED.format(word=NOT_IN_LIST)
    assert refused_report(
        rnd, bob, "SITE", WordReport.Kind.IS_A_WORD
    ) == reports.COUNTED_ALREADY.format(word="SITE")
    # Refused for another reason than the dictionary: reporting it as a word means nothing.
    assert refused_report(
        rnd, bob, OFF_BOARD, WordReport.Kind.IS_A_WORD
    ) == reports.REFUSED_OTHERWISE.format(word=OFF_BOARD, why="not on the board")


@pytest.mark.parametrize(
    ("word", "kind", "reason", "message"),
    [
        ("SITE", "wrong", "", reports.BAD_KIND),
        ("SITE", None, "", reports.BAD_KIND),
        ("", WordReport.Kind.SHOULD_NOT_COUNT, "", reports.BAD_WORD),
        ("SI TE", WordReport.Kind.SHOULD_NOT_COUNT, "", reports.BAD_WORD),
        (["SITE"], WordReport.Kind.SHOULD_NOT_COUNT, "", reports.BAD_WORD),
        ("S" * 65, WordReport.Kind.SHOULD_NOT_COUNT, "", reports.BAD_WORD),
        ("SITE", WordReport.Kind.SHOULD_NOT_COUNT, "x" * 201, reports.REASON_TOO_LONG),
        ("SITE", WordReport.Kind.SHOULD_NOT_COUNT, {"a": 1}, reports.REASON_TOO_LONG),
    ],
)
def test_bad_reports_are_refused_with_a_reason_and_change_nothing(
    game_data: Dictionary, word: Any, kind: Any, reason: Any, message: str
) -> None:
    rnd, _, bob = played()
    assert refused_report(rnd, bob, word, kind, reason) == message


def test_a_reason_of_exactly_the_limit_is_kept(game_data: Dictionary) -> None:
    rnd, _, bob = played()
    made = report(rnd, bob, "SITE", WordReport.Kind.SHOULD_NOT_COUNT, "x" * 200)
    assert len(made.reason) == reports.REASON_MAX_CHARS


def test_reports_open_only_once_the_round_is_over(game_data: Dictionary) -> None:
    rnd, _, bob = played(finish=False)
    for word, kind in (("SITE", "should_not_count"), (NOT_IN_LIST, "is_a_word")):
        assert refused_report(rnd, bob, word, kind) == reports.ROUND_NOT_OVER
    assert rounds.round_end(round_id=rnd.id, now=clock.now(), force=True)
    rnd.refresh_from_db()
    report(rnd, bob, "SITE", WordReport.Kind.SHOULD_NOT_COUNT)


def test_a_player_of_another_room_cannot_report(game_data: Dictionary) -> None:
    rnd, _, _ = played()
    _, eve, _ = make_room(nickname="Eve")
    message = refused_report(rnd, eve, "SITE", WordReport.Kind.SHOULD_NOT_COUNT)
    assert message == protocol.ERROR_MESSAGES[protocol.NOT_IN_ROOM]


# Deciding, and the round staying as it was ---------------------------------------------


def scores(rnd: Round) -> tuple[Any, dict[str, int]]:
    rnd.refresh_from_db()
    totals = dict(Player.objects.filter(room=rnd.room).values_list("nickname", "total_score"))
    return rnd.results, totals


def test_nothing_about_a_report_changes_a_finished_rounds_scores(game_data: Dictionary) -> None:
    rnd, ann, bob = played()
    before = scores(rnd)
    assert before[1] == {"Ann": 1, "Bob": 1}  # SITE and TIES; SET is struck
    report(rnd, bob, "SITE", WordReport.Kind.SHOULD_NOT_COUNT)
    report(rnd, ann, "TIES", WordReport.Kind.SHOULD_NOT_COUNT)
    report(rnd, bob, NOT_IN_LIST, WordReport.Kind.IS_A_WORD)
    assert scores(rnd) == before
    for word, kind, decision in (
        ("SITE", "should_not_count", reports.REMOVE),
        ("TIES", "should_not_count", reports.DISMISS),
        (NOT_IN_LIST, "is_a_word", reports.ADD),
    ):
        reports.reports_decide(
            dictionary=game_data, word=word, kind=kind, decision=decision, by=None, now=NOW()
        )
    assert scores(rnd) == before
    assert [r["outcome"] for r in round_reports_mine(rnd=rnd, player=bob)["reports"]] == [
        "removed",
        "added",
    ]


def test_removing_a_reported_word_takes_it_out_of_the_live_list(game_data: Dictionary) -> None:
    rnd, ann, bob = played()
    report(rnd, bob, "SITE", WordReport.Kind.SHOULD_NOT_COUNT, "a place, not a word")
    report(rnd, ann, "SITE", WordReport.Kind.SHOULD_NOT_COUNT)
    answered = reports.reports_decide(
        dictionary=game_data, word="SITE", kind="should_not_count", decision=reports.REMOVE,
        by=None, now=NOW(),
    )  # fmt: skip
    assert answered == 2
    game_data.refresh_from_db()
    assert "SITE" not in solver_selectors.dictionary_trie(game_data)
    assert DictionaryWord.objects.get(dictionary=game_data, word="SITE").kind == "excluded"
    assert report_queue(dictionary=game_data) == []
    outcome = round_reports_mine(rnd=rnd, player=bob)["reports"][0]
    assert outcome["outcome"] == "removed"
    assert outcome["outcome_text"] == "Removed from the dictionary."


def test_adding_a_reported_word_puts_it_in_the_live_list(game_data: Dictionary) -> None:
    rnd, _, bob = played()
    report(rnd, bob, NOT_IN_LIST, WordReport.Kind.IS_A_WORD)
    reports.reports_decide(
        dictionary=game_data, word=NOT_IN_LIST, kind="is_a_word", decision=reports.ADD, by=None,
        now=NOW(),
    )  # fmt: skip
    game_data.refresh_from_db()
    assert NOT_IN_LIST in solver_selectors.dictionary_trie(game_data)
    assert DictionaryWord.objects.get(dictionary=game_data, word=NOT_IN_LIST).kind == "extra"


def test_dismissing_leaves_the_list_as_it_was(game_data: Dictionary) -> None:
    rnd, _, bob = played()
    report(rnd, bob, "SITE", WordReport.Kind.SHOULD_NOT_COUNT)
    digest = game_data.content_hash
    reports.reports_decide(
        dictionary=game_data, word="SITE", kind="should_not_count", decision=reports.DISMISS,
        by=None, now=NOW(),
    )  # fmt: skip
    game_data.refresh_from_db()
    assert game_data.content_hash == digest and not DictionaryWord.objects.exists()
    assert WordReport.objects.get().outcome == WordReport.Outcome.DISMISSED


@pytest.mark.parametrize(
    ("word", "kind", "decision", "message"),
    [
        ("SITE", "should_not_count", reports.ADD, "cannot be answered"),
        (NOT_IN_LIST, "is_a_word", reports.REMOVE, "cannot be answered"),
        ("SITE", "should_not_count", "burn", "cannot be answered"),
        ("TIES", "should_not_count", reports.REMOVE, "No report of TIES is waiting"),
    ],
)
def test_a_decision_that_does_not_fit_changes_nothing(
    game_data: Dictionary, word: str, kind: str, decision: str, message: str
) -> None:
    rnd, _, bob = played()
    report(rnd, bob, "SITE", WordReport.Kind.SHOULD_NOT_COUNT)
    report(rnd, bob, NOT_IN_LIST, WordReport.Kind.IS_A_WORD)
    digest = game_data.content_hash
    with pytest.raises(ReportError, match=message):
        reports.reports_decide(
            dictionary=game_data, word=word, kind=kind, decision=decision, by=None, now=NOW()
        )
    game_data.refresh_from_db()
    assert game_data.content_hash == digest
    assert set(WordReport.objects.values_list("outcome", flat=True)) == {"pending"}


def test_the_queue_counts_reports_and_rooms_with_definitions_and_commonness(
    game_data: Dictionary,
) -> None:
    first, ann, bob = played()
    second, cy, dee = played()
    report(first, ann, "SITE", "should_not_count", "a place")
    report(first, bob, "SITE", "should_not_count")
    report(second, cy, "SITE", "should_not_count", "a web site")
    report(second, dee, NOT_IN_LIST, "is_a_word")
    queue = report_queue(dictionary=game_data)
    assert [(e.word, e.kind, e.reports, e.rooms) for e in queue] == [
        ("SITE", "should_not_count", 3, 2),
        (NOT_IN_LIST, "is_a_word", 1, 1),
    ]
    site = queue[0]
    assert site.reasons == ("a web site", "a place")
    assert site.definition.startswith("site: ")
    assert site.commonness == "everyday" and site.zipf is not None and site.zipf > 4.5
    assert site.in_list and not queue[1].in_list
    assert site.decisions == (reports.REMOVE, reports.DISMISS)
    assert queue[1].decisions == (reports.ADD, reports.DISMISS)
