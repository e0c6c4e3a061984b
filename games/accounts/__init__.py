"""Accounts: signing up with what a browser played, logging in and out, deleting an account,
and a player's record of finished rounds."""
