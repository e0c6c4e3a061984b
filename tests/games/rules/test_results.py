"""Scoring a round: the Hasbro rule strikes shared words; the solution shows who found what."""

from __future__ import annotations

from games.rules.scoring import Found, round_results
from solver.engine.commonness import commonness_label

SOLUTION = [
    ["CAT", [0, 1, 2], 1],
    ["CATS", [0, 1, 2, 3], 1],
    ["SCAT", [3, 0, 1, 2], 1],
    ["ACTS", [1, 0, 2, 3], 1],
]


def found(pid: int, word: str) -> Found:
    path, points = next((p, pts) for w, p, pts in SOLUTION if w == word)
    return Found(pid, word, path, points)


def test_words_found_by_two_or_more_of_three_players_score_for_nobody() -> None:
    results = round_results(
        solution=SOLUTION,
        found=[
            found(1, "CAT"),
            found(2, "CAT"),
            found(3, "CAT"),
            found(1, "CATS"),
            found(2, "SCAT"),
            found(3, "SCAT"),
        ],
        players={1: "Ann", 2: "Bob", 3: "Cy"},
        cancel_duplicates=True,
    )
    by_id = {row["id"]: row for row in results["players"]}
    assert by_id[1]["score"] == 1 and by_id[2]["score"] == 0 and by_id[3]["score"] == 0
    assert [w["struck"] for w in by_id[1]["words"]] == [True, False]  # CAT, CATS
    assert all(w["struck"] for w in by_id[2]["words"])
    assert results["players"][0]["id"] == 1  # ordered by score
    cat = next(w for w in results["solution"] if w["word"] == "CAT")
    assert cat["found_by"] == [1, 2, 3]
    assert results["missed"] == ["ACTS"]
    assert results["max_score"] == 4


def test_with_the_count_rule_every_word_scores() -> None:
    results = round_results(
        solution=SOLUTION,
        found=[found(1, "CAT"), found(2, "CAT")],
        players={1: "Ann", 2: "Bob"},
        cancel_duplicates=False,
    )
    assert [row["score"] for row in results["players"]] == [1, 1]
    assert not any(w["struck"] for row in results["players"] for w in row["words"])


def test_players_without_words_are_listed_with_zero() -> None:
    results = round_results(solution=SOLUTION, found=[], players={1: "Ann"}, cancel_duplicates=True)
    assert results["players"] == [{"id": 1, "nickname": "Ann", "words": [], "score": 0}]
    assert len(results["missed"]) == 4


def test_every_word_found_struck_missed_or_the_computers_carries_its_commonness() -> None:
    figures = {"CAT": 4.78, "CATS": 3.9, "SCAT": 2.1, "ACTS": 0.4}
    results = round_results(
        solution=SOLUTION,
        found=[found(1, "CAT"), found(2, "CAT"), found(1, "CATS")],
        players={1: "Ann", 2: "Bob"},
        cancel_duplicates=True,
        commonness=figures.__getitem__,
        computer_takes_rest=True,
    )
    by_id = {row["id"]: row for row in results["players"]}
    ann = {w["word"]: (w["struck"], w["zipf"], w["commonness"]) for w in by_id[1]["words"]}
    assert ann == {"CAT": (True, 4.78, "everyday"), "CATS": (False, 3.9, "common")}
    labels = {w["word"]: (w["zipf"], w["commonness"]) for w in results["solution"]}
    assert labels == {
        "CAT": (4.78, "everyday"),
        "CATS": (3.9, "common"),
        "SCAT": (2.1, "uncommon"),
        "ACTS": (0.4, "rare"),
    }
    assert results["missed"] == ["SCAT", "ACTS"]  # most common first
    computer = {w["word"]: w["commonness"] for w in results["computer"]["words"]}
    assert computer == {"ACTS": "rare", "SCAT": "uncommon"}


def test_the_labels_change_at_their_documented_zipf_figures() -> None:
    edges = [(7.7, "everyday"), (4.5, "everyday"), (4.49, "common"), (3.0, "common")]
    edges += [(2.99, "uncommon"), (1.5, "uncommon"), (1.49, "rare"), (0.0, "rare")]
    assert [commonness_label(z) for z, _ in edges] == [label for _, label in edges]
