"""The packs the game deals from: every committed pack keeps every rule."""

import json
from pathlib import Path

import pytest
from crossing.crossword.ipuz import from_ipuz
from crossing.crossword.packs import check_pack
from crossing.crossword.render import puzzle_markdown
from crossing.crossword.sizes import Size
from crossing.puzzles_cli import answer_list, editor_rules

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
PACKS = sorted((PUZZLES / "packs").glob("*.json"))


@pytest.mark.parametrize("path", PACKS, ids=[p.stem for p in PACKS])
def test_a_committed_pack_passes_every_check_the_editors_included(path):
    answers = answer_list(PUZZLES)
    rules = editor_rules(PUZZLES, answers)
    failures = check_pack(json.loads(path.read_text()), answers, {}, name=path.name, rules=rules)
    assert [str(f) for f in failures] == []


def test_every_size_has_a_pack():
    assert {Size(p.stem) for p in PACKS} == set(Size)


def test_no_two_puzzles_in_all_packs_share_a_grid_of_letters():
    grids = [
        "".join("".join(row) for row in item["solution"])
        for path in PACKS
        for item in json.loads(path.read_text())["puzzles"]
    ]
    assert len(grids) == len(set(grids))


def test_a_puzzle_renders_for_a_person_to_read():
    if not PACKS:
        pytest.fail("no packs committed")
    puzzle = from_ipuz(json.loads(PACKS[0].read_text())["puzzles"][0])
    text = puzzle_markdown(puzzle, "Sample")
    assert all(clue in text for clue in puzzle.clues.values())
    assert puzzle.solution[puzzle.white_squares[0]] not in text.split("<details>")[0].split(
        "**Across**"
    )[0].replace("#", "")


def test_an_answer_in_three_puzzles_of_a_difficulty_has_three_distinct_clues_of_it():
    from crossing.puzzles_cli import clue_variety

    assert {d: short[:10] for d, short in clue_variety(PUZZLES).items()} == {
        "easy": [],
        "hard": [],
    }
