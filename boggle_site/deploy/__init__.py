"""The production layout's configuration: gunicorn's settings and nginx's site, shared by the
documentation (docs/operations.md), `make cluster`, the benchmarks and the layout test."""
