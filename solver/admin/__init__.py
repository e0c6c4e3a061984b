"""The admin of dictionaries, dice sets and definitions, and of the board lab's searches and
records (staff only, like all of /admin/)."""

from solver.admin.board_records import BoardRecordAdmin
from solver.admin.board_runs import BoardSearchRunAdmin
from solver.admin.definitions import DefinitionSourceAdmin
from solver.admin.dice_sets import DiceSetAdmin
from solver.admin.dictionaries import DictionaryAdmin

__all__ = [
    "BoardRecordAdmin",
    "BoardSearchRunAdmin",
    "DefinitionSourceAdmin",
    "DiceSetAdmin",
    "DictionaryAdmin",
]
