"""The arena: a public game on a schedule, its seats, live top 10 and results per player."""
