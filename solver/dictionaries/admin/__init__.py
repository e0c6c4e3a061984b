"""The admin of dictionaries and dice sets."""
