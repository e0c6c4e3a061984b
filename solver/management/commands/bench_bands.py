"""`manage.py bench_bands`: what drawing a board to a difficulty band costs (figures only)."""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from django.core.management.base import CommandError, CommandParser

from solver import cli
from solver.boardlab import boards
from solver.dictionaries.selectors import dictionary_trie
from solver.engine.reachability import unreachable_words
from solver.engine.rules import Rules
from solver.engine.standing import BANDS, standing_compute
from solver.models import DiceSet, Dictionary

# The kinds of board measured: dice set, size, rules (5×5 plays with words of 4 letters up).
CASES = (("new16", Rules()), ("big25", Rules(min_length=4)))
TARGET_MS = 50


class Command(cli.DatabaseCommand):
    help = (
        "Print, for every named band on 4×4 (new16) and 5×5 (big25), the median time "
        "board_draw adds to starting a round once the standing is cached; the standing's "
        "computation time; and the count of words no new16 board can hold. Not pass/fail."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dictionary", default="yawl", help="a dictionary's slug")
        parser.add_argument("--seeds", type=cli.positive_int, default=200, metavar="N")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            dictionary = Dictionary.objects.get(slug=options["dictionary"])
            dice_sets = {d.slug: d for d in DiceSet.objects.filter(slug__in=[c for c, _ in CASES])}
        except Dictionary.DoesNotExist:
            raise CommandError(
                f"no dictionary {options['dictionary']!r}: run `manage.py load_dictionaries`",
                returncode=cli.BAD_INPUT,
            ) from None
        out = self.stdout.write
        out(f"board_draw with {dictionary.name}, {options['seeds']} seeds per band, medians")
        for slug, rules in CASES:
            if slug not in dice_sets:
                raise CommandError(f"no dice set {slug!r}: run `manage.py load_dictionaries`")
            self._case(dictionary, dice_sets[slug], rules, options["seeds"])
        self._unreachable(dictionary, dice_sets["new16"])

    def _case(self, dictionary: Dictionary, dice_set: DiceSet, rules: Rules, seeds: int) -> None:
        out = self.stdout.write
        rows, cols = dice_set.rows, dice_set.cols
        trie = dictionary_trie(dictionary)
        started, cpu = time.perf_counter(), time.process_time()
        standing_compute(
            trie,
            rules,
            rows,
            cols,
            boards.board_faces(dice_set),
            boards.board_drawer(dice_set, rows, cols),
            samples=boards.standing_samples(rows, cols),
            seed=boards.STANDING_SEED,
        )
        compute_s, compute_cpu = time.perf_counter() - started, time.process_time() - cpu
        standing = boards.board_standing(  # cached from here on
            dictionary=dictionary, dice_set=dice_set, rows=rows, cols=cols, rules=rules
        )
        out(
            f"\n{dice_set.name}, {rows}×{cols}, min length {rules.min_length}: standing of "
            f"{standing.samples:,} boards computed in {compute_s:.2f} s "
            f"({compute_cpu:.2f} s of CPU)"
        )

        def median_ms(band: str, min_words: int = 0) -> tuple[float, float, float]:
            times, tries = [], 0
            for seed in range(seeds):
                rng = random.Random(seed)
                began = time.perf_counter()
                drawn = boards.board_draw(
                    dictionary=dictionary,
                    dice_set=dice_set,
                    rows=rows,
                    cols=cols,
                    rules=rules,
                    rng=rng,
                    band=band,
                    min_words=min_words,
                )
                times.append(time.perf_counter() - began)
                tries += drawn.tries
            times.sort()
            p90 = times[int(0.9 * (len(times) - 1))]
            return 1000 * statistics.median(times), 1000 * p90, tries / seeds

        plain, _, _ = median_ms("")
        out(f"  any board (one roll and solve): {plain:6.2f} ms")
        rich_words = standing.words_at(90)
        for band, min_words in [*((b, 0) for b in BANDS), ("", rich_words)]:
            median, p90, tries = median_ms(band, min_words)
            label = band or f"≥{rich_words} words"
            verdict = "under" if median - plain < TARGET_MS else "OVER"
            out(
                f"  {label:<14} median {median:6.2f} ms, adds {median - plain:6.2f} ms "
                f"({verdict} the {TARGET_MS} ms target); 90th percentile {p90:6.2f} ms; "
                f"{tries:5.1f} boards rolled on average"
            )

    def _unreachable(self, dictionary: Dictionary, new16: DiceSet) -> None:
        trie = dictionary_trie(dictionary)
        started = time.perf_counter()
        found = unreachable_words(trie, new16.engine_dice())
        seconds = time.perf_counter() - started
        self.stdout.write(
            f"\nwords of {dictionary.name} on no {new16.name} board: {found.count:,} of "
            f"{found.checked:,} (found in {seconds:.2f} s)"
        )
