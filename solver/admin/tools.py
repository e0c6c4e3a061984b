"""The change page's panels: statistics, the word check, the board solver, the word changes."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from solver.admin.forms import BoardSolveForm, WordChangeForm, WordCheckForm
from solver.definitions.selectors import dictionary_word_define
from solver.dictionaries import selectors
from solver.engine.faces import display_face
from solver.engine.lexicon import Status
from solver.models import Dictionary, DictionaryWord

SOLVE_EXAMPLE = "ATEE/APYO/TINU/EDSE"
# The word check's answer, said after the word ("ZZXQ is not a word..."), never as a code.
CHECK_ANSWERS = {
    Status.WORD: "is a word in this dictionary.",
    Status.PREFIX: "is not a word, but words begin with it.",
    Status.NOT_WORD: "is not a word, and no word begins with it.",
}


def tools_context(request: HttpRequest, dictionary: Dictionary) -> dict[str, Any]:
    """Return what the change page's panels show; the tools answer GET parameters."""
    stats = selectors.dictionary_stats(dictionary)
    widest = max((count for _, count in stats.by_length), default=1)
    context: dict[str, Any] = {
        "stats": stats,
        "length_rows": [(n, count, round(100 * count / widest)) for n, count in stats.by_length],
        "compiled_size": f"{stats.compiled_bytes / 2**20:.1f} MiB",
        "changes": DictionaryWord.objects.filter(dictionary=dictionary),
        "word_change_form": WordChangeForm(),
    }
    context.update(_check(request, dictionary))
    context.update(_solve(request, dictionary))
    return context


def _check(request: HttpRequest, dictionary: Dictionary) -> dict[str, Any]:
    form = WordCheckForm(request.GET if "check" in request.GET else None)
    context: dict[str, Any] = {"check_form": form}
    if form.is_bound and form.is_valid():
        word = form.cleaned_data["check"].upper()
        status = selectors.dictionary_word_status(dictionary, word)
        context["check_result"] = (word, status.name, CHECK_ANSWERS[status])
        context["check_definition"] = dictionary_word_define(dictionary, word)
    return context


def _solve(request: HttpRequest, dictionary: Dictionary) -> dict[str, Any]:
    if "board" in request.GET:
        form = BoardSolveForm(request.GET)
    else:
        form = BoardSolveForm(initial={"board": SOLVE_EXAMPLE})
    context: dict[str, Any] = {"solve_form": form}
    if form.is_bound and form.is_valid():
        board = form.cleaned_data["board"]
        solution = selectors.dictionary_board_solve(dictionary, board, form.rules())
        context["solution"] = solution
        context["solution_grid"] = [[display_face(f) for f in row] for row in board.grid()]
    return context
