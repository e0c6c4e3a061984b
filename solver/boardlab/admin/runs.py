"""The admin of board searches: start one, watch its progress, stop it, see what it found.

A run's page polls `<id>/progress.json` once a second (solver/static/solver/board_search_run.js)
while the search runs in its own process (solver/boardlab/admin/run_services.py).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from solver.boardlab.admin.record_selectors import (
    board_record_rows,
    objective_value_label,
    record_rank,
)
from solver.boardlab.admin.run_selectors import (
    ACTIVE,
    board_search_run_is_pending,
    board_search_run_is_silent,
    board_search_run_report,
)
from solver.boardlab.admin.run_services import (
    board_search_log_path,
    board_search_run_start,
    board_search_run_stop,
)
from solver.boardlab.admin.search_form import BoardSearchForm
from solver.engine.boardsearch import SearchError
from solver.models import BoardSearchRun
from solver.models.boardlab import KIND_FIELDS

LOG_TAIL_LINES = 20
STILL_ACTIVE = "search #{id}, which has not finished: stop it, or wait until it ends"
STOP_ASKED = "Search #{id}: asked to stop; it keeps the best boards found so far."
STOP_SILENT = "Search #{id} had stopped reporting: marked failed."
STOP_TOO_LATE = "Search #{id} was already {status}: nothing to stop."


def _log_tail(run: BoardSearchRun) -> str:
    """Return the last lines the run's process wrote, if its log is on this machine."""
    try:
        lines = board_search_log_path(run.pk).read_text(errors="replace").splitlines()
    except OSError:
        return ""
    return "\n".join(lines[-LOG_TAIL_LINES:])


@admin.register(BoardSearchRun)
class BoardSearchRunAdmin(admin.ModelAdmin):
    list_display = ["title", "kind", "status_now", "best", "seconds", "seed", "created_at"]
    list_filter = ["status", "objective", "space", "dictionary"]
    list_select_related = ["dictionary", "dice_set"]
    change_form_template = "admin/solver/boardsearchrun/change_form.html"
    change_list_template = "admin/solver/boardsearchrun/change_list.html"
    fields = [
        *KIND_FIELDS,
        "objective",
        "parameter",
        "seconds",
        "seed",
        "jobs",
        "started_by",
        "status",
        "error",
        "created_at",
        "started_at",
        "finished_at",
    ]

    class Media:
        css = {"all": ["solver/admin.css", "solver/board_lab.css"]}

    # A run is started with the search form and changed only by its process (or Stop).
    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        """Protect a run whose process is still writing to it (else it would write to a
        deleted row): deleting it is refused until it is stopped."""
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        now = timezone.now()
        live = [
            STILL_ACTIVE.format(id=run.pk)
            for run in objs
            if board_search_run_is_pending(run) and not board_search_run_is_silent(run, now)
        ]
        return deleted, counts, perms_needed, [*protected, *live]

    def _may_stop(self, request: HttpRequest) -> bool:
        return request.user.has_perm(f"{self.opts.app_label}.change_{self.opts.model_name}")

    @admin.display(description="search", ordering="-pk")
    def title(self, run: BoardSearchRun) -> str:
        """Return e.g. "#12 exact score 3000"."""
        label = run.get_objective_display()
        return f"#{run.pk} {label} {run.parameter}" if run.parameter else f"#{run.pk} {label}"

    @admin.display(description="kind")
    def kind(self, run: BoardSearchRun) -> str:
        """Return the dictionary and the dice set or size, e.g. "yawl, new16" or "yawl, 5×5"."""
        return run.kind_label

    @admin.display(description="status", ordering="status")
    def status_now(self, run: BoardSearchRun) -> str:
        """Return the status, or "not responding" for a run whose process is gone."""
        silent = board_search_run_is_silent(run, timezone.now())
        return "not responding" if silent else run.get_status_display()

    @admin.display(description="best so far")
    def best(self, run: BoardSearchRun) -> str:
        """Return the best value and board the run reported."""
        progress = run.progress or {}
        if progress.get("best_board") is None:
            return ""
        return f"{progress.get('best_value')} ({progress['best_board']})"

    # Pages ---------------------------------------------------------------------------------

    def get_urls(self) -> list[URLPattern]:
        """Add the progress endpoint the run page polls, and its Stop button."""
        wrap = self.admin_site.admin_view
        return [
            path(
                "<int:run_id>/progress.json",
                wrap(self.progress_view),
                name="solver_boardsearchrun_progress",
            ),
            path(
                "<int:run_id>/stop/",
                wrap(require_POST(self.stop_view)),
                name="solver_boardsearchrun_stop",
            ),
            *super().get_urls(),
        ]

    def add_view(
        self, request: HttpRequest, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """Show the search form (filled in from the query, e.g. ?dictionary=1&dice_set=2), and
        on a valid POST queue the run, launch it and open its page."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        if request.method == "POST":
            form = BoardSearchForm(request.POST)
            if form.is_valid():
                try:
                    run = board_search_run_start(
                        **form.run_fields(), started_by=request.user.get_username()
                    )
                except SearchError as exc:
                    form.add_error(None, str(exc))
                else:
                    messages.success(request, f"Search #{run.pk} started.")
                    return HttpResponseRedirect(
                        reverse("admin:solver_boardsearchrun_change", args=[run.pk])
                    )
        else:
            form = BoardSearchForm(initial=request.GET.dict())
        context = {
            **self.admin_site.each_context(request),
            **(extra_context or {}),
            "opts": self.opts,
            "title": "Start a board search",
            "form": form,
        }
        status = 400 if form.is_bound else 200
        return TemplateResponse(
            request, "admin/solver/boardsearchrun/start.html", context, status=status
        )

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """Show the run's progress, its Stop button and the records it found."""
        context = dict(extra_context or {})
        run = self.get_object(request, object_id)
        if run is not None and request.method == "GET":
            records = run.records.select_related("dictionary", "dice_set", "proof")
            found = board_record_rows(sorted(records, key=record_rank))
            report = board_search_run_report(run, timezone.now())
            context.update(
                report=report,
                found=found,
                value_label=objective_value_label(run.objective),
                may_stop=self._may_stop(request) and (run.status in ACTIVE or report["silent"]),
                log_tail=_log_tail(run) if report["silent"] or run.status == "failed" else "",
            )
        return super().change_view(request, object_id, form_url, context)

    def progress_view(self, request: HttpRequest, run_id: int) -> JsonResponse:
        """Return the run's status and progress as JSON, for the run page's script."""
        run = get_object_or_404(BoardSearchRun, pk=run_id)
        if not self.has_view_permission(request, run):
            raise PermissionDenied
        response = JsonResponse(board_search_run_report(run, timezone.now()))
        response["Cache-Control"] = "no-store"
        return response

    def stop_view(self, request: HttpRequest, run_id: int) -> HttpResponse:
        """Ask the run to stop (POST), then go back to its page."""
        run = get_object_or_404(BoardSearchRun, pk=run_id)
        if not self._may_stop(request):
            raise PermissionDenied
        before = run.status
        status = board_search_run_stop(run=run)
        if status == before:
            messages.info(request, STOP_TOO_LATE.format(id=run.pk, status=status))
        elif status == BoardSearchRun.Status.STOPPED:
            messages.success(request, STOP_ASKED.format(id=run.pk))
        else:
            messages.warning(request, STOP_SILENT.format(id=run.pk))
        return HttpResponseRedirect(reverse("admin:solver_boardsearchrun_change", args=[run.pk]))
