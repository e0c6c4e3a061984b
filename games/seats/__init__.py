"""Seats in a room: taking one and its nickname, presence (open sockets), giving it up, the
host role, and reading seats and how many watch."""
