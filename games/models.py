"""Game models (rooms, players, rounds, submissions) arrive with the game-server work."""
