"""The admin of board proofs: start one, watch its progress, stop it, see what it proved.

A proof's page polls `<id>/progress.json` once a second (solver/static/solver/board_search_run.js,
shared with the search pages) while the proof runs in its own process
(solver/boardlab/admin/proof_services.py). A complete proof marks the records of its best
boards proven best; the records pages show the mark and link here.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.core.validators import MaxValueValidator
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from solver.boardlab.admin import search_form
from solver.boardlab.admin.proof_services import (
    board_proof_log_path,
    board_proof_start,
    board_proof_stop,
)
from solver.boardlab.admin.record_selectors import board_record_rows
from solver.boardlab.admin.run_selectors import (
    ACTIVE,
    board_proof_report,
    board_search_run_is_pending,
    board_search_run_is_silent,
)
from solver.boardlab.proofs import BoardProofError
from solver.engine import prover
from solver.engine.rules import ADJACENCIES, SCORINGS, Rules
from solver.models import BoardProof, Dictionary
from solver.models.boardlab import KIND_FIELDS

LOG_TAIL_LINES = 20
STILL_ACTIVE = "proof #{id}, which has not finished: stop it, or wait until it ends"
STOP_ASKED = "Proof #{id}: asked to stop; its checkpoint keeps what it has proved."
STOP_SILENT = "Proof #{id} had stopped reporting: marked failed."
STOP_TOO_LATE = "Proof #{id} was already {status}: nothing to stop."
SIZE_RANGE = "The prover takes boards of 1 to {most} cells, not {rows}×{cols}."


class BoardProofForm(forms.Form):
    """What to prove: a dictionary, a size of free faces, the rules; the target, processes."""

    dictionary = forms.ModelChoiceField(
        Dictionary.objects.filter(is_active=True),
        error_messages={"invalid_choice": search_form.UNKNOWN_DICTIONARY},
    )
    size = forms.CharField(
        max_length=20,
        initial="3x3",
        help_text=f"Free faces, rows×columns, up to {prover.PRACTICAL_CELLS} cells (3x3: "
        "minutes; 3x4: hours).",
    )
    target = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=search_form.MAX_TARGET,
        help_text="Prove no board beats the best at or above this score; empty: the best "
        "stored record of the kind.",
    )
    jobs = forms.IntegerField(min_value=1, initial=1, label="Processes")
    min_length = forms.IntegerField(
        min_value=1, max_value=search_form.MAX_LONG_LENGTH, initial=3, label="Minimum word length"
    )
    adjacency = forms.ChoiceField(choices=[(a, a) for a in ADJACENCIES], initial="king")
    scoring = forms.ChoiceField(choices=[(s, s) for s in SCORINGS], initial="classic")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        jobs = self.fields["jobs"]
        jobs.validators.append(MaxValueValidator(search_form.cores()))
        jobs.widget.attrs["max"] = search_form.cores()
        jobs.help_text = f"Up to {search_form.cores()}, the cores of this machine."
        if not self.is_bound:
            default = Dictionary.objects.filter(is_default=True).first()
            if default is not None:
                self.initial.setdefault("dictionary", default.pk)

    def clean_size(self) -> tuple[int, int]:
        """Return (rows, cols) of a size the prover takes in practice."""
        match = search_form.SIZE.match(self.cleaned_data.get("size", ""))
        if not match:
            raise forms.ValidationError(search_form.SIZE_FORM)
        rows, cols = int(match[1]), int(match[2])
        if rows < 1 or cols < 1 or rows * cols > prover.PRACTICAL_CELLS:
            most = prover.PRACTICAL_CELLS
            raise forms.ValidationError(SIZE_RANGE.format(most=most, rows=rows, cols=cols))
        return rows, cols

    def proof_fields(self) -> dict[str, Any]:
        """Return the keyword arguments of board_proof_start (all but started_by)."""
        data = self.cleaned_data
        rows, cols = data["size"]
        return {
            "dictionary": data["dictionary"],
            "rows": rows,
            "cols": cols,
            "rules": Rules(data["min_length"], data["adjacency"], data["scoring"]),
            "target": data.get("target"),
            "jobs": data["jobs"],
        }


def _log_tail(proof: BoardProof) -> str:
    """Return the last lines the proof's process wrote, if its log is on this machine."""
    try:
        lines = board_proof_log_path(proof.pk).read_text(errors="replace").splitlines()
    except OSError:
        return ""
    return "\n".join(lines[-LOG_TAIL_LINES:])


@admin.register(BoardProof)
class BoardProofAdmin(admin.ModelAdmin):
    list_display = ["title", "kind", "status_now", "result", "target", "created_at"]
    list_filter = ["status", "dictionary"]
    list_select_related = ["dictionary"]
    change_form_template = "admin/solver/boardproof/change_form.html"
    fields = [
        *(f for f in KIND_FIELDS if f not in ("space", "dice_set")),  # free faces only
        "target",
        "buckets",
        "jobs",
        "started_by",
        "status",
        "checkpoint",
        "best_score",
        "best_boards",
        "figures",
        "error",
        "created_at",
        "started_at",
        "finished_at",
    ]

    class Media:
        css = {"all": ["solver/admin.css", "solver/board_lab.css"]}

    # A proof is started with the form and changed only by its process (or Stop).
    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        """Refuse to delete a proof whose process still writes to it."""
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        now = timezone.now()
        live = [
            STILL_ACTIVE.format(id=p.pk)
            for p in objs
            if board_search_run_is_pending(p) and not board_search_run_is_silent(p, now)
        ]
        return deleted, counts, perms_needed, [*protected, *live]

    def _may_stop(self, request: HttpRequest) -> bool:
        return request.user.has_perm(f"{self.opts.app_label}.change_{self.opts.model_name}")

    @admin.display(description="proof", ordering="-pk")
    def title(self, proof: BoardProof) -> str:
        """Return e.g. "#3 3×3"."""
        return f"#{proof.pk} {proof.rows}×{proof.cols}"

    @admin.display(description="kind")
    def kind(self, proof: BoardProof) -> str:
        """Return the dictionary, size and rules, e.g. "enable2k, 3×3, 3+ king classic"."""
        return f"{proof.kind_label}, {proof.min_length}+ {proof.adjacency} {proof.scoring}"

    @admin.display(description="status", ordering="status")
    def status_now(self, proof: BoardProof) -> str:
        """Return the status, or "not responding" for a proof whose process is gone."""
        silent = board_search_run_is_silent(proof, timezone.now())
        return "not responding" if silent else proof.get_status_display()

    @admin.display(description="result")
    def result(self, proof: BoardProof) -> str:
        """Return "proven best 545: REP/TAL/SED", or how far the proof got."""
        if proof.proven:
            return f"proven best {proof.best_score}: {proof.best_boards}"
        if proof.status == BoardProof.Status.DONE:
            return f"no board scores {proof.target} or more"
        progress = proof.progress or {}
        if progress.get("total"):
            return f"{progress.get('done', 0):,} of {progress['total']:,} classes"
        return ""

    # Pages ---------------------------------------------------------------------------------

    def get_urls(self) -> list[URLPattern]:
        """Add the progress endpoint the proof page polls, and its Stop button."""
        wrap = self.admin_site.admin_view
        return [
            path(
                "<int:proof_id>/progress.json",
                wrap(self.progress_view),
                name="solver_boardproof_progress",
            ),
            path(
                "<int:proof_id>/stop/",
                wrap(require_POST(self.stop_view)),
                name="solver_boardproof_stop",
            ),
            *super().get_urls(),
        ]

    def add_view(
        self, request: HttpRequest, form_url: str = "", extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """Show the proof form (filled in from the query, e.g. ?dictionary=1&size=3x3), and on
        a valid POST queue the proof, launch it and open its page."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        if request.method == "POST":
            form = BoardProofForm(request.POST)
            if form.is_valid():
                try:
                    proof = board_proof_start(
                        **form.proof_fields(), started_by=request.user.get_username()
                    )
                except BoardProofError as exc:
                    form.add_error(None, str(exc))
                else:
                    messages.success(request, f"Proof #{proof.pk} started.")
                    return HttpResponseRedirect(
                        reverse("admin:solver_boardproof_change", args=[proof.pk])
                    )
        else:
            form = BoardProofForm(initial=request.GET.dict())
        context = {
            **self.admin_site.each_context(request),
            **(extra_context or {}),
            "opts": self.opts,
            "title": "Prove the best board of a kind",
            "form": form,
        }
        status = 400 if form.is_bound else 200
        return TemplateResponse(
            request, "admin/solver/boardproof/start.html", context, status=status
        )

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """Show the proof's progress, its Stop button and the boards it proved best."""
        context = dict(extra_context or {})
        proof = self.get_object(request, object_id)
        if proof is not None and request.method == "GET":
            report = board_proof_report(proof, timezone.now())
            context.update(
                report=report,
                proven=board_record_rows(
                    proof.records.select_related("dictionary", "dice_set", "proof")
                ),
                may_stop=self._may_stop(request) and (proof.status in ACTIVE or report["silent"]),
                log_tail=_log_tail(proof) if report["silent"] or proof.status == "failed" else "",
            )
        return super().change_view(request, object_id, form_url, context)

    def progress_view(self, request: HttpRequest, proof_id: int) -> JsonResponse:
        """Return the proof's status and progress as JSON, for the proof page's script."""
        proof = get_object_or_404(BoardProof, pk=proof_id)
        if not self.has_view_permission(request, proof):
            raise PermissionDenied
        response = JsonResponse(board_proof_report(proof, timezone.now()))
        response["Cache-Control"] = "no-store"
        return response

    def stop_view(self, request: HttpRequest, proof_id: int) -> HttpResponse:
        """Ask the proof to stop (POST), then go back to its page."""
        proof = get_object_or_404(BoardProof, pk=proof_id)
        if not self._may_stop(request):
            raise PermissionDenied
        before = proof.status
        status = board_proof_stop(proof=proof)
        if status == before:
            messages.info(request, STOP_TOO_LATE.format(id=proof.pk, status=status))
        elif status == BoardProof.Status.STOPPED:
            messages.success(request, STOP_ASKED.format(id=proof.pk))
        else:
            messages.warning(request, STOP_SILENT.format(id=proof.pk))
        return HttpResponseRedirect(reverse("admin:solver_boardproof_change", args=[proof.pk]))
