"""The admin of board records and board searches."""
