"""The admin of dictionaries, dice sets and definitions, and of the board lab's searches,
records and proofs (staff only, like all of /admin/)."""

from solver.admin.dice_sets import DiceSetAdmin
from solver.admin.dictionaries import DictionaryAdmin
from solver.boardlab.admin.proofs import BoardProofAdmin
from solver.boardlab.admin.records import BoardRecordAdmin
from solver.boardlab.admin.runs import BoardSearchRunAdmin
from solver.definitions.admin import DefinitionSourceAdmin

__all__ = [
    "BoardProofAdmin",
    "BoardRecordAdmin",
    "BoardSearchRunAdmin",
    "DefinitionSourceAdmin",
    "DiceSetAdmin",
    "DictionaryAdmin",
]
