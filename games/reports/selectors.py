"""Reading word reports: a player's refused words and reports in a round, the admin's queues."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Count, Max, Min, Q, QuerySet

from games import protocol
from games.models import Player, Refusal, Round, WordReport
from games.reports.services import (
    DECISIONS_FOR,
    OUTCOME_TEXTS,
    REASON_MAX_CHARS,
    REFUSAL_TEXTS,
    Kind,
    Outcome,
)
from solver.definitions.selectors import language_primary, words_define
from solver.dictionaries import selectors as solver_selectors
from solver.engine.commonness import commonness, commonness_label
from solver.models import Dictionary

QUEUE_LENGTH = 100  # entries a queue page shows, the most reported first
REASONS_SHOWN = 3  # players' reasons an entry shows, the latest first


def round_reports_mine(*, rnd: Round, player: Player) -> dict[str, Any]:
    """Return what one player sees about reports in a finished round: the words the server
    refused them (with the reason, and whether each may be reported as a word) and their
    reports with each outcome."""
    refused = [
        {
            "word": word,
            "reason": reason,
            "reason_text": REFUSAL_TEXTS.get(reason, reason),
            "reportable": reason == protocol.NOT_A_WORD,
        }
        for word, reason in Refusal.objects.filter(round=rnd, player=player)
        .order_by("id")
        .values_list("word", "reason")
    ]
    reports = [
        {
            "word": report.word,
            "kind": report.kind,
            "reason": report.reason,
            "outcome": report.outcome,
            "outcome_text": OUTCOME_TEXTS[Outcome(report.outcome)],
        }
        for report in WordReport.objects.filter(round=rnd, player=player).order_by("id")
    ]
    return {
        "round": rnd.number,
        "refused": refused,
        "reports": reports,
        "reason_max": REASON_MAX_CHARS,
    }


@dataclass(frozen=True)
class QueueEntry:
    """One word and kind of report waiting in a dictionary's queue, with what helps decide."""

    word: str
    kind: str
    kind_label: str
    reports: int
    rooms: int
    first_at: datetime
    last_at: datetime
    reasons: tuple[str, ...]
    definition: str  # "" when there is none
    zipf: float | None  # None for a dictionary not in English (wordfreq's figures are)
    commonness: str
    in_list: bool  # whether the live list holds the word now
    decisions: tuple[str, ...]


def report_queue(*, dictionary: Dictionary, limit: int = QUEUE_LENGTH) -> list[QueueEntry]:
    """Return a dictionary's pending reports grouped by word and kind, the most reported
    (then from the most rooms) first."""
    pending = WordReport.objects.filter(dictionary=dictionary, outcome=Outcome.PENDING)
    groups = list(
        pending.values("word", "kind")
        .annotate(
            reports=Count("id"),
            rooms=Count("round__room", distinct=True),
            first_at=Min("created_at"),
            last_at=Max("created_at"),
        )
        .order_by("-reports", "-rooms", "word", "kind")[:limit]
    )
    words = {group["word"] for group in groups}
    reasons: dict[tuple[str, str], list[str]] = {}
    for word, kind, reason in (
        pending.filter(word__in=words).exclude(reason="").order_by("-created_at", "-id")
    ).values_list("word", "kind", "reason"):
        shown = reasons.setdefault((word, kind), [])
        if len(shown) < REASONS_SHOWN:
            shown.append(reason)
    definitions = words_define(words=words, language=dictionary.language)
    english = language_primary(dictionary.language) == "en"
    trie = solver_selectors.dictionary_trie(dictionary) if groups else None
    entries = []
    for group in groups:
        word, kind = group["word"], group["kind"]
        definition = definitions.get(word)
        zipf = commonness(word) if english else None
        entries.append(
            QueueEntry(
                word=word,
                kind=kind,
                kind_label=Kind(kind).label,
                reports=group["reports"],
                rooms=group["rooms"],
                first_at=group["first_at"],
                last_at=group["last_at"],
                reasons=tuple(reasons.get((word, kind), ())),
                definition=definition.summary() if definition is not None else "",
                zipf=zipf,
                commonness=commonness_label(zipf) if zipf is not None else "",
                in_list=trie is not None and word in trie,
                decisions=DECISIONS_FOR[kind],
            )
        )
    return entries


def report_queue_dictionaries() -> QuerySet[Dictionary]:
    """Return every dictionary, each with `pending`, how many reports wait in its queue."""
    waiting = Q(word_reports__outcome=Outcome.PENDING)
    return Dictionary.objects.annotate(pending=Count("word_reports", filter=waiting)).order_by(
        "-pending", "name"
    )
