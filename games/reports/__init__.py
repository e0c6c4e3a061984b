"""Word reports: a player questions a word of a finished round; the admin's queue decides."""
