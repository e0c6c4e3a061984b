"""Watching a room through its watch link: the spectators' socket and their cap."""
