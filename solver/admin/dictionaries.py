"""The dictionary admin: upload a list, see its statistics, check words, solve boards.

Views here parse the request, check permission, call one service or selector and redirect.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import URLPattern, path, reverse
from django.utils.timezone import localtime
from django.views.decorators.http import require_POST

from solver.admin.forms import DictionaryForm, WordChangeForm
from solver.admin.tools import tools_context
from solver.dictionaries import services
from solver.dictionaries.services import DictionaryChangeError
from solver.everyday.admin import derive_everyday_view
from solver.models import Dictionary

METADATA = ["name", "slug", "language", "description", "source", "licence"]
NO_WORD = "Give a word, and whether to add or remove it."
DERIVE_ONE = "Select one dictionary to derive an everyday dictionary from."


@admin.register(Dictionary)
class DictionaryAdmin(admin.ModelAdmin):
    form = DictionaryForm
    list_display = ["name", "slug", "language", "words", "is_default", "is_active", "last_change"]
    list_filter = ["language", "is_active"]
    search_fields = ["name", "slug", "description"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["word_count", "is_default", "is_active", "content_hash", "upload_report"]
    actions = ["deactivate_selected", "derive_everyday"]

    class Media:
        css = {"all": ["solver/admin.css"]}

    @admin.display(description="words", ordering="word_count")
    def words(self, dictionary: Dictionary) -> str:
        """Return the size of the list games use, e.g. 264,061."""
        return f"{dictionary.word_count:,}"

    @admin.display(description="last change", ordering="updated_at")
    def last_change(self, dictionary: Dictionary) -> str:
        """Return when the dictionary last changed, in the site's time zone."""
        return localtime(dictionary.updated_at).strftime("%Y-%m-%d %H:%M")

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        """Return the details, the upload and (on the change page) the current list's facts."""
        fieldsets: list[Any] = [
            (None, {"fields": METADATA}),
            ("Word list", {"fields": ["word_file", "alphabet"]}),
        ]
        if obj is not None:
            current = ["word_count", "is_default", "is_active", "content_hash", "upload_report"]
            fieldsets.append(("Current list", {"fields": current}))
        return fieldsets

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        """Save the details, then store an uploaded list through the services."""
        data = form.cleaned_data
        if not change:  # the instance the form built, stored with its list by the service
            services.dictionary_store_new(
                dictionary=obj,
                word_list=form.word_list,
                alphabet=data["alphabet"],
                upload_report=form.report,
            )
        else:
            obj.save(update_fields=[*METADATA, "updated_at"])
            if form.word_list is not None:
                services.dictionary_words_replace(
                    dictionary=obj,
                    word_list=form.word_list,
                    alphabet=data["alphabet"],
                    upload_report=form.report,
                )
                obj.refresh_from_db()
        if form.word_list is not None:
            words = len(form.word_list.words)
            messages.success(request, f"Stored {words:,} words from {data['word_file'].name}.")
            for line in form.report.splitlines():
                messages.warning(request, line)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Refuse to delete the default dictionary: games need one."""
        return super().has_delete_permission(request, obj) and not (obj and obj.is_default)

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """Show the change form with the statistics and tools panels below it."""
        dictionary = self.get_object(request, object_id)
        context = dict(extra_context or {})
        if dictionary is not None and request.method == "GET":
            context.update(tools_context(request, dictionary))
            context["can_change"] = self.has_change_permission(request, dictionary)
        return super().change_view(request, object_id, form_url, context)

    # Buttons of the change page -----------------------------------------------------------

    def get_urls(self) -> list[URLPattern]:
        """Add the POST endpoints of the change page's buttons."""
        wrap = self.admin_site.admin_view
        return [
            path(
                "<path:object_id>/words/",
                wrap(require_POST(self.words_view)),
                name="solver_dictionary_words",
            ),
            path(
                "<path:object_id>/status/",
                wrap(require_POST(self.status_view)),
                name="solver_dictionary_status",
            ),
            path(
                "derive-everyday/",
                wrap(self.everyday_view),
                name="solver_dictionary_everyday",
            ),
            *super().get_urls(),
        ]

    def _changeable(self, request: HttpRequest, object_id: str) -> Dictionary:
        dictionary = get_object_or_404(Dictionary, pk=object_id)
        if not self.has_change_permission(request, dictionary):
            raise PermissionDenied
        return dictionary

    def _back(self, dictionary: Dictionary, anchor: str) -> HttpResponseRedirect:
        url = reverse("admin:solver_dictionary_change", args=[dictionary.pk])
        return HttpResponseRedirect(f"{url}#{anchor}")

    @staticmethod
    def _report(request: HttpRequest, action: Any, done: str, panel: str = "") -> None:
        """Run a service; say what happened, also inside the change page's panel."""
        try:
            action()
        except DictionaryChangeError as exc:
            messages.error(request, str(exc), extra_tags=panel)
        else:
            messages.success(request, done, extra_tags=panel)

    def words_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """Add or remove one word (POST word, action=add|remove)."""
        dictionary = self._changeable(request, object_id)
        form = WordChangeForm(request.POST)
        if not form.is_valid():
            messages.error(request, NO_WORD, extra_tags="words")
            return self._back(dictionary, "words")
        word, action = form.cleaned_data["word"], form.cleaned_data["action"]
        service = (
            services.dictionary_word_add if action == "add" else services.dictionary_word_remove
        )
        done = f"{word.upper()}: {'added' if action == 'add' else 'removed'}."
        self._report(
            request,
            lambda: service(dictionary=dictionary, word=word, by=request.user),
            done,
            "words",
        )
        return self._back(dictionary, "words")

    def status_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """Make the dictionary the default, or activate or deactivate it (POST action=…)."""
        dictionary = self._changeable(request, object_id)
        action = request.POST.get("action")
        if action == "default":
            self._report(
                request,
                lambda: services.dictionary_default_set(dictionary=dictionary),
                f"{dictionary.name} is now the default dictionary.",
                "status",
            )
        elif action in ("activate", "deactivate"):
            self._report(
                request,
                lambda: services.dictionary_active_set(
                    dictionary=dictionary, active=action == "activate"
                ),
                f"{dictionary.name} is now {'active' if action == 'activate' else 'inactive'}.",
                "status",
            )
        return self._back(dictionary, "status")

    @admin.action(description="Deactivate the selected dictionaries", permissions=["change"])
    def deactivate_selected(self, request: HttpRequest, queryset: QuerySet[Dictionary]) -> None:
        """Deactivate each selected dictionary (the default is refused and says so)."""
        for dictionary in queryset:
            self._report(
                request,
                lambda d=dictionary: services.dictionary_active_set(dictionary=d, active=False),
                f"{dictionary.name} is now inactive.",
            )

    def everyday_view(self, request: HttpRequest) -> HttpResponse:
        """Derive an everyday dictionary from another: form, preview, save."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        return derive_everyday_view(self, request)

    @admin.action(
        description="Derive an everyday dictionary from the selected one", permissions=["add"]
    )
    def derive_everyday(
        self, request: HttpRequest, queryset: QuerySet[Dictionary]
    ) -> HttpResponse | None:
        """Open the derive page with the one selected dictionary as its source."""
        if queryset.count() != 1:
            messages.error(request, DERIVE_ONE)
            return None
        url = reverse("admin:solver_dictionary_everyday")
        return HttpResponseRedirect(f"{url}?source={queryset.get().pk}")
