"""ipuz is the puzzle format: written, read back, and refused with reasons."""

import json

import pytest
from crossing.cli import load_ipuz_file, main
from crossing.crossword.ipuz import InvalidPuzzle, from_ipuz, to_ipuz

from tests.crossword.puzzles import MINI, TINY


def test_round_trip_keeps_grid_clues_and_metadata():
    data = to_ipuz(MINI)
    assert data["kind"] == ["http://ipuz.org/crossword#1"]
    assert data["puzzle"][0] == ["#", "#", 1, 2, 3]
    assert data["clues"]["Across"][0] == [1, "Knight's title"]
    back = from_ipuz(json.loads(json.dumps(data)))
    assert back == MINI


def test_reads_other_common_shapes_of_the_format():
    data = to_ipuz(TINY)
    data["puzzle"] = [
        [{"cell": c} if isinstance(c, int) else c for c in row] for row in data["puzzle"]
    ]
    data["clues"] = {
        "Across:Across": [{"number": n, "clue": t} for n, t in data["clues"]["Across"]],
        "Down": data["clues"]["Down"],
    }
    data["solution"] = [[c.lower() for c in row] for row in data["solution"]]
    assert from_ipuz(data).clues == TINY.clues


def refusal(data):
    with pytest.raises(InvalidPuzzle) as caught:
        from_ipuz(data)
    return str(caught.value)


def test_refuses_a_file_that_breaks_a_rule_naming_rule_and_place():
    data = to_ipuz(MINI)
    data["solution"][4][3] = "A"  # a white square where the mirror has a block
    data["puzzle"][4][3] = 0
    message = refusal(data)
    assert "symmetry (row 1, column 2)" in message


def test_refuses_wrong_numbering_and_bad_cells():
    data = to_ipuz(TINY)
    data["puzzle"][1][0] = 7
    assert "numbering (row 2, column 1): numbered 7, but this square is 4" in refusal(data)
    data = to_ipuz(TINY)
    data["solution"][0][0] = "WX"
    assert "row 1, column 1" in refusal(data)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d.update(kind=["http://ipuz.org/sudoku#1"]), "not an ipuz crossword"),
        (lambda d: d.update(dimensions={"width": 3}), "width and height"),
        (lambda d: d["solution"].pop(), "list of 3 rows"),
        (lambda d: d["clues"].update(Diagonal=[]), "only Across and Down"),
        (lambda d: d["clues"]["Down"].append(["x", "Oops"]), "not a number"),
    ],
)
def test_refuses_malformed_files(change, expected):
    data = to_ipuz(TINY)
    change(data)
    assert expected in refusal(data)


def test_check_puzzle_command(tmp_path, capsys):
    good = tmp_path / "good.ipuz"
    good.write_text(json.dumps(to_ipuz(MINI)))
    bad = tmp_path / "bad.ipuz"
    data = to_ipuz(MINI)
    data["clues"]["Down"].pop()
    bad.write_text(json.dumps(data))
    broken = tmp_path / "broken.ipuz"
    broken.write_text("{not json")
    assert main(["check-puzzle", str(good)]) == 0
    assert main(["check-puzzle", str(good), str(bad), str(broken)]) == 1
    err = capsys.readouterr().err
    assert "clued (5 down): word has no clue" in err
    assert "not valid JSON" in err
    assert load_ipuz_file(good) == MINI
