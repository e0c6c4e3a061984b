"""The admin of dictionaries, dice sets and definitions, and of the board lab's searches and
records (staff only, like all of /admin/)."""

from solver.boardlab.admin.records import BoardRecordAdmin
from solver.boardlab.admin.runs import BoardSearchRunAdmin
from solver.definitions.admin import DefinitionSourceAdmin
from solver.dictionaries.admin.dice_sets import DiceSetAdmin
from solver.dictionaries.admin.dictionaries import DictionaryAdmin

__all__ = [
    "BoardRecordAdmin",
    "BoardSearchRunAdmin",
    "DefinitionSourceAdmin",
    "DiceSetAdmin",
    "DictionaryAdmin",
]
