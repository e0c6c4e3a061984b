"""`manage.py arena_default`: create the arena `make run` starts with, if there is none.

"Arena 4×4" (`/arena/4x4/`): classic new16 dice, the site's default dictionary, boards of the
standard band, 2 minutes of play and 30 seconds of results. Admins change it, or add more,
in the admin (docs/arena.md). Run after `load_dictionaries`, which ships the dice; running
it again changes nothing.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError

from games.arena.services import arena_create, arena_round_settings
from games.models import Arena
from games.rooms.services import settings_check
from games.rules import clock
from games.rules.room_settings import SettingsError
from solver import cli

DEFAULT_ARENA: dict[str, Any] = {
    "slug": "4x4",
    "name": "Arena 4×4",
    "dice": "new16",
    "min_length": 3,
    "band": "standard",
    "play_seconds": 120,
    "results_seconds": 30,
}


class Command(cli.DatabaseCommand):
    help = "Create the default 4×4 arena if no arena exists yet (run after load_dictionaries)."

    def handle(self, *args: Any, **options: Any) -> None:
        if Arena.objects.exists():
            self.stdout.write(f"arenas: {', '.join(a.slug for a in Arena.objects.all())}")
            return
        fields = {k: v for k, v in DEFAULT_ARENA.items() if k not in ("slug", "name")}
        try:
            settings_check(arena_round_settings(Arena(**fields)))
        except SettingsError as exc:
            raise CommandError(f"{exc} (run `manage.py load_dictionaries` first)") from None
        arena = arena_create(
            slug=DEFAULT_ARENA["slug"], name=DEFAULT_ARENA["name"], now=clock.now(), **fields
        )
        self.stdout.write(f"created {arena.name} at /arena/{arena.slug}/")
