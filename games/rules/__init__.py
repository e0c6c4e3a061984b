"""Pure rules as values, no database: a round's clock, room settings and presets, scoring a
finished round, what a nickname reads as."""
