"""The admin of board records: the best boards searches found, by kind of board.

Records are written by searches (the board_search command, or a search started here) and by
proofs (board_prove), never typed in: the admin shows and deletes them; a record a proof
covered is marked proven best. The list page opens with the kinds of board
that have records; each kind has a page of its best boards per objective.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.timezone import localtime

from solver.boardlab.admin.record_selectors import (
    BEST_PER_GROUP,
    RecordKind,
    board_grid,
    board_record_best,
    board_record_kinds,
    board_record_room_url,
)
from solver.engine import prover
from solver.models import BoardRecord
from solver.models.boardlab import KIND_FIELDS, DiceSet, Dictionary

NO_DICE_SET_CAN_DRAW_IT = "No dice set of the game can draw this board."


def _id(request: HttpRequest, name: str) -> int | None:
    """Return an id filter of the list page (e.g. dictionary__id__exact=3), if there is one."""
    value = request.GET.get(f"{name}__id__exact", "")
    return int(value) if value.isdigit() else None


@admin.register(BoardRecord)
class BoardRecordAdmin(admin.ModelAdmin):
    list_display = [
        "board_rows",
        "objective_title",
        "value",
        "proven_best",
        "score",
        "words",
        "kind",
        "found_on",
    ]
    list_filter = ["dictionary", "dice_set", "space", "objective"]
    search_fields = ["board", "board_rows", "found_by"]
    list_select_related = ["dictionary", "dice_set"]
    change_list_template = "admin/solver/boardrecord/change_list.html"
    fields = [
        "grid",
        "board",
        "board_rows",
        "room_link",
        *KIND_FIELDS,
        "dictionary_hash",
        "objective",
        "parameter",
        "value",
        "score",
        "words",
        "found_by",
        "run",
        "proof",
        "seed",
        "created_at",
    ]
    readonly_fields = ["grid", "room_link", "created_at"]

    class Media:
        css = {"all": ["solver/admin.css", "solver/board_lab.css"]}

    # Records come from searches: nobody adds or edits one; an admin may delete them.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="objective", ordering="objective")
    def objective_title(self, record: BoardRecord) -> str:
        """Return the objective with its parameter, e.g. "exact score 3000"."""
        label = record.get_objective_display()
        return f"{label} {record.parameter}" if record.parameter else label

    @admin.display(description="proven best", boolean=True, ordering="proof")
    def proven_best(self, record: BoardRecord) -> bool:
        """Return whether a proof showed no board of the kind scores more."""
        return record.proof_id is not None

    @admin.display(description="kind")
    def kind(self, record: BoardRecord) -> str:
        """Return the dictionary and the dice set or size, e.g. "yawl, new16" or "yawl, 5×5"."""
        return record.kind_label

    @admin.display(description="found", ordering="created_at")
    def found_on(self, record: BoardRecord) -> str:
        """Return the day the record was found."""
        return localtime(record.created_at).strftime("%Y-%m-%d")

    @admin.display(description="board")
    def grid(self, record: BoardRecord) -> str:
        """Return the board drawn as a small table."""
        rows = format_html_join(
            "",
            "<tr>{}</tr>",
            (
                (format_html_join("", "<td>{}</td>", ((f,) for f in row)),)
                for row in board_grid(record.board)
            ),
        )
        return format_html('<table class="solver-board solver-board-small">{}</table>', rows)

    @admin.display(description="play it")
    def room_link(self, record: BoardRecord) -> str:
        """Return the link that opens a room on this board."""
        url = board_record_room_url(record)
        if url is None:
            return NO_DICE_SET_CAN_DRAW_IT
        return format_html('<a href="{}">Open a room on this board</a>', url)

    # Pages ---------------------------------------------------------------------------------

    def get_urls(self) -> list[URLPattern]:
        """Add the records page of each kind: a dice set, or free faces of a size."""
        wrap = self.admin_site.admin_view
        return [
            path(
                "best/<slug:dictionary>/dice/<slug:dice_set>/",
                wrap(self.best_dice_view),
                name="solver_boardrecord_best_dice",
            ),
            path(
                "best/<slug:dictionary>/free/<int:rows>x<int:cols>/",
                wrap(self.best_free_view),
                name="solver_boardrecord_best_free",
            ),
            *super().get_urls(),
        ]

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """Show the kinds of board that have records above the list of every record."""
        context = dict(extra_context or {})
        if self.has_view_permission(request):
            context["kinds"] = board_record_kinds(
                dictionary_id=_id(request, "dictionary"), dice_set_id=_id(request, "dice_set")
            )
        return super().changelist_view(request, context)

    def best_dice_view(self, request: HttpRequest, dictionary: str, dice_set: str) -> HttpResponse:
        """Show the best records of a dictionary on a dice set."""
        dice = get_object_or_404(DiceSet, slug=dice_set)
        kind = RecordKind(self._dictionary(dictionary), dice, dice.rows, dice.cols)
        return self._best(request, kind, {"dice_set": dice.pk})

    def best_free_view(
        self, request: HttpRequest, dictionary: str, rows: int, cols: int
    ) -> HttpResponse:
        """Show the best records of a dictionary on free faces of one size."""
        kind = RecordKind(self._dictionary(dictionary), None, rows, cols)
        return self._best(request, kind, {"size": f"{rows}x{cols}"})

    def _dictionary(self, slug: str) -> Dictionary:
        return get_object_or_404(Dictionary, slug=slug)

    def _best(self, request: HttpRequest, kind: RecordKind, space: dict[str, Any]) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        groups = board_record_best(kind)
        if not groups and not kind.records().exists():
            raise Http404("No records of this kind.")
        query = urlencode({"dictionary": kind.dictionary.pk, **space})
        search = f"{reverse('admin:solver_boardsearchrun_add')}?{query}"
        provable = kind.dice_set is None and kind.rows * kind.cols <= prover.PRACTICAL_CELLS
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": f"Best boards: {kind.dictionary.name}, {kind.space_label}",
            "kind": kind,
            "groups": groups,
            "per_group": BEST_PER_GROUP,
            "search_url": search,
            "may_search": request.user.has_perm("solver.add_boardsearchrun"),
            "prove_url": f"{reverse('admin:solver_boardproof_add')}?{query}" if provable else "",
            "may_prove": request.user.has_perm("solver.add_boardproof"),
        }
        return TemplateResponse(request, "admin/solver/boardrecord/best.html", context)
