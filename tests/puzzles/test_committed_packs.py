"""The packs the game deals from: every committed pack keeps every rule."""

import json
from pathlib import Path

import pytest
from crossing.crossword.ipuz import from_ipuz
from crossing.crossword.packs import check_pack
from crossing.crossword.render import puzzle_markdown

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
PACKS = sorted((PUZZLES / "packs").glob("*.json"))


def answers():
    rows = (PUZZLES / "answers" / "answers.tsv").read_text().splitlines()
    return {r.split("\t")[0]: int(r.split("\t")[1]) for r in rows if r and not r.startswith("#")}


@pytest.mark.parametrize("path", PACKS, ids=[p.stem for p in PACKS])
def test_a_committed_pack_passes_every_check(path):
    seen: dict[str, str] = {}
    assert check_pack(json.loads(path.read_text()), answers(), seen, name=path.name) == []


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
