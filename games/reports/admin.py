"""The admin of word reports: a queue per dictionary, and one click to act on an entry.

Acting calls games.reports.services.reports_decide, which changes the live list through the
dictionary's own extras and exclusions (solver.dictionaries.services), as the dictionary's page
does.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.views.decorators.http import require_POST

from games.models import WordReport
from games.reports import services as reports
from games.reports.selectors import report_queue, report_queue_dictionaries
from games.rules import clock
from solver.models import Dictionary

# What the admin reads after acting.
DONE = {
    reports.REMOVE: "{word}: removed from {dictionary} ({count} report{s} answered).",
    reports.ADD: "{word}: added to {dictionary} ({count} report{s} answered).",
    reports.DISMISS: "{word}: dismissed; {dictionary} is unchanged ({count} report{s} answered).",
}
CANNOT_CHANGE_LIST = "Changing the word list needs the permission to change dictionaries."


@admin.register(WordReport)
class WordReportAdmin(admin.ModelAdmin):
    """The changelist is the queue of one dictionary (?dictionary=pk) instead of a table of
    single reports: the same word reported many times is one entry."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        """Reports come from players only."""
        return False

    def get_urls(self) -> list[URLPattern]:
        """Return the queue and the POST endpoint of its buttons, and nothing else: a report
        is answered through reports_decide, never edited or deleted one by one."""
        wrap = self.admin_site.admin_view
        return [
            path("decide/", wrap(require_POST(self.decide_view)), name="games_wordreport_decide"),
            path("", wrap(self.changelist_view), name="games_wordreport_changelist"),
        ]

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """Show one dictionary's queue (the one with the most pending reports by default)."""
        if not self.has_view_or_change_permission(request):
            raise PermissionDenied
        dictionaries = list(report_queue_dictionaries())
        chosen = next(
            (d for d in dictionaries if str(d.pk) == request.GET.get("dictionary")),
            dictionaries[0] if dictionaries else None,
        )
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": "Word reports",
            "subtitle": chosen.name if chosen else None,
            "dictionaries": dictionaries,
            "chosen": chosen,
            "entries": report_queue(dictionary=chosen) if chosen else [],
            "can_decide": self._can_decide(request),
            **(extra_context or {}),
        }
        return TemplateResponse(request, "admin/games/wordreport/queue.html", context)

    def _can_decide(self, request: HttpRequest) -> bool:
        """Return whether this admin may act: answer reports and change word lists."""
        return self.has_change_permission(request) and request.user.has_perm(
            "solver.change_dictionary"
        )

    def decide_view(self, request: HttpRequest) -> HttpResponse:
        """Act on a queue entry (POST dictionary, word, kind, decision), then go back to it."""
        if not self._can_decide(request):
            raise PermissionDenied(CANNOT_CHANGE_LIST)
        dictionary = get_object_or_404(Dictionary, pk=request.POST.get("dictionary", ""))
        word = request.POST.get("word", "")
        decision = request.POST.get("decision", "")
        try:
            count = reports.reports_decide(
                dictionary=dictionary,
                word=word,
                kind=request.POST.get("kind", ""),
                decision=decision,
                by=request.user,
                now=clock.now(),
            )
        except reports.ReportError as exc:
            messages.error(request, exc.message)
        else:
            done = DONE[decision].format(
                word=word, dictionary=dictionary.name, count=count, s="s" * (count != 1)
            )
            messages.success(request, done)
        url = reverse("admin:games_wordreport_changelist")
        return HttpResponseRedirect(f"{url}?dictionary={dictionary.pk}")
