"""The board lab: board standings and difficulty bands, feasibility for games, board searches
run as processes, and their records."""
