"""Definitions of a dictionary's words: the shipped WordNet and GCIDE glossaries, uploaded
sources, and their coverage."""
