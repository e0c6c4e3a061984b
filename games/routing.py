"""Websocket routes, mounted by boggle_site/asgi.py."""

from typing import Any

from channels.routing import URLRouter
from channels.sessions import CookieMiddleware
from django.urls import URLPattern, path

from games.arena.consumer import ArenaConsumer
from games.rooms.consumer import RoomConsumer
from games.spectators.consumer import SpectatorConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/rooms/<str:code>/", RoomConsumer.as_asgi()),
    path("ws/arena/<str:slug>/", ArenaConsumer.as_asgi()),
    path("ws/rooms/<str:code>/watch/", SpectatorConsumer.as_asgi()),
]


def websocket_application() -> Any:
    """The routes behind the one middleware they need: the handshake's cookies in the scope.
    The consumers find the player (and a logged-in account) from those cookies in their
    database thread (games.identity.scope_identity), so no session or user object rides
    along in each socket's scope for its life, as Channels' AuthMiddlewareStack would keep."""
    return CookieMiddleware(URLRouter(websocket_urlpatterns))
