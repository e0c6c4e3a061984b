"""The dictionary admin's "Derive an everyday dictionary" page: a form, a preview, a save.

The preview shows what the cut keeps and drops; Save stores it only when the figures are
the ones previewed (else it previews them again), through solver.everyday.services.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse

from solver.dictionaries.services import DictionaryChangeError
from solver.engine.everyday import MAX_ZIPF
from solver.engine.wordlist import MAX_WORD_LETTERS
from solver.everyday.services import (
    SLUG_TAKEN,
    THRESHOLD_RANGE,
    dictionary_everyday_derive,
    dictionary_everyday_preview,
)
from solver.models import Dictionary

TEMPLATE = "admin/solver/dictionary/derive_everyday.html"
CHANGED_SINCE_PREVIEW = "The figures changed since the preview: check this one, then save."
SAVED = "Created {name}: {words:,} words ({source})."


class EverydayForm(forms.Form):
    """What to derive from, the new dictionary's name, and where to cut."""

    source = forms.ModelChoiceField(
        queryset=Dictionary.objects.filter(language="en").order_by("name"),
        label="Derive from",
        empty_label=None,
    )
    name = forms.CharField(max_length=100, initial="Everyday English")
    slug = forms.SlugField(max_length=50, help_text="Letters, digits, - and _: e.g. everyday-2.")
    threshold = forms.FloatField(
        label="Least Zipf figure",
        initial=3.0,
        help_text=(
            "wordfreq's Zipf scale: 7 is “the”, 3 a word met once in a million words, 0 one "
            "never seen. Everyday English uses 2.7."
        ),
        widget=forms.NumberInput(attrs={"min": 0, "max": MAX_ZIPF, "step": 0.1}),
    )
    min_length = forms.IntegerField(
        label="Minimum length",
        initial=3,
        min_value=1,
        max_value=MAX_WORD_LETTERS,
        help_text="Shorter words are dropped however common (3 drops AA, OE, XU).",
    )
    previewed = forms.CharField(required=False, widget=forms.HiddenInput)

    def clean_threshold(self) -> float:
        """Refuse a figure outside the Zipf scale."""
        value: float = self.cleaned_data["threshold"]
        if not 0 <= value <= MAX_ZIPF:
            raise forms.ValidationError(THRESHOLD_RANGE)
        return value

    def clean_slug(self) -> str:
        """Refuse a slug another dictionary has."""
        slug: str = self.cleaned_data["slug"]
        if Dictionary.objects.filter(slug=slug).exists():
            raise forms.ValidationError(SLUG_TAKEN.format(slug=slug))
        return slug

    def fingerprint(self) -> str:
        """Return what a preview was made of, to check that Save saves what was previewed."""
        data = self.cleaned_data
        return f"{data['source'].pk}:{data['threshold']:g}:{data['min_length']}"


def derive_everyday_view(model_admin: Any, request: HttpRequest) -> HttpResponse:
    """Show the form; on POST preview the cut, or save it (action=preview|save)."""
    preview = None
    if request.method == "POST":
        form = EverydayForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            changed = data["previewed"] != form.fingerprint()
            saving = request.POST.get("action") == "save" and not changed
            try:
                if saving:
                    created = dictionary_everyday_derive(
                        source=data["source"],
                        name=data["name"],
                        slug=data["slug"],
                        threshold=data["threshold"],
                        min_length=data["min_length"],
                    )
                    messages.success(
                        request,
                        SAVED.format(
                            name=created.name, words=created.word_count, source=created.source
                        ),
                    )
                    url = reverse("admin:solver_dictionary_change", args=[created.pk])
                    return HttpResponseRedirect(url)
                preview = dictionary_everyday_preview(
                    source=data["source"],
                    threshold=data["threshold"],
                    min_length=data["min_length"],
                )
            except DictionaryChangeError as exc:
                form.add_error(None, str(exc))
            else:
                if request.POST.get("action") == "save":  # not saved: the figures changed
                    messages.warning(request, CHANGED_SINCE_PREVIEW)
                form = EverydayForm({**request.POST.dict(), "previewed": form.fingerprint()})
                form.is_valid()
    else:
        initial = {"source": request.GET.get("source") or _default_source()}
        form = EverydayForm(initial=initial)
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.opts,
        "title": "Derive an everyday dictionary",
        "form": form,
        "preview": preview,
    }
    status = 400 if form.is_bound and form.errors else 200
    return TemplateResponse(request, TEMPLATE, context, status=status)


def _default_source() -> int | None:
    """Return the dictionary to derive from unless the link names one: YAWL, else the first."""
    english = Dictionary.objects.filter(language="en")
    found = english.filter(slug="yawl").first() or english.order_by("name").first()
    return found.pk if found else None
