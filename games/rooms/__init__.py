"""Rooms: creating and joining one, its settings, its page, its websocket and the snapshot
it sends, and its timers in a worker."""
