"""ASGI entry point: Django for HTTP, Channels for websockets.

In production daphne serves only `/ws/` (nginx sends it nothing else; pages and JSON go to
gunicorn through boggle_site/wsgi.py); `make run` serves both from this one application.
"""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "boggle_site.settings")

# Set up Django before importing anything that touches models (auth, game routes).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.routing import websocket_application  # noqa: E402
from games.sweeper import SweepOnFirstConnection  # noqa: E402

application = SweepOnFirstConnection(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": AllowedHostsOriginValidator(websocket_application()),
        }
    )
)

# Everything loaded so far (Django, the apps, the URL and template machinery) lives as long
# as the process: keep it out of the garbage collector's full scans, which otherwise stall
# every socket of a busy worker for a noticeable moment. The collector's pauses are the
# sockets' pauses, so they are kept short: a young generation of 10,000 and a middle one
# collected every second young collection, the full collections as rare as before
# (docs/benchmarks.md has what each cost).
gc.freeze()
gc.set_threshold(10_000, 2, 100)
