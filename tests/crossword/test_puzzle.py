"""The newspaper rules of a puzzle, each named with where it breaks."""

import pytest
from crossing.crossword.puzzle import InvalidPuzzle, Puzzle, problems_of

from tests.crossword.puzzles import MINI, TINY


def rules(puzzle):
    return [(p.rule, p.where) for p in problems_of(puzzle)]


def with_rows(rows, clues=None):
    return Puzzle.from_rows(rows, clues if clues is not None else MINI.clues)


def test_written_puzzles_keep_every_rule():
    assert problems_of(MINI) == []
    assert problems_of(TINY) == []


def test_blocks_must_match_turned_upside_down():
    found = rules(with_rows(["##SIR", "ASIDE", "NODES", "TREAT", "ITSA#"]))
    assert ("symmetry", "row 1, column 2") in found
    message = str(problems_of(with_rows(["##SIR", "ASIDE", "NODES", "TREAT", "ITSA#"]))[0])
    assert "row 5, column 4" in message


def test_every_white_square_is_in_an_across_and_a_down_word():
    puzzle = Puzzle.from_rows(["ABC", "#D#", "EFG"], {})
    messages = [str(p) for p in problems_of(puzzle)]
    assert "checked (row 1, column 1): white square is in no down word" in messages
    assert "checked (row 2, column 2): white square is in no across word" in messages


def test_no_word_shorter_than_three():
    puzzle = Puzzle.from_rows(["AB#", "CDE", "#FG"], {})
    assert ("length", "1 across") in rules(puzzle)


def test_white_squares_form_one_connected_area():
    rows = ["ABC#DEF", "GHI#JKL", "MNO#PQR"]
    found = rules(Puzzle.from_rows(rows, {}))
    assert ("connected", "row 1, column 5") in found


def test_no_answer_twice():
    # A symmetric word square repeats each answer across and down.
    puzzle = Puzzle.from_rows(["CAT", "AGE", "TEN"], {})
    found = rules(puzzle)
    assert ("repeat", "1 down") in found
    assert "CAT is also 1 across" in str(problems_of(puzzle))


def test_every_slot_needs_a_clue_and_every_clue_a_slot():
    clues = dict(TINY.clues)
    del clues["2d"]
    clues["9a"] = "Stray"
    found = rules(Puzzle.from_rows(TINY.rows(), clues))
    assert ("clued", "2 down") in found
    assert ("clued", "clue 9a") in found
    blank = dict(TINY.clues, **{"1a": "   "})
    assert ("clued", "1 across") in rules(Puzzle.from_rows(TINY.rows(), blank))


def test_solution_letters_and_shape():
    found = rules(Puzzle.from_rows(["WE1", "ARE", "RAN"], TINY.clues))
    assert found == [("shape", "row 1, column 3")]
    assert rules(Puzzle(3, 3, "WEDARE", TINY.clues))[0][0] == "shape"


def test_validate_raises_with_every_problem():
    with pytest.raises(InvalidPuzzle) as caught:
        Puzzle.from_rows(["CAT", "AGE", "TEN"], {}).validate()
    assert {p.rule for p in caught.value.problems} == {"repeat", "clued"}
    assert MINI.validate() is MINI
