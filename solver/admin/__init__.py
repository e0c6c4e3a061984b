"""The admin of dictionaries and dice sets (staff only, like all of /admin/)."""

from solver.admin.definitions import DefinitionSourceAdmin
from solver.admin.dice_sets import DiceSetAdmin
from solver.admin.dictionaries import DictionaryAdmin

__all__ = ["DefinitionSourceAdmin", "DiceSetAdmin", "DictionaryAdmin"]
