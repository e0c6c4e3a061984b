"""A room's chat: lines, mutes, an admin's deletions."""
