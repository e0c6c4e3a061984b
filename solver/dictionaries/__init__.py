"""Dictionaries and dice sets as data: the models' services and selectors, the shipped lists,
uploads, and the per-process cache of compiled dictionaries."""
