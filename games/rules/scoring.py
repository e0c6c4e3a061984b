"""Scoring a finished round: strike shared words, total each player, annotate the solution."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter
from typing import Any, NamedTuple

from solver.engine.commonness import commonness_label


class Found(NamedTuple):
    """One accepted word of one player (a tuple: an arena round reads a hundred thousand)."""

    player_id: int
    word: str
    path: list[int]
    points: int


def round_results(
    *,
    solution: Sequence[Sequence[Any]],
    found: Iterable[Found],
    players: dict[int, str],
    cancel_duplicates: bool,
    commonness: Callable[[str], float] = lambda word: 0.0,
    computer_takes_rest: bool = False,
    hints_taken: dict[int, int] | None = None,
    hint_cost: int = 0,
) -> dict[str, Any]:
    """Return the results of a round.

    A word found by two or more players is struck from every list and scores for nobody
    when duplicates cancel (the Hasbro rule); every other word scores its points. Missed
    words come most common first. Every word (found, struck, missed, the computer's) carries
    its commonness: `zipf` (wordfreq's Zipf scale) and `commonness`, the label players read
    (everyday, common, uncommon or rare: solver.engine.commonness.COMMONNESS_LABELS). In a solo game
    the computer then takes every word the player missed. Each hint a player took
    (`hints_taken`, by player id) costs `hint_cost` points off their score, shown as `hints`.
    """
    found = list(found)
    rated = Ratings(commonness)
    finders: dict[str, list[int]] = defaultdict(list)
    for f in found:
        finders[f.word].append(f.player_id)
    hints_taken = hints_taken or {}
    per_player: dict[int, list[dict[str, Any]]] = {pid: [] for pid in players}
    for pid, word, path, points in found:
        struck = cancel_duplicates and len(finders[word]) > 1
        words_of = per_player.get(pid)
        if words_of is None:
            words_of = per_player[pid] = []
        words_of.append(
            {"word": word, "path": path, "points": 0 if struck else points, "struck": struck}
            | rated(word)
        )
    table = [
        {
            "id": pid,
            "nickname": players.get(pid, "?"),
            "words": sorted(words, key=itemgetter("word")),
            "score": sum(w["points"] for w in words) - hint_cost * hints_taken.get(pid, 0),
            **_hints_charged(hints_taken.get(pid, 0), hint_cost),
        }
        for pid, words in per_player.items()
    ]
    table.sort(key=lambda row: (-row["score"], row["nickname"]))
    words = [
        {
            "word": word,
            "path": path,
            "points": points,
            "found_by": sorted(finders.get(word, [])),
            **rated(word),
        }
        for word, path, points in solution
    ]
    missed = missed_words(w for w in words if not w["found_by"])
    results: dict[str, Any] = {
        "players": table,
        "solution": words,
        "missed": [w["word"] for w in missed],
        "max_score": sum(w["points"] for w in words),
        "duplicates_cancel": cancel_duplicates,
    }
    if computer_takes_rest:
        results["computer"] = _computer_turn(missed, table)
    return results


def results_compact(results: dict[str, Any]) -> dict[str, Any]:
    """Return results as a round nobody found a word in may store them: without the board's
    words (`solution`, `missed`), which are the round's solution again with nothing found
    and are rebuilt from it when read (results_full). An untimed room's empty rounds, started
    and ended in a loop, then store their solution once, not three times."""
    if any(row["words"] for row in results["players"]) or "computer" in results:
        return results
    return {k: v for k, v in results.items() if k not in ("solution", "missed")} | {"unfound": True}


def results_full(
    results: dict[str, Any],
    solution: Sequence[Sequence[Any]],
    commonness: Callable[[str], float] = lambda word: 0.0,
) -> dict[str, Any]:
    """Return stored results with the board's words (`solution`, `missed`) rebuilt from the
    round's solution when results_compact left them out; others as they are."""
    if not results.get("unfound"):
        return results
    rebuilt = round_results(
        solution=solution, found=[], players={}, cancel_duplicates=False, commonness=commonness
    )
    return {k: v for k, v in results.items() if k != "unfound"} | {
        "solution": rebuilt["solution"],
        "missed": rebuilt["missed"],
    }


class Ratings:
    """Each word's commonness as results show it: `zipf` (wordfreq's Zipf scale, two
    decimals) and `commonness`, its label; worked out once per word and shared."""

    def __init__(self, commonness: Callable[[str], float]) -> None:
        self.commonness = commonness
        self.known: dict[str, dict[str, Any]] = {}

    def __call__(self, word: str) -> dict[str, Any]:
        rating = self.known.get(word)
        if rating is None:
            zipf = round(self.commonness(word), 2)
            rating = self.known[word] = {"zipf": zipf, "commonness": commonness_label(zipf)}
        return rating


def missed_words(words: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the words nobody found in the order results list them: most common first."""
    return sorted(words, key=lambda w: (-w["zipf"], w["word"]))


def _hints_charged(taken: int, cost: int) -> dict[str, Any]:
    """Return a player's row's `hints` (how many, each's cost, the points taken off), if any."""
    return {"hints": {"taken": taken, "cost": cost, "points": taken * cost}} if taken else {}


def _computer_turn(missed: list[dict[str, Any]], table: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the computer's turn of a solo game: every word the player missed, and a verdict."""
    score = sum(w["points"] for w in missed)
    words = sorted(
        ({k: w[k] for k in ("word", "path", "points", "zipf", "commonness")} for w in missed),
        key=lambda w: w["word"],
    )
    mine = table[0]["score"] if table else 0
    if mine > score:
        verdict = f"You beat the computer by {mine - score} point{'s' * (mine - score != 1)}!"
    elif mine == score:
        verdict = "A tie with the computer!"
    else:
        verdict = f"The computer wins by {score - mine} point{'s' * (score - mine != 1)}."
    return {"words": words, "score": score, "verdict": verdict}


def board_summary(
    *,
    words: int,
    points: int,
    standing: dict[str, Any] | None,
    letters: bool,
    given: bool,
    label: str = "The board",
) -> dict[str, Any]:
    """Return how good the board was: its words and points and, when known, its percentile
    among random boards of its kind, with a sentence saying so (shown with the results,
    after `label`: whose board it was, "The host's board", "The day's board")."""
    summary: dict[str, Any] = {"words": words, "points": points, "given": given, "label": label}
    told = f"{words:,} word{'s' * (words != 1)}, {points:,} point{'s' * (points != 1)}"
    if standing is not None:
        percentile = standing["score_percentile"]
        summary.update(standing)
        kind = "these letters" if letters else "these dice"
        told += f" — {_ranking(percentile)} for {kind} and this dictionary"
    summary["text"] = told
    return summary


def _ranking(percentile: float) -> str:
    """Return where a board ranks as players read it: 'richer than 87% of boards', never
    rounded up to all of them or down to none."""
    if percentile >= 100:
        return "richer than every random board"
    if percentile <= 0:
        return "poorer than every random board"
    if percentile < 1:
        return "poorer than 99% of boards"
    return f"richer than {min(round(percentile), 99)}% of boards"
