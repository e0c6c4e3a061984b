"""WhiteNoise, able to sit in an asynchronous middleware chain.

WhiteNoise's middleware is synchronous only, and under daphne one synchronous middleware
makes Django run the chain below it in a thread of its own for each request, views
included: an asynchronous view (the daily start) then cannot keep its work in the database
threads with a bound on how many run at once, and every such thread holds a database
connection of its own. In a rush of 2,000 daily starts in a minute that ran PostgreSQL out
of connections: 1,546 starts were refused with "too many clients" (docs/daily.md, "Scale").
This middleware looks a static file up as WhiteNoise does (a dictionary read, or a look on
disk in DEBUG) and otherwise awaits the rest of the chain.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.http import HttpRequest, HttpResponseBase
from whitenoise.middleware import WhiteNoiseMiddleware  # type: ignore[import-untyped]


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    """WhiteNoise's middleware, sync and async capable (Django picks by the chain below)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Any = None, **kwargs: Any) -> None:
        super().__init__(get_response, **kwargs)
        self.async_mode = iscoroutinefunction(get_response)
        if self.async_mode:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.async_mode:
            return self.__acall__(request)
        return super().__call__(request)

    def static_file(self, request: HttpRequest) -> Any:
        """Return WhiteNoise's file for this request's path, or None."""
        if self.autorefresh:  # DEBUG: looked for on disk each time
            return self.find_file(request.path_info)
        return self.files.get(request.path_info)

    async def __acall__(self, request: HttpRequest) -> HttpResponseBase:
        if self.autorefresh:
            static_file = await sync_to_async(self.static_file, thread_sensitive=False)(request)
        else:
            static_file = self.static_file(request)
        if static_file is not None:  # opening the file touches the disk: not in the loop
            response: HttpResponseBase = await sync_to_async(self.serve, thread_sensitive=False)(
                static_file, request
            )
            return response
        response = await self.get_response(request)
        return response
