"""Websocket routes, mounted by boggle_site/asgi.py."""

from django.urls import URLPattern

# The game consumer's route is added by the game-server work.
websocket_urlpatterns: list[URLPattern] = []
