"""Puzzle packs: clued puzzles of one size as JSON data, and the checks a pack must pass.

A pack is ``{"size": "mini", "difficulty": "easy", "puzzles": [ipuz, ...]}``; each
puzzle is an ipuz crossword object with a stable ``uniqueid`` (a hash of its grid
of letters), a title, ``difficulty`` and ``size``, and one clue of that difficulty
for every slot. Reading and writing files is the CLI's job.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from crossing.crossword.clues import clue_problems
from crossing.crossword.fill import answers_of
from crossing.crossword.ipuz import InvalidPuzzle, from_ipuz, to_ipuz
from crossing.crossword.puzzle import Puzzle
from crossing.crossword.sizes import Size


def puzzle_id(solution: str) -> str:
    """Stable id from the grid of letters: the same grid always gets the same id."""
    return "cw-" + hashlib.sha256(solution.encode("ascii")).hexdigest()[:12]


def missing_clues(draft: Puzzle, clues: Mapping[str, Sequence[str]]) -> list[str]:
    return [a for a in answers_of(draft) if not clues.get(a)]


def clue_draft(
    draft: Puzzle,
    size: Size,
    clues: Mapping[str, Sequence[str]],
    rng: random.Random,
    used: Counter[str],
) -> Puzzle:
    """The draft with a clue on every slot, picking each answer's least-used clue so far.

    ``used`` counts clue texts across the pack, so reuse spreads over an answer's clues.
    """
    chosen = {}
    for slot in draft.slots:
        options = list(clues[draft.answer(slot)])
        rng.shuffle(options)
        text = min(options, key=lambda clue: used[clue])
        used[text] += 1
        chosen[slot.id] = text
    pid = puzzle_id(draft.solution)
    return Puzzle(
        draft.width,
        draft.height,
        draft.solution,
        chosen,
        id=pid,
        title=f"{size.value.title()} {pid[3:9]}",
        difficulty=size.difficulty,
    )


def make_pack(
    size: Size, drafts: Iterable[Puzzle], clues: Mapping[str, Sequence[str]], seed: int
) -> dict[str, Any]:
    """A pack of the drafts, clued and validated in full; every answer must have a clue."""
    rng = random.Random(seed)
    used: Counter[str] = Counter()
    puzzles = []
    for draft in drafts:
        puzzle = clue_draft(draft, size, clues, rng, used).validate()
        data = to_ipuz(puzzle)
        data["size"] = size.value
        puzzles.append(data)
    return {"size": size.value, "difficulty": size.difficulty, "puzzles": puzzles}


@dataclass(frozen=True)
class PackFailure:
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


def check_pack(
    data: Any,
    answers: Collection[str] | None = None,
    seen: dict[str, str] | None = None,
    name: str = "pack",
) -> list[PackFailure]:
    """Every way the pack breaks the rules; empty means every puzzle is fit to deal.

    ``seen`` maps grids of letters already met (in other packs) to where they were,
    so no two puzzles in all packs share a grid; it is updated as puzzles are read.
    """
    seen = {} if seen is None else seen
    if not isinstance(data, dict) or not isinstance(data.get("puzzles"), list):
        return [PackFailure(name, 'a pack is a JSON object with a "puzzles" list')]
    failures: list[PackFailure] = []
    try:
        size = Size(data.get("size"))
    except ValueError:
        return [PackFailure(name, f"unknown size {data.get('size')!r}")]
    if not data["puzzles"]:
        failures.append(PackFailure(name, "the pack has no puzzles"))
    for index, item in enumerate(data["puzzles"], start=1):
        label = f"{name} puzzle {index}"
        if isinstance(item, dict) and item.get("uniqueid"):
            label += f" ({item['uniqueid']})"
        failures += _check_puzzle(item, size, answers, seen, label)
    return failures


def _check_puzzle(
    item: Any, size: Size, answers: Collection[str] | None, seen: dict[str, str], label: str
) -> list[PackFailure]:
    failures = []
    try:
        puzzle = from_ipuz(item)
    except InvalidPuzzle as error:
        failures = [PackFailure(label, str(problem)) for problem in error.problems]
        if any(problem.rule in ("format", "numbering", "shape") for problem in error.problems):
            return failures
        # The grid reads fine but breaks a rule: keep going, so one run names every failure.
        puzzle = _read_unchecked(item)
    if puzzle.width != size.width or puzzle.height != size.width:
        failures.append(PackFailure(label, f"{puzzle.width}x{puzzle.height} is not a {size}"))
    if puzzle.difficulty != size.difficulty:
        failures.append(
            PackFailure(label, f"difficulty {puzzle.difficulty!r}; a {size} is {size.difficulty}")
        )
    if puzzle.id != puzzle_id(puzzle.solution):
        failures.append(PackFailure(label, "uniqueid does not match the grid of letters"))
    if puzzle.solution in seen:
        failures.append(PackFailure(label, f"same grid of letters as {seen[puzzle.solution]}"))
    else:
        seen[puzzle.solution] = label
    for slot in puzzle.slots:
        answer = puzzle.answer(slot)
        where = f"{label} {slot.number} {slot.direction}"
        if answers is not None and answer not in answers:
            failures.append(PackFailure(where, f"{answer} is not in the answer list"))
        for rule, message in clue_problems(answer, puzzle.clues.get(slot.id, "")):
            failures.append(PackFailure(where, f"clue {rule}: {message}"))
    return failures


def _read_unchecked(item: dict[str, Any]) -> Puzzle:
    """An ipuz puzzle whose format is known to be sound, without the rule checks."""
    from crossing.crossword import ipuz

    width, height = ipuz._dimensions(item)
    solution = ipuz._solution(item, width, height, str(item.get("block", "#")))
    return Puzzle(
        width,
        height,
        solution,
        ipuz._clues(item),
        id=str(item.get("uniqueid", "")),
        difficulty=str(item.get("difficulty", "")),
    )


def pack_answers(data: Mapping[str, Any]) -> list[list[str]]:
    """Each puzzle's answers, read off a (checked) pack."""
    return [answers_of(from_ipuz(item)) for item in data.get("puzzles", [])]


def pack_clue_texts(data: Mapping[str, Any]) -> list[str]:
    texts = []
    for item in data.get("puzzles", []):
        for entries in item.get("clues", {}).values():
            texts += [str(entry[1]) for entry in entries if isinstance(entry, list)]
    return texts
