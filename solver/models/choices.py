"""Choices shared by the solver's models: the scoring presets, the English alphabet."""

from __future__ import annotations

from solver.engine.rules import SCORINGS

SCORING_CHOICES = [(s, s) for s in SCORINGS]


ENGLISH_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
