from django.apps import AppConfig


class OpsConfig(AppConfig):
    """Operations tooling: the load benchmarks and the workers of `make cluster`."""

    name = "boggle_site.ops"
    label = "ops"
    verbose_name = "Operations"
