from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Rooms, players, rounds and submissions."""

    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        """Connect the daily boards' score counts to attempts being deleted."""
        from games.daily import scores as daily_scores  # noqa: F401
