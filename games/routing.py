"""Websocket routes, mounted by boggle_site/asgi.py."""

from django.urls import URLPattern, path

from games.consumers import RoomConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/rooms/<str:code>/", RoomConsumer.as_asgi()),
]
