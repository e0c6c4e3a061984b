"""Services: every function that changes game state (``<noun>_<verb>``, keyword-only)."""
