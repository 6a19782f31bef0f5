"""Packs: build → check round trip through the CLI, and check naming each failure."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from crossing.cli import main
from crossing.crossword.ipuz import from_ipuz

REPO_PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


@pytest.fixture(scope="module")
def template_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A puzzles folder with the real answer list, 3 Mini drafts and a small easy clue file."""
    root = tmp_path_factory.mktemp("template") / "puzzles"
    (root / "answers").mkdir(parents=True)
    shutil.copy(REPO_PUZZLES / "answers" / "answers.tsv", root / "answers" / "answers.tsv")
    assert _run(root, "draft", "--size", "mini", "--count", "3", "--seed", "5") == 0
    drafts = json.loads((root / "drafts" / "mini.json").read_text())["drafts"]
    words = sorted({w for draft in drafts for w in draft["answers"].values()})
    (root / "clues").mkdir()
    lines = [f"{w}\tZqx {i} vwq" for i, w in enumerate(words)]
    lines += [f"{w}\tZqx {i} jjv" for i, w in enumerate(words[:5])]
    (root / "clues" / "easy.tsv").write_text("\n".join(lines) + "\n")
    return root


@pytest.fixture
def puzzles_dir(template_dir: Path, tmp_path: Path) -> Path:
    root = tmp_path / "puzzles"
    shutil.copytree(template_dir, root)
    return root


def _run(root: Path, *args: str) -> int:
    return main(["puzzles", "--dir", str(root), *args])


def test_build_then_check_round_trip(puzzles_dir: Path, capsys):
    assert _run(puzzles_dir, "unclued", "--size", "mini") == 0
    assert capsys.readouterr().out.count("\t") == 0  # every drafted answer has a clue
    assert _run(puzzles_dir, "build", "--size", "mini", "--count", "3", "--seed", "5") == 0
    pack = json.loads((puzzles_dir / "packs" / "mini.json").read_text())
    assert len(pack["puzzles"]) == 3
    first = pack["puzzles"][0]
    assert first["difficulty"] == "easy"
    assert first["size"] == "mini"
    assert first["uniqueid"].startswith("cw-")
    assert all(text for entries in first["clues"].values() for _, text in entries)
    assert len({p["uniqueid"] for p in pack["puzzles"]}) == 3
    assert _run(puzzles_dir, "check") == 0
    capsys.readouterr()
    assert _run(puzzles_dir, "stats") == 0
    assert "mini: 3 drafts, 3 puzzles in the pack" in capsys.readouterr().out
    assert _run(puzzles_dir, "lint") == 1  # hard.tsv is missing: lint says so


def test_build_fails_clearly_when_clues_are_missing(puzzles_dir: Path, capsys):
    (puzzles_dir / "clues" / "easy.tsv").write_text("CAT\tPet that purrs\n")
    assert _run(puzzles_dir, "build", "--size", "mini", "--count", "2", "--seed", "9") == 1
    assert "more answers clued" in capsys.readouterr().err
    assert not (puzzles_dir / "packs" / "mini.json").exists()


def test_unclued_lists_answers_with_counts(puzzles_dir: Path, capsys):
    (puzzles_dir / "clues" / "easy.tsv").write_text("")
    assert _run(puzzles_dir, "unclued", "--size", "mini", "--count", "2", "--seed", "3") == 0
    captured = capsys.readouterr()
    rows = [line.split("\t") for line in captured.out.splitlines()]
    assert rows
    assert all(word.isalpha() and word.isupper() and int(n) >= 1 for word, n in rows)
    assert "distinct answers need easy clues" in captured.err


def test_check_names_each_failure_of_a_broken_pack(puzzles_dir: Path, capsys):
    assert _run(puzzles_dir, "build", "--size", "mini", "--count", "2", "--seed", "5") == 0
    path = puzzles_dir / "packs" / "mini.json"
    pack = json.loads(path.read_text())
    broken = pack["puzzles"][0]
    broken["clues"]["Across"][0][1] = ""
    broken["clues"]["Down"][0][1] = "Ends with a period."
    pack["puzzles"][1] = json.loads(json.dumps(broken))
    path.write_text(json.dumps(pack))
    assert _run(puzzles_dir, "check", str(path)) == 1
    err = capsys.readouterr().err
    assert "word has no clue" in err
    assert "clue period" in err
    assert "same grid of letters" in err


def test_check_rejects_a_grid_that_breaks_symmetry(puzzles_dir: Path, capsys):
    assert _run(puzzles_dir, "build", "--size", "mini", "--count", "1", "--seed", "5") == 0
    path = puzzles_dir / "packs" / "mini.json"
    pack = json.loads(path.read_text())
    puzzle = pack["puzzles"][0]
    row = next(r for r, cells in enumerate(puzzle["solution"]) if "#" not in cells)
    puzzle["solution"][row][0] = "#"
    puzzle.pop("puzzle")
    path.write_text(json.dumps(pack))
    assert _run(puzzles_dir, "check", str(path)) == 1
    assert "symmetry" in capsys.readouterr().err


def test_unclued_refuses_sizes_with_different_clue_files(puzzles_dir: Path):
    assert _run(puzzles_dir, "unclued", "--size", "mini", "--size", "midi") == 2


def test_top_up_fills_go_through_the_editors_rules(puzzles_dir: Path, capsys):
    """Grids filled when drafts run out keep the share, the block lists and every check."""
    (puzzles_dir / "drafts" / "mini.json").unlink()
    answers = (puzzles_dir / "answers" / "answers.tsv").read_text().splitlines()[:6000]
    words = [line.split("\t")[0] for line in answers]
    lines = [f"{w}\tZqx {i} vwq" for i, w in enumerate(words)]
    (puzzles_dir / "clues" / "easy.tsv").write_text("\n".join(lines) + "\n")
    # The most common answers the fill would reach for first: one blocked, one crosswordese.
    (puzzles_dir / "answers" / "blocked.txt").write_text("# test\nTHE\n")
    (puzzles_dir / "answers" / "crosswordese.txt").write_text("AND\nfor\n")
    assert _run(puzzles_dir, "build", "--size", "mini", "--count", "12", "--seed", "2") == 0
    pack = json.loads((puzzles_dir / "packs" / "mini.json").read_text())
    grids = [p["solution"] for p in pack["puzzles"]]
    assert len(grids) == 12
    uses: dict[str, int] = {}
    for item in pack["puzzles"]:
        puzzle = from_ipuz(item)
        found = {puzzle.answer(slot) for slot in puzzle.slots}
        assert not found & {"THE", "AND", "FOR"}
        for word in found:
            uses[word] = uses.get(word, 0) + 1
    assert max(uses.values()) <= 2  # 3% of 12 puzzles, and never fewer than two
    capsys.readouterr()
    assert _run(puzzles_dir, "check") == 0


def test_build_again_keeps_the_committed_puzzles_and_their_ids(puzzles_dir: Path):
    assert _run(puzzles_dir, "build", "--size", "mini", "--count", "3", "--seed", "5") == 0
    path = puzzles_dir / "packs" / "mini.json"
    first = [p["uniqueid"] for p in json.loads(path.read_text())["puzzles"]]
    # Another seed would fill other grids; the pack's own puzzles come first and stay.
    assert _run(puzzles_dir, "build", "--size", "mini", "--count", "3", "--seed", "77") == 0
    assert [p["uniqueid"] for p in json.loads(path.read_text())["puzzles"]] == first
