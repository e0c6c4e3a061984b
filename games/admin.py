"""The game's admin pages, one module per feature: word reports, arenas and room chats."""

from games.arena import admin as arena_admin
from games.chat import admin as chat_admin
from games.reports import admin as reports_admin

__all__ = ["arena_admin", "chat_admin", "reports_admin"]
