"""`crossing solve` and solve_request: the JSON contract and one clear line for bad input."""

from __future__ import annotations

import json

import pytest
from crossing.cli import main
from crossing.game_files import shipped
from crossing.solver_request import read_request
from crossing.tiles.api import BadRequest, solve_request

EMPTY_ROWS = ["." * 15] * 15


def solve(request):
    """The request as the handler and the CLI make it: its shape checked, then solved
    with the shipped words and leaves."""
    return solve_request(read_request(request), shipped())


def rows_with(*placed: tuple[int, int, str]) -> list[str]:
    grid = [list(row) for row in EMPTY_ROWS]
    for row, col, word in placed:
        for i, letter in enumerate(word):
            grid[row - 1][col - 1 + i] = letter
    return ["".join(row) for row in grid]


def test_solve_request_answers_with_the_contract_keys():
    answer = solve({"rules": "crossplay", "rack": "quixote", "top": 3})
    assert len(answer["plays"]) == 3
    best = answer["plays"][0]
    assert set(best) == {
        "word",
        "row",
        "col",
        "direction",
        "score",
        "tiles_used",
        "leave",
        "equity",
        "breakdown",
    }
    # QUIXOTE empties the rack: nothing is kept, so equity is the score.
    assert (best["leave"], best["equity"]) == ("", 110)
    assert (best["word"], best["row"], best["col"], best["direction"]) == (
        "QUIXOTE",
        8,
        6,
        "across",
    )
    assert (best["score"], best["tiles_used"]) == (110, 7)
    assert set(best["breakdown"]) == {"words", "bonuses", "total"}
    assert best["breakdown"]["total"] == best["score"]
    scores = [p["score"] for p in answer["plays"]]
    assert scores == sorted(scores, reverse=True)


def test_custom_words_and_no_bonus():
    answer = solve(
        {"rules": "scrabble", "rack": "CAT", "words": ["cat", "at"], "bonus": False, "top": 50}
    )
    assert {p["word"] for p in answer["plays"]} == {"CAT", "AT"}
    assert max(p["score"] for p in answer["plays"]) == 5


def test_blank_letters_are_lower_case_in_the_word():
    answer = solve({"rules": "crossplay", "rack": "QUIXOT?", "top": 1})
    assert answer["plays"][0]["word"] == "QUIXOTe"
    squares = answer["plays"][0]["breakdown"]["words"][0]["squares"]
    assert squares[-1]["blank"]
    assert squares[-1]["value"] == 0


def test_plays_on_a_board():
    board = rows_with((8, 7, "CAT"))
    answer = solve({"rules": "duel", "rack": "S", "board": board, "top": 100})
    assert any(p["word"] == "CATS" for p in answer["plays"])


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ({"rules": "chess", "rack": "A"}, "'rules' must be one of crossplay, scrabble, wwf, duel"),
        ({"rules": "crossplay", "rack": "ABCDEFGH"}, "the rack has 8 tiles"),
        ({"rules": "crossplay", "rack": "AB1"}, "bad rack tile '1'"),
        ({"rules": "crossplay", "rack": ""}, "the rack is empty"),
        ({"rules": "crossplay", "rack": "????"}, "the rack has 4 blanks; crossplay has 3"),
        ({"rules": "duel", "rack": "A?"}, "the rack has 1 blank; duel has 0"),
        ({"rules": "crossplay", "rack": "A", "board": EMPTY_ROWS[:14]}, "15 rows"),
        ({"rules": "crossplay", "rack": "A", "top": 0}, "'top' must be a whole number"),
        ({"rules": "crossplay", "rack": "A", "bonus": "yes"}, "'bonus' must be true or false"),
        ({"rules": "crossplay", "rack": "A", "words": ["c4t"]}, "line 1"),
        ({"rules": "crossplay", "rack": "QZ", "board": rows_with((8, 7, "QZ"))}, "2 Q tiles"),
        ({"rules": "crossplay", "rack": "A", "board": rows_with((2, 2, "AT"))}, "centre"),
        (
            {"rules": "crossplay", "rack": "A", "board": rows_with((8, 7, "AT"), (2, 2, "AT"))},
            "not connected",
        ),
    ],
)
def test_bad_requests_say_what_is_wrong(request_, message):
    with pytest.raises(BadRequest, match=message):
        solve(request_)


def test_cli_table_and_json(tmp_path, capsys):
    assert main(["solve", "--rules", "crossplay", "--rack", "QUIXOTE", "--top", "2"]) == 0
    table = capsys.readouterr().out
    assert "QUIXOTE" in table
    assert "8,6 across" in table
    assert "sweep 40" in table
    board = tmp_path / "board.txt"
    board.write_text("\n".join(rows_with((8, 7, "CAt"))) + "\n")
    words = tmp_path / "words.txt"
    words.write_text("cat\ncats\nscat\n")
    argv = ["solve", "--rules", "scrabble", "--rack", "S", "--board", str(board)]
    assert main([*argv, "--words", str(words), "--json"]) == 0
    plays = json.loads(capsys.readouterr().out)["plays"]
    assert [(p["word"], p["row"], p["col"]) for p in plays] == [("SCAt", 8, 6), ("CAtS", 8, 7)]


@pytest.mark.parametrize(
    ("board_text", "rack", "message"),
    [
        ("." * 15 + "\n" * 3, "A", "board must have 15 rows"),
        ("\n".join(["." * 14] * 15), "A", "row 1 has 14 squares"),
        ("\n".join(["." * 14 + "#"] * 15), "A", "bad square '#'"),
        ("\n".join(rows_with((8, 8, "AA"))), "ABCDEFGH", "the rack has 8 tiles"),
        ("\n".join(rows_with((8, 4, "ZZ"))), "A", "2 Z tiles"),
    ],
)
def test_cli_bad_input_exits_non_zero_with_one_line(tmp_path, capsys, board_text, rack, message):
    board = tmp_path / "board.txt"
    board.write_text(board_text)
    code = main(["solve", "--rules", "crossplay", "--rack", rack, "--board", str(board)])
    err = capsys.readouterr().err
    assert code != 0
    assert err.count("\n") == 1
    assert message in err


@pytest.mark.parametrize("top", ["0", "many", "-3"])
def test_cli_bad_top(capsys, top):
    code = main(["solve", "--rules", "duel", "--rack", "A", "--top", top])
    err = capsys.readouterr().err
    assert code != 0
    assert err.count("\n") == 1
    assert "'top' must be a whole number from 1 to 1000" in err


def test_cli_missing_board_file(tmp_path, capsys):
    code = main(["solve", "--rules", "wwf", "--rack", "A", "--board", str(tmp_path / "no")])
    err = capsys.readouterr().err
    assert code != 0
    assert err.count("\n") == 1
    assert "cannot read board file" in err


def test_cli_says_when_there_is_no_play(tmp_path, capsys):
    words = tmp_path / "words.txt"
    words.write_text("zzz\n")
    assert main(["solve", "--rules", "wwf", "--rack", "AB", "--words", str(words)]) == 0
    assert capsys.readouterr().out.strip() == "no legal play"


def test_cli_no_bonus_scores_face_values(capsys):
    assert main(["solve", "--rules", "crossplay", "--rack", "QUIXOTE", "--no-bonus", "--json"]) == 0
    plays = json.loads(capsys.readouterr().out)["plays"]
    assert {p["score"] for p in plays if p["word"] == "QUIXOTE"} == {24 + 40}


def test_all_plays_are_listed_with_blank_choices_as_variants():
    from crossing.game_files import default_lexicon
    from crossing.tiles.board import Board
    from crossing.tiles.movegen import generate
    from crossing.tiles.rules import CROSSPLAY

    answer = solve({"rules": "crossplay", "rack": "EET?", "all": True})
    every = generate(Board.empty(), "EET?", CROSSPLAY, default_lexicon())
    assert answer["count"] == len(every) > 10
    fields = answer["fields"]
    rows = [dict(zip(fields, row, strict=True)) for row in answer["plays"]]
    # Every play is in exactly one row, once.
    assert sum(1 + len(row["variants"]) for row in rows) == len(every)
    # A row is one spelling at one spot; its variants move the blank, never score more.
    for row in rows:
        for word, score, _leave, _equity in row["variants"]:
            assert word.upper() == row["word"].upper() and word != row["word"]
            assert score <= row["score"]
    # TEE with the blank as either E is one row (blank on the star's E or on the last).
    tee = [r for r in rows if r["word"].upper() == "TEE" and (r["row"], r["col"]) == (8, 6)]
    assert len(tee) == 1 and tee[0]["variants"]


def test_a_plays_leave_is_the_rack_less_the_tiles_it_places_and_a_placed_blank_is_not_kept():
    from collections import Counter

    rack = "EET?"
    answer = solve({"rules": "crossplay", "rack": rack, "all": True})
    rows = [dict(zip(answer["fields"], row, strict=True)) for row in answer["plays"]]
    plays = [(r["word"], r["leave"]) for r in rows]
    plays += [(word, leave) for r in rows for word, _score, leave, _equity in r["variants"]]
    assert any(word.upper() != word for word, _ in plays)  # plays that place the blank
    for word, leave in plays:  # an empty board: the word is the tiles placed
        placed = Counter("?" if letter.islower() else letter for letter in word)
        assert Counter(leave) + placed == Counter(rack), word


def test_one_play_is_checked_and_scored_with_its_breakdown():
    play = {"row": 8, "col": 6, "direction": "across", "word": "QUIXOTE"}
    (scored,) = solve({"rules": "crossplay", "rack": "QUIXOTE", "play": play})["plays"]
    assert (scored["score"], scored["breakdown"]["total"]) == (110, 110)
    with pytest.raises(BadRequest, match="centre square"):
        solve({"rules": "crossplay", "rack": "QUIXOTE", "play": {**play, "col": 1}})
    with pytest.raises(BadRequest, match="rack"):
        solve({"rules": "crossplay", "rack": "QUIXOT", "play": play})
    upward = {**play, "direction": "up"}
    with pytest.raises(BadRequest, match="direction"):
        solve({"rules": "crossplay", "rack": "QUIXOTE", "play": upward})


def test_a_word_longer_than_the_board_is_left_out_of_a_custom_list():
    """No play is longer than the board, so such a word cannot matter; a long one once
    overflowed the interpreter's stack while the list was compiled."""
    words = ["cat", "q" * 5_000, "at", "z" * 16]
    answer = solve({"rules": "scrabble", "rack": "CAT", "words": words, "top": 50})
    assert {p["word"] for p in answer["plays"]} == {"CAT", "AT"}
    with pytest.raises(BadRequest, match="line 5"):
        solve({"rules": "scrabble", "rack": "CAT", "words": [*words, "c4t"]})
