from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Rooms, players, rounds and submissions."""

    name = "games"
    verbose_name = "Games"
