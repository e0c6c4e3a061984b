"""What the admin's record pages read: the kinds of board that have records, the best
records of a kind, and the link that opens a room on a record's board."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from django.db.models import Count, Max, QuerySet
from django.urls import reverse

from solver.boardlab.boards import board_feasible
from solver.engine.board import Board, BoardError
from solver.engine.boardsearch import Objective
from solver.engine.faces import display_face
from solver.models import (
    BoardObjective,
    BoardRecord,
    BoardSpace,
    DiceSet,
    Dictionary,
)

BEST_PER_GROUP = 10


def board_grid(text: str) -> list[list[str]]:
    """Return a board (share code or rows) as rows of printed faces; [] if unreadable."""
    try:
        board = Board.parse(text)
    except (BoardError, ValueError):
        return []
    return [[display_face(face) for face in row] for row in board.grid()]


# Kinds and their records ---------------------------------------------------------------


VALUE_LABELS = {
    BoardObjective.MAX_SCORE: "Points",
    BoardObjective.MIN_SCORE: "Points",
    BoardObjective.MOST_WORDS: "Words",
    BoardObjective.MOST_LONG_WORDS: "Long words",
    BoardObjective.TARGET: "Off target by",
}


def objective_value_label(objective: str) -> str:
    """Return what a record's value measures under an objective, as a column heading."""
    return VALUE_LABELS.get(BoardObjective(objective), "Value")


@dataclass(frozen=True)
class RecordKind:
    """The records of one dictionary on one dice set, or on free faces of one size."""

    dictionary: Dictionary
    dice_set: DiceSet | None
    rows: int
    cols: int
    count: int = 0
    latest: datetime | None = None

    @property
    def space_label(self) -> str:
        """Return the dice set's name, or e.g. "free 5×5"."""
        return self.dice_set.name if self.dice_set else f"free {self.rows}×{self.cols}"

    @property
    def url(self) -> str:
        """Return the address of the kind's records page."""
        if self.dice_set is not None:
            args: list[Any] = [self.dictionary.slug, self.dice_set.slug]
            return reverse("admin:solver_boardrecord_best_dice", args=args)
        args = [self.dictionary.slug, self.rows, self.cols]
        return reverse("admin:solver_boardrecord_best_free", args=args)

    def records(self) -> QuerySet[BoardRecord]:
        """Return the kind's records, unordered."""
        records = BoardRecord.objects.filter(dictionary=self.dictionary)
        if self.dice_set is not None:
            return records.filter(space=BoardSpace.DICE, dice_set=self.dice_set)
        return records.filter(space=BoardSpace.FREE, rows=self.rows, cols=self.cols)


def board_record_kinds(
    *, dictionary_id: int | None = None, dice_set_id: int | None = None
) -> list[RecordKind]:
    """Return every kind of board that has records (optionally of one dictionary or dice
    set), by dictionary, then dice sets before free sizes."""
    records = BoardRecord.objects.all()
    if dictionary_id is not None:
        records = records.filter(dictionary_id=dictionary_id)
    if dice_set_id is not None:
        records = records.filter(dice_set_id=dice_set_id)
    groups = (
        records.values("dictionary", "space", "dice_set", "rows", "cols")
        .annotate(count=Count("id"), latest=Max("created_at"))
        .order_by()
    )
    folded: dict[tuple[int, int | None, int, int], dict[str, Any]] = {}
    for group in groups:
        dice = group["dice_set"] if group["space"] == BoardSpace.DICE else None
        rows, cols = (0, 0) if dice is not None else (group["rows"], group["cols"])
        key = (group["dictionary"], dice, rows, cols)
        total = folded.setdefault(key, {"count": 0, "latest": group["latest"]})
        total["count"] += group["count"]
        total["latest"] = max(total["latest"], group["latest"])
    dictionaries = Dictionary.objects.in_bulk({key[0] for key in folded})
    dice_sets = DiceSet.objects.in_bulk({key[1] for key in folded if key[1] is not None})
    kinds = []
    for (dictionary, dice, rows, cols), total in folded.items():
        dice_set = dice_sets[dice] if dice is not None else None
        if dice_set is not None:
            rows, cols = dice_set.rows, dice_set.cols
        kinds.append(RecordKind(dictionaries[dictionary], dice_set, rows, cols, **total))
    return sorted(
        kinds,
        key=lambda k: (k.dictionary.name, k.dice_set is None, k.rows, k.cols, k.space_label),
    )


@dataclass(frozen=True)
class RecordRow:
    """A record as a page shows it: drawn, with its room link, and whether it was found
    with the dictionary's current word list."""

    record: BoardRecord
    grid: list[list[str]]
    room_url: str | None
    current: bool

    @property
    def found_by_note(self) -> str:
        """Return who found the record, unless it only repeats the run's link text."""
        found_by = self.record.found_by
        return "" if found_by == f"search #{self.record.run_id}" else found_by


def board_record_rows(records: Iterable[BoardRecord]) -> list[RecordRow]:
    """Return the rows a page shows for these records (their dictionaries loaded)."""
    return [
        RecordRow(
            record,
            board_grid(record.board),
            board_record_room_url(record),
            record.dictionary_hash == record.dictionary.content_hash,
        )
        for record in records
    ]


@dataclass
class ObjectiveGroup:
    """The best records of a kind for one objective, parameter and set of rules."""

    objective: str
    parameter: int
    min_length: int
    adjacency: str
    scoring: str
    rows: list[RecordRow] = field(default_factory=list)
    total: int = 0

    @property
    def title(self) -> str:
        """Return e.g. "exact score 3,000" or "most words of 8+ letters"."""
        label = BoardObjective(self.objective).label
        if self.objective == BoardObjective.TARGET:
            return f"{label} {self.parameter:,}"
        if self.objective == BoardObjective.MOST_LONG_WORDS:
            return f"most words of {self.parameter}+ letters"
        return label

    @property
    def value_label(self) -> str:
        """Return what the group's values measure, e.g. "Off target by"."""
        return objective_value_label(self.objective)

    @property
    def rules(self) -> str:
        """Return the rules as one line, e.g. "words of 3+ letters, king moves, classic"."""
        return f"words of {self.min_length}+ letters, {self.adjacency} moves, {self.scoring}"


def record_rank(record: BoardRecord) -> tuple[int, datetime]:
    """Return a sort key putting the best record of its group first (earliest on a tie):
    the highest value, or the lowest for a lowest score and an exact score (its distance)."""
    lower = Objective(record.objective, max(record.parameter, 1)).lower_is_better
    return (record.value if lower else -record.value), record.created_at


def board_record_best(kind: RecordKind, per_group: int = BEST_PER_GROUP) -> list[ObjectiveGroup]:
    """Return the kind's best records, grouped by objective, parameter and rules."""
    found: dict[tuple[Any, ...], list[BoardRecord]] = {}
    for record in kind.records().select_related("dictionary", "dice_set", "proof"):
        key = (
            record.objective,
            record.parameter,
            record.min_length,
            record.adjacency,
            record.scoring,
        )
        found.setdefault(key, []).append(record)
    groups = [
        ObjectiveGroup(
            objective=key[0],
            parameter=key[1],
            min_length=key[2],
            adjacency=key[3],
            scoring=key[4],
            rows=board_record_rows(sorted(records, key=record_rank)[:per_group]),
            total=len(records),
        )
        for key, records in found.items()
    ]
    order = list(BoardObjective.values)
    return sorted(
        groups,
        key=lambda g: (order.index(g.objective), g.parameter, g.min_length, g.adjacency, g.scoring),
    )


def board_record_dice_set(record: BoardRecord) -> DiceSet | None:
    """Return the dice set a room plays this board with: the record's own, or for free
    faces an active letter-frequency set whose table holds every face (None if no set can
    draw it, e.g. a face no table has)."""
    if record.dice_set is not None:
        return record.dice_set
    board = Board.from_share_code(record.board)
    letter_sets = DiceSet.objects.filter(is_active=True).exclude(letter_frequencies={})
    return next((d for d in letter_sets if board_feasible(board=board, dice_set=d).ok), None)


def board_record_room_url(record: BoardRecord) -> str | None:
    """Return the home page address whose create-room form is filled in for this board, or
    None when no dice set of the game can draw it."""
    dice_set = board_record_dice_set(record)
    if dice_set is None:
        return None
    params: dict[str, Any] = {"board": record.board, "dice": dice_set.slug}
    params.update(
        dictionary=record.dictionary.slug,
        rows=record.rows,
        cols=record.cols,
        min_length=record.min_length,
        adjacency=record.adjacency,
        scoring=record.scoring,
    )
    return f"{reverse('home')}?{urlencode(params)}"
