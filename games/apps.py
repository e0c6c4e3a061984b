from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Rooms, players, rounds and submissions."""

    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        """Make the daily boards' and the arena's kinds of round known to round_end, and
        connect the daily boards' score counts to attempts being deleted."""
        from django.db.models.signals import post_delete

        from games.arena.results import ArenaRound
        from games.daily.scores import DailyRound, attempt_deleted
        from games.models import DailyAttempt
        from games.rounds.kinds import room_kind_register

        room_kind_register(ArenaRound())
        room_kind_register(DailyRound())
        post_delete.connect(attempt_deleted, sender=DailyAttempt)
