"""`manage.py sweep`: the sweep in a process of its own (games.sweeper), for production."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from games.sweeper import sweep_forever
from solver import cli


class Command(cli.DatabaseCommand):
    help = (
        "End overdue rounds, tidy rooms, play the computer players' words and keep every "
        "arena on its schedule, until stopped: the daphne workers sweep too once a client "
        "connects; this sweeps whether or not one does (run one under a supervisor)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--interval",
            type=float,
            default=None,
            help="seconds between sweeps (default: BOGGLE_SWEEP_INTERVAL, 3)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        interval = options["interval"]
        if interval is None:
            interval = float(settings.BOGGLE_SWEEP_INTERVAL) or 3.0
        if interval <= 0:
            raise CommandError("--interval must be a number of seconds above 0.")
        self.stdout.write(f"Sweeping every {interval:g} s (^C or SIGTERM stops it).")
        try:
            sweep_forever(interval)
        except KeyboardInterrupt:
            self.stdout.write("Stopped.")
