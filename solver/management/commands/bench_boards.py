"""`manage.py bench_boards`: the board search against the published figures (issue 12, §5).

Figures, not a pass/fail test: time to reach a known score over several seeds (median),
the best board of a few timed runs, the lowest-scoring board, exact targets. The last line
printed is one JSON object with every figure.
"""

from __future__ import annotations

import json
import math
import resource
import statistics
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from solver import cli
from solver.engine.boardsearch import (
    DEFAULT_METHOD,
    METHODS,
    Objective,
    SearchLimits,
    SearchResult,
    SearchSpec,
    search,
)
from solver.engine.dice import DICE_SETS
from solver.engine.rules import Rules

SECTIONS = ("hasbro", "free4", "free5", "min", "targets")
HASBRO_BEST = 4540  # new16 dice, YAWL, classic rules: Robert McAnany's board
FREE4_OPTIMUM = 3625  # free 4×4, ENABLE2K: proven optimum (danvk, 2025)
FREE5_BEST = 10406  # free 5×5, ENABLE2K: best known (danvk, hill climbing)
TARGETS = (2500, 3000, 3500, 4000)


class Command(BaseCommand):
    help = "Board search figures (time to known best scores, targets); last line is JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--only",
            default=",".join(SECTIONS),
            help=f"comma-separated sections among {', '.join(SECTIONS)} (default: all)",
        )
        parser.add_argument("--seeds", type=cli.positive_int, default=10, help="seeds per goal")
        parser.add_argument("--first-seed", type=int, default=1)
        parser.add_argument(
            "--max-seconds",
            type=cli.positive_int,
            default=300,
            help="give up on a seed after this long (default 300)",
        )
        parser.add_argument("--free5-runs", type=cli.positive_int, default=10)
        parser.add_argument("--free5-minutes", type=float, default=10.0)
        parser.add_argument("--min-seconds", type=cli.positive_int, default=60)
        parser.add_argument("--jobs", type=cli.positive_int, default=1, help="processes per run")
        parser.add_argument(
            "--cpu-time",
            action="store_true",
            help="count every cap and time in each job's own CPU seconds, not wall seconds: "
            "figures that a loaded machine does not change (on an idle machine with a core "
            "per job the two agree)",
        )
        parser.add_argument("--method", choices=METHODS, default=DEFAULT_METHOD)
        parser.add_argument("--yawl", default="yawl", metavar="NAME_OR_PATH")
        parser.add_argument(
            "--enable2k",
            default="enable2k",
            metavar="NAME_OR_PATH",
            help="ENABLE2K (the shipped copy is the same 173,528 words as the data folder's)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        wanted = [s.strip() for s in options["only"].split(",") if s.strip()]
        unknown = sorted(set(wanted) - set(SECTIONS))
        if unknown:
            raise CommandError(
                f"unknown section {', '.join(unknown)}: use {', '.join(SECTIONS)}",
                returncode=cli.BAD_INPUT,
            )
        self.options = options
        figures: dict[str, Any] = {
            "method": options["method"],
            "jobs": options["jobs"],
            "clock": "cpu" if options["cpu_time"] else "wall",
        }
        seeds = range(options["first_seed"], options["first_seed"] + options["seeds"])
        if "hasbro" in wanted:
            spec = self._spec("yawl", Objective("max-score"), dice="new16")
            figures["hasbro"] = self._time_to(spec, HASBRO_BEST, seeds, "new16 dice, YAWL")
        if "free4" in wanted:
            spec = self._spec("enable2k", Objective("max-score"), size=4)
            figures["free4"] = self._time_to(spec, FREE4_OPTIMUM, seeds, "free 4×4, ENABLE2K")
        if "free5" in wanted:
            figures["free5"] = self._free5()
        if "min" in wanted:
            figures["min"] = self._lowest()
        if "targets" in wanted:
            figures["targets"] = self._targets(seeds)
        self.stdout.write(json.dumps(figures))

    # Sections --------------------------------------------------------------------------

    def _spec(
        self, dictionary: str, objective: Objective, *, dice: str = "", size: int = 0
    ) -> SearchSpec:
        loaded = cli.dictionary_from(self.options[dictionary])
        method = self.options["method"]
        if dice:
            return SearchSpec(loaded.trie, Rules(), objective, DICE_SETS[dice], method=method)
        return SearchSpec(loaded.trie, Rules(), objective, rows=size, cols=size, method=method)

    def _run(self, spec: SearchSpec, seed: int, seconds: float, goal: int | None) -> SearchResult:
        jobs = self.options["jobs"]
        if self.options["cpu_time"]:
            limits = SearchLimits(seed, jobs=jobs, cpu_seconds=seconds, goal=goal, keep=1)
        else:
            limits = SearchLimits(seed, jobs=jobs, seconds=seconds, goal=goal, keep=1)
        cpu = _cpu_s()
        result = search(spec, limits)
        self.cpu_s = _cpu_s() - cpu  # this process and its finished job processes
        return result

    def _reached(self, result: SearchResult) -> float | None:
        """Return when the goal was first reached, by the clock the caps are counted in."""
        if self.options["cpu_time"]:
            return result.first_goal_cpu_s
        return result.first_goal_s

    def _time_to(self, spec: SearchSpec, goal: int, seeds: range, what: str) -> dict[str, Any]:
        """Time for each seed to first reach the goal score, and the median."""
        cap = self.options["max_seconds"]
        clock = "CPU s of each job" if self.options["cpu_time"] else "s"
        self.stdout.write(f"{what}: time to reach {goal:,} (cap {cap} {clock} per seed)")
        times: list[float] = []
        cpus: list[float] = []
        rows = []
        for seed in seeds:
            result = self._run(spec, seed, cap, goal)
            reached = self._reached(result)
            times.append(reached if reached is not None else math.inf)
            cpus.append(self.cpu_s if reached is not None else math.inf)
            best = result.best
            when = f"{reached:7.1f} s" if reached is not None else f"  > {cap} s"
            self.stdout.write(
                f"  seed {seed:3}: {when} (cpu of all jobs {self.cpu_s:6.1f} s, wall "
                f"{result.elapsed:6.1f} s)  best {best.score:,} {best.board.to_rows()}  "
                f"{result.boards:,} boards, {result.boards / result.elapsed:,.0f}/s"
            )
            rows.append(
                {
                    "seed": seed,
                    "seconds": reached,
                    "wall_s": round(result.elapsed, 2),
                    "cpu_s": round(self.cpu_s, 2),
                    "boards": result.boards,
                    "best": best.score,
                }
            )
        median, cpu = statistics.median(times), statistics.median(cpus)
        hit = sum(t != math.inf for t in times)
        self.stdout.write(
            f"  median {_seconds(median)} (cpu {_seconds(cpu)}); reached by {hit} of "
            f"{len(times)} seeds within {cap} s each"
        )
        return {
            "goal": goal,
            "median_s": None if median == math.inf else round(median, 2),
            "median_cpu_s": None if cpu == math.inf else round(cpu, 2),
            "reached": hit,
            "runs": rows,
        }

    def _free5(self) -> dict[str, Any]:
        """The best free 5×5 ENABLE2K board of a few timed runs."""
        runs, minutes = self.options["free5_runs"], self.options["free5_minutes"]
        spec = self._spec("enable2k", Objective("max-score"), size=5)
        clock = " of CPU per job" if self.options["cpu_time"] else ""
        self.stdout.write(f"free 5×5, ENABLE2K: best of {runs} runs of {minutes:g} min{clock}")
        scores = []
        best_rows, best = "", -1
        for seed in range(self.options["first_seed"], self.options["first_seed"] + runs):
            result = self._run(spec, seed, minutes * 60, FREE5_BEST)
            found = result.best
            scores.append(found.score)
            self.stdout.write(
                f"  seed {seed:3}: {found.score:,} {found.board.to_rows()} "
                f"({result.boards:,} boards, {result.elapsed:.0f} s wall, cpu {self.cpu_s:.0f} s)"
            )
            if found.score > best:
                best, best_rows = found.score, found.board.to_rows()
        self.stdout.write(f"  best {best:,} {best_rows} (best known {FREE5_BEST:,})")
        return {"runs": runs, "minutes": minutes, "best": best, "board": best_rows, "all": scores}

    def _lowest(self) -> dict[str, Any]:
        """The lowest-scoring new16 board with YAWL."""
        seconds = self.options["min_seconds"]
        spec = self._spec("yawl", Objective("min-score"), dice="new16")
        result = self._run(spec, self.options["first_seed"], seconds, None)
        found = result.best
        self.stdout.write(
            f"lowest new16 / YAWL board: {found.score} points, {found.words} words, "
            f"{found.board.to_rows()} ({result.elapsed:.1f} s, ended by {result.reason})"
        )
        return {"score": found.score, "words": found.words, "board": found.board.to_rows()}

    def _targets(self, seeds: range) -> dict[str, Any]:
        """Time to hit each exact target with new16 dice and YAWL."""
        cap = self.options["max_seconds"]
        out = {}
        for target in TARGETS:
            spec = self._spec("yawl", Objective("target", target), dice="new16")
            result = self._run(spec, seeds[0], cap, None)  # a hit target ends the run
            found = result.best
            hit = found.score == target
            self.stdout.write(
                f"target {target:,}: {'hit' if hit else 'missed'} in {result.elapsed:.1f} s, "
                f"{found.score:,} {found.board.to_rows()}"
            )
            out[str(target)] = {
                "hit": hit,
                "seconds": round(result.elapsed, 2),
                "board": found.board.to_rows(),
            }
        return out


def _cpu_s() -> float:
    """Return the CPU seconds of this process and of its children that have ended."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _seconds(value: float) -> str:
    """Return a median time, or say that half the seeds or more never got there."""
    return f"{value:.1f} s" if value != math.inf else "not reached"
