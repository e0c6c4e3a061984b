"""The arenas in the admin: their board, dictionary and timings (docs/arena.md).

Settings are checked as a host's would be (the dice and dictionary exist, some boards reach
the band); new timings apply from the next round, numbering carrying on
(games.arena.services.arena_retime); a new arena's schedule starts when it is saved.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from games.arena import services as arena_service
from games.models import Arena
from games.rooms.services import settings_check
from games.rules import clock
from games.rules.room_settings import MAX_DURATION, MIN_DURATION, SettingsError
from solver.engine.rules import ADJACENCIES, SCORINGS
from solver.engine.standing import BANDS

MIN_RESULTS_S, MAX_RESULTS_S = 10, 10 * 60


class ArenaForm(forms.ModelForm):
    scoring = forms.ChoiceField(choices=[(s, s) for s in SCORINGS])
    adjacency = forms.ChoiceField(choices=[(a, a) for a in ADJACENCIES])
    band = forms.ChoiceField(choices=[("", "any board"), *((b, b) for b in BANDS)], required=False)
    play_seconds = forms.IntegerField(min_value=MIN_DURATION, max_value=MAX_DURATION)
    results_seconds = forms.IntegerField(min_value=MIN_RESULTS_S, max_value=MAX_RESULTS_S)

    class Meta:
        model = Arena
        fields = [
            "slug", "name", "is_active", "order", "dice", "rows", "cols", "dictionary",
            "min_length", "scoring", "adjacency", "band", "min_words", "play_seconds",
            "results_seconds",
        ]  # fmt: skip

    def clean(self) -> dict[str, Any]:
        """Refuse settings a round could not be drawn with, saying why."""
        data = super().clean() or {}
        if self.errors:
            return data
        candidate = Arena(**{name: data[name] for name in self.Meta.fields if name in data})
        try:
            settings_check(arena_service.arena_round_settings(candidate))
        except SettingsError as exc:
            raise forms.ValidationError(f"These settings cannot be played: {exc}.") from None
        return data


@admin.register(Arena)
class ArenaAdmin(admin.ModelAdmin):
    form = ArenaForm
    list_display = ["name", "slug", "is_active", "dice", "band", "play_seconds", "results_seconds"]
    readonly_fields = ["room", "epoch", "round_base"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        """The slug names the arena's page: fixed once players have it."""
        return [*self.readonly_fields, "slug"] if obj is not None else []

    def save_model(self, request: HttpRequest, obj: Arena, form: Any, change: bool) -> None:
        """Create a new arena with its room; give a changed one its new timings."""
        now = clock.now()
        if not change:
            fields = {
                n: form.cleaned_data[n] for n in ArenaForm.Meta.fields if n not in ("slug", "name")
            }
            created = arena_service.arena_create(
                slug=form.cleaned_data["slug"], name=form.cleaned_data["name"], now=now, **fields
            )
            obj.pk, obj.room_id, obj.epoch = created.pk, created.room_id, created.epoch
            return
        if {"play_seconds", "results_seconds"} & set(form.changed_data):
            arena_service.arena_retime(
                arena=obj, play_seconds=obj.play_seconds, results_seconds=obj.results_seconds,
                now=now,
            )  # fmt: skip
        super().save_model(request, obj, form, change)
