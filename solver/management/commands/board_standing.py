"""`manage.py board_standing --dice SLUG`: the scores and word counts of random boards."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from solver import cli
from solver.boardlab.boards import (
    STANDING_SEED,
    UnknownDiceSet,
    board_standing,
    dice_set_by_slug,
    standing_samples,
)
from solver.engine.rules import ADJACENCIES, SCORINGS, Rules
from solver.engine.standing import BANDS, NO_MAXIMUM, Standing, standing_compute
from solver.models import Dictionary

SHOWN = (0, 1, 5, 10, 25, 35, 50, 70, 75, 90, 95, 99, 99.9, 100)


class Command(BaseCommand):
    help = (
        "Compute (or read) and store the distribution of scores and word counts over random "
        "boards of a dice set and dictionary, and print its quantiles and the bands."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dice", default="new16", help="a dice set's slug (default new16)")
        cli.add_dictionary_option(parser)
        parser.add_argument("--size", default="", metavar="ROWSxCOLS", help="e.g. 5x5")
        parser.add_argument("--min-length", type=cli.positive_int, default=None, metavar="N")
        parser.add_argument("--scoring", choices=SCORINGS, default=None)
        parser.add_argument("--adjacency", choices=ADJACENCIES, default="king")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            dice_set = dice_set_by_slug(options["dice"])
        except UnknownDiceSet as exc:
            raise CommandError(str(exc), returncode=cli.BAD_INPUT) from None
        rows, cols = _size(options["size"], dice_set.rows, dice_set.cols)
        if not dice_set.uses_frequencies and (rows, cols) != (dice_set.rows, dice_set.cols):
            raise CommandError(
                f"{dice_set.name} has dice for a {dice_set.rows}×{dice_set.cols} board, "
                f"not {rows}×{cols}",
                returncode=cli.BAD_INPUT,
            )
        rules = Rules(
            min_length=options["min_length"] or dice_set.min_length,
            adjacency=options["adjacency"],
            scoring=options["scoring"] or dice_set.scoring,  # type: ignore[arg-type]
        )
        loaded = cli.dictionary_from(options["dictionary"])
        started = time.perf_counter()
        standing, where = self._standing(loaded.name, dice_set, rows, cols, rules)
        if standing is None:
            standing = standing_compute(
                loaded.trie,
                rules,
                rows,
                cols,
                sorted({f for die in dice_set.engine_dice().dice for f in die}),
                dice_set.engine_dice().roll,
                samples=standing_samples(rows, cols),
                seed=STANDING_SEED,
            )
        seconds = time.perf_counter() - started
        self._print(standing, f"{dice_set.name} {rows}×{cols}, {loaded.name}", rules)
        self.stdout.write(f"{where} in {seconds:.2f} s")

    def _standing(
        self, name: str, dice_set: Any, rows: int, cols: int, rules: Rules
    ) -> tuple[Standing | None, str]:
        """Return the stored (or newly stored) standing, or None when there is no database."""
        try:
            dictionary = Dictionary.objects.filter(slug=name).first()
        except DatabaseError:
            dictionary = None
        if dictionary is None or dice_set.pk is None:
            if dice_set.uses_frequencies:
                raise CommandError(
                    "a letter-frequency set needs the database", returncode=cli.BAD_INPUT
                )
            return None, "computed (not stored: the dictionary or dice set is not in the database)"
        standing = board_standing(
            dictionary=dictionary, dice_set=dice_set, rows=rows, cols=cols, rules=rules
        )
        return standing, "read or computed, and stored"

    def _print(self, standing: Standing, kind: str, rules: Rules) -> None:
        out = self.stdout.write
        out(
            f"{kind}, min length {rules.min_length}, {rules.scoring} scoring, {rules.adjacency} "
            f"adjacency: {standing.samples:,} boards from seed {standing.seed}"
        )
        out(f"{'percentile':>10} {'points':>7} {'words':>6}")
        for p in SHOWN:
            out(f"{p:>10g} {standing.score_at(p):>7,} {standing.words_at(p):>6,}")
        for name, (low, high) in BANDS.items():
            lowest, highest = standing.band_range(name)
            top = "and more" if highest == NO_MAXIMUM else f"to {highest:,}"
            out(f"band {name:<9} percentiles {low:g}–{high:g}: {lowest:,} {top} points")


def _size(text: str, rows: int, cols: int) -> tuple[int, int]:
    """Return the size written as ROWSxCOLS, or the dice set's own."""
    if not text:
        return rows, cols
    parts = text.lower().replace("×", "x").split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise CommandError(f"--size {text!r} is not like 5x5", returncode=cli.BAD_INPUT)
    size = int(parts[0]), int(parts[1])
    if min(size) < 1:
        raise CommandError(f"--size {text}: a board needs at least 1×1", returncode=cli.BAD_INPUT)
    return size
