"""Computer players: their levels, the words each plans to find, and playing them on time."""
