from django.apps import AppConfig


class SolverConfig(AppConfig):
    """Dictionaries, dice sets and the compiled-dictionary cache around solver.engine."""

    name = "solver"
    verbose_name = "Solver"
