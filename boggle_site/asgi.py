"""ASGI entry point: Django for HTTP, Channels for websockets."""

import gc
import os

from boggle_site.http_threads import kept_threads_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "boggle_site.settings")

# Set up Django before importing anything that touches models (auth, game routes). Django's
# own handler, but for the threads its requests' synchronous code runs in (http_threads).
django_asgi_app = kept_threads_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.routing import websocket_application  # noqa: E402
from games.sweeper import SweepOnFirstRequest, sweeper_start_with_server  # noqa: E402

application = SweepOnFirstRequest(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": AllowedHostsOriginValidator(websocket_application()),
        }
    )
)
# The sweep starts with daphne's reactor (and, under any other server, on the first request).
sweeper_start_with_server()

# Everything loaded so far (Django, the apps, the URL and template machinery) lives as long
# as the process: keep it out of the garbage collector's full scans, which otherwise stall
# every socket of a busy worker for a noticeable moment. The collector's pauses are the
# sockets' pauses, so they are kept short: a young generation of 10,000 (about 15 ms at most
# to collect in `make bench-daily`'s rush) and a middle one collected every second young
# collection (under 60 ms; with Python's 10 it took 200 ms and more), the full collections as
# rare as before (every 2 million net allocations, and only after the heap grew by a quarter).
gc.freeze()
gc.set_threshold(10_000, 2, 100)
