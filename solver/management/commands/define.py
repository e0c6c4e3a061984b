"""`manage.py define WORD`: a word's base form and senses, offline (exit 1 when there are none)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from solver import cli
from solver.definitions.selectors import dictionary_language, word_define
from solver.engine.lexicon import Status
from solver.engine.wordlist import normalise_word

NOT_FOUND = 1  # a word without a definition, or not in the dictionary asked for
NO_WORD = "give a word to define"
NOT_LETTERS = "{word!r} is not a word: use letters only"
NOT_IN_DICTIONARY = "{word} is not in the dictionary {name}"
NO_DEFINITION = "{word}: no definition found"


class Command(BaseCommand):
    help = "Print the base form a word is defined under and its senses; exit 1 if none."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("word", help="the word to define, e.g. QUASHED")
        cli.add_dictionary_option(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        word = normalise_word(options["word"].strip())
        if not word:
            raise CommandError(NO_WORD, returncode=cli.BAD_INPUT)
        if not word.isalpha():
            raise CommandError(NOT_LETTERS.format(word=options["word"]), returncode=cli.BAD_INPUT)
        name = options["dictionary"]
        if name is not None:
            dictionary = cli.dictionary_from(name)
            if dictionary.trie.status(word) is not Status.WORD:
                raise CommandError(
                    NOT_IN_DICTIONARY.format(word=word, name=dictionary.name), returncode=NOT_FOUND
                )
        definition = word_define(word=word, language=dictionary_language(name))
        if definition is None:
            raise CommandError(NO_DEFINITION.format(word=word), returncode=NOT_FOUND)
        for line in definition.lines():
            self.stdout.write(line)
