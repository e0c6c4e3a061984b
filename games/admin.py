"""The game's admin pages, one module per feature: word reports, arenas, room chats and daily
attempts."""

from games.arena import admin as arena_admin
from games.chat import admin as chat_admin
from games.daily import admin as daily_admin
from games.reports import admin as reports_admin

__all__ = ["arena_admin", "chat_admin", "daily_admin", "reports_admin"]
