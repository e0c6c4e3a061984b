"""The solver's data, one module per subject: dictionaries and their word changes, dice sets,
the board lab's searches, records and standings, and definition sources. Every model is
importable from here."""

from solver.models.boardlab import (
    BoardKindFields,
    BoardObjective,
    BoardProof,
    BoardRecord,
    BoardSearchRun,
    BoardSpace,
    BoardStanding,
)
from solver.models.choices import ENGLISH_ALPHABET, SCORING_CHOICES
from solver.models.definitions import DefinitionSource, DefinitionSourceManager
from solver.models.dice import DiceSet
from solver.models.dictionaries import Dictionary, DictionaryManager, DictionaryWord

__all__ = [
    "ENGLISH_ALPHABET",
    "SCORING_CHOICES",
    "BoardKindFields",
    "BoardObjective",
    "BoardProof",
    "BoardRecord",
    "BoardSearchRun",
    "BoardSpace",
    "BoardStanding",
    "DefinitionSource",
    "DefinitionSourceManager",
    "DiceSet",
    "Dictionary",
    "DictionaryManager",
    "DictionaryWord",
]
