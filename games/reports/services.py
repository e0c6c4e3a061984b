"""Word reports: a player questions a word of a finished round; the admin decides.

A report never touches the round it is about: its results, scores and the players' totals stay as
they were. Deciding changes the dictionary's live list through solver.dictionaries.services (its
extras and exclusions, as the dictionary's own page does), so only later rounds play with it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction

from games import protocol
from games.models import Player, Refusal, Round, WordReport
from solver.dictionaries import selectors as solver_selectors
from solver.dictionaries import services as solver_services
from solver.models import Dictionary

REASON_MAX_CHARS = 200  # WordReport.reason's length
Kind = WordReport.Kind
Outcome = WordReport.Outcome

# What the admin may do with a queue entry, and the outcome each records.
REMOVE = "remove"
ADD = "add"
DISMISS = "dismiss"
DECISIONS = {REMOVE: Outcome.REMOVED, ADD: Outcome.ADDED, DISMISS: Outcome.DISMISSED}
# Which decisions fit which kind of report (dismissing fits both).
DECISIONS_FOR: dict[str, tuple[str, ...]] = {
    Kind.SHOULD_NOT_COUNT: (REMOVE, DISMISS),
    Kind.IS_A_WORD: (ADD, DISMISS),
}
# Why a kept refusal was refused, as the results list it (games.rounds.submissions keeps
# these kinds); only a word the dictionary lacked may be reported as a word.
REFUSAL_TEXTS = {
    protocol.NOT_A_WORD: "not in the dictionary",
    protocol.NOT_ON_BOARD: "not on the board",
    protocol.TOO_SHORT: "too short",
}

# Why a report is refused: a code for scripts (the HTTP answer's `error`) and the words a
# player reads. Tests assert these by name.
BAD_REPORT = "bad_report"
NOT_IN_ROUND = "not_in_round"
ALREADY_REPORTED = "already_reported"
NO_DICTIONARY = "no_dictionary"
ROUND_NOT_OVER = "Word reports open once the round is over."
BAD_KIND = "Say whether the word should not count or is a word."
BAD_WORD = "A word to report is 1 to 64 letters."
REASON_TOO_LONG = f"A reason is text of at most {REASON_MAX_CHARS} characters."
NOT_IN_ROUND_TEXT = "{word} was not in this round: report a word from its results."
COUNTED_ALREADY = "{word} counted in this round: it is in the dictionary already."
REFUSED_NOT_COUNTED = "{word} was refused, so it did not count: report it as a word instead."
REFUSED_OTHERWISE = (
    "{word} was refused as {why}, not for the dictionary: only a word the dictionary lacked "
    "can be reported as a word."
)
ALREADY_REPORTED_TEXT = "You already reported {word} in this round."
DICTIONARY_GONE = "This round's dictionary no longer exists: its words cannot be reported."
# Why a decision is refused.
NOTHING_PENDING = "No report of {word} is waiting in this dictionary's queue."
DECISION_DOES_NOT_FIT = "A report that {kind} cannot be answered with “{decision}”."

# What a player reads about a report of theirs.
OUTCOME_TEXTS = {
    Outcome.PENDING: "Reported: waiting for the admin.",
    Outcome.REMOVED: "Removed from the dictionary.",
    Outcome.ADDED: "Added to the dictionary.",
    Outcome.DISMISSED: "Dismissed: the dictionary stays as it is.",
}


class ReportError(ValueError):
    """A report or a decision that was refused; `code` names why, the message says it."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _normalised(word: Any) -> str:
    """Return a reported word in upper case, or refuse one that no round could hold."""
    if not isinstance(word, str):
        raise ReportError(BAD_REPORT, BAD_WORD)
    word = word.strip().upper()
    if not 0 < len(word) <= protocol.MAX_WORD_LETTERS or not word.isalpha():
        raise ReportError(BAD_REPORT, BAD_WORD)
    return word


def _check_in_round(rnd: Round, player: Player, word: str, kind: str) -> None:
    """Refuse a report about a word that was not in the round, for this player, as this kind:
    an accepted word (found, struck or missed) "should not count"; a word the player was
    refused as not in the dictionary "is a word"."""
    in_solution = any(entry[0] == word for entry in rnd.solution)
    refusal = Refusal.objects.filter(round=rnd, player=player, word=word).first()
    if kind == Kind.SHOULD_NOT_COUNT and not in_solution:
        if refusal is not None:
            raise ReportError(NOT_IN_ROUND, REFUSED_NOT_COUNTED.format(word=word))
        raise ReportError(NOT_IN_ROUND, NOT_IN_ROUND_TEXT.format(word=word))
    if kind == Kind.IS_A_WORD and (refusal is None or refusal.reason != protocol.NOT_A_WORD):
        if refusal is not None:
            why = REFUSAL_TEXTS.get(refusal.reason, refusal.reason)
            raise ReportError(NOT_IN_ROUND, REFUSED_OTHERWISE.format(word=word, why=why))
        if in_solution:
            raise ReportError(NOT_IN_ROUND, COUNTED_ALREADY.format(word=word))
        raise ReportError(NOT_IN_ROUND, NOT_IN_ROUND_TEXT.format(word=word))


@transaction.atomic
def report_create(
    *, rnd: Round, player: Player, word: Any, kind: Any, reason: Any = "", now: datetime
) -> WordReport:
    """Store a player's report on a word of a finished round and return it.

    One report per player, word and round. Refused, with nothing stored: a round still being
    played, a word that was not in the round for this player (ReportError says which), a
    second report, a reason over REASON_MAX_CHARS. The round itself is never changed.
    """
    if rnd.status != Round.FINISHED or rnd.results is None:
        raise ReportError(protocol.ROUND_RUNNING, ROUND_NOT_OVER)
    if player.room_id != rnd.room_id:
        raise ReportError(protocol.NOT_IN_ROOM, protocol.ERROR_MESSAGES[protocol.NOT_IN_ROOM])
    if kind not in Kind.values:
        raise ReportError(BAD_REPORT, BAD_KIND)
    if not isinstance(reason, str):
        raise ReportError(BAD_REPORT, REASON_TOO_LONG)
    reason = " ".join(reason.split())  # one line, as the admin's queue shows it
    if len(reason) > REASON_MAX_CHARS:
        raise ReportError(BAD_REPORT, REASON_TOO_LONG)
    word = _normalised(word)
    _check_in_round(rnd, player, word, kind)
    if rnd.dictionary_id is None:
        raise ReportError(NO_DICTIONARY, DICTIONARY_GONE)
    if WordReport.objects.filter(round=rnd, player=player, word=word).exists():
        raise ReportError(ALREADY_REPORTED, ALREADY_REPORTED_TEXT.format(word=word))
    try:
        with transaction.atomic():
            return WordReport.objects.create(
                round=rnd,
                player=player,
                dictionary_id=rnd.dictionary_id,
                word=word,
                kind=kind,
                reason=reason,
                created_at=now,
            )
    except IntegrityError:  # the same report from another tab, a moment earlier
        raise ReportError(ALREADY_REPORTED, ALREADY_REPORTED_TEXT.format(word=word)) from None


@transaction.atomic
def reports_decide(
    *, dictionary: Dictionary, word: str, kind: str, decision: str, by: Any, now: datetime
) -> int:
    """Answer every pending report of a word and kind in a dictionary's queue; return how
    many were answered.

    REMOVE and ADD change the live list through solver.dictionaries.services (an exclusion or an
    extra, undone on the dictionary's page like any other); a word already out of (or in) the list
    is left as it is. DISMISS changes nothing but the reports. A refused change
    (DictionaryChangeError: the last word, letters outside the alphabet) answers nothing.
    """
    if decision not in DECISIONS or decision not in DECISIONS_FOR.get(kind, ()):
        label = Kind(kind).label if kind in Kind.values else "is of no known kind"
        raise ReportError(BAD_REPORT, DECISION_DOES_NOT_FIT.format(kind=label, decision=decision))
    pending = WordReport.objects.select_for_update().filter(
        dictionary=dictionary, word=word, kind=kind, outcome=Outcome.PENDING
    )
    ids = list(pending.values_list("id", flat=True))
    if not ids:
        raise ReportError(BAD_REPORT, NOTHING_PENDING.format(word=word))
    in_list = word in solver_selectors.dictionary_trie(dictionary)
    try:
        if decision == REMOVE and in_list:
            solver_services.dictionary_word_remove(dictionary=dictionary, word=word, by=by)
        elif decision == ADD and not in_list:
            solver_services.dictionary_word_add(dictionary=dictionary, word=word, by=by)
    except solver_services.DictionaryChangeError as exc:
        raise ReportError(BAD_REPORT, str(exc)) from None
    WordReport.objects.filter(id__in=ids).update(
        outcome=DECISIONS[decision], decided_at=now, decided_by=by
    )
    return len(ids)
