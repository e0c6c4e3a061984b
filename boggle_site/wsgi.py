"""WSGI entry point: gunicorn serves pages, JSON and the admin from it in production (nginx in
front sends it everything but `/ws/`, which daphne serves: docs/operations.md)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "boggle_site.settings")

application = get_wsgi_application()
