"""WhiteNoise, able to sit in an asynchronous middleware chain.

WhiteNoise's middleware is synchronous only. Under daphne one synchronous middleware makes
Django run the whole chain below it, views included, in the single thread it keeps for
synchronous code, so every request of a worker waited for the one before it: 33 daily
starts a second queued for minutes behind each other's database round trips
(docs/daily.md). This middleware looks a static file up as WhiteNoise does (a dictionary
read when the files were scanned at start) and otherwise awaits the rest of the chain, so
an asynchronous view (the daily start) runs concurrently with the others.
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
