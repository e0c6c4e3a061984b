"""The home page: the forms to create a room or join one, and the ways in to the daily
boards and the arena."""
