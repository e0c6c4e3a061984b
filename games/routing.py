"""Websocket routes, mounted by boggle_site/asgi.py."""

from django.urls import URLPattern, path

from games.arena_consumer import ArenaConsumer
from games.consumers import RoomConsumer
from games.spectator_consumer import SpectatorConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/rooms/<str:code>/", RoomConsumer.as_asgi()),
    path("ws/arena/<str:slug>/", ArenaConsumer.as_asgi()),
    path("ws/rooms/<str:code>/watch/", SpectatorConsumer.as_asgi()),
]
