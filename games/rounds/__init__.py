"""Rounds: starting one (draw, solve, store, announce), judging and storing submitted words,
hints, and ending a round exactly once; reading rounds."""
