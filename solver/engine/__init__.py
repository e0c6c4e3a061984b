"""The Boggle engine: boards, dice, rules, dictionaries and the word search.

Framework-free: nothing here imports Django, so the engine can be read, tested and
benchmarked on its own.
"""

from solver.engine.board import Board, BoardError
from solver.engine.dice import DICE_SETS, DiceSet, random_letter_board
from solver.engine.lexicon import SortedLexicon, Status
from solver.engine.rules import Rules
from solver.engine.search import Solution, Solver
from solver.engine.trie import Trie, build_trie
from solver.engine.wordlist import WordList, WordListError, parse_word_list

__all__ = [
    "DICE_SETS",
    "Board",
    "BoardError",
    "DiceSet",
    "Rules",
    "Solution",
    "Solver",
    "SortedLexicon",
    "Status",
    "Trie",
    "WordList",
    "WordListError",
    "build_trie",
    "parse_word_list",
    "random_letter_board",
]
