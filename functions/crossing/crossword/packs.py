"""Puzzle packs: what a pack is, and the rules it keeps as a whole.

A pack is ``{"size": "mini", "difficulty": "easy", "puzzles": [ipuz, ...]}``; each
puzzle is an ipuz crossword object with a stable ``uniqueid`` (a hash of its grid
of letters), a title, ``difficulty`` and ``size``, and one clue of that difficulty
for every slot. ``check_pack`` names every way a pack breaks the rules: each
puzzle's (newspaper, clue and ``editor.py``'s), and the pack's own, kept in a
``Ledger``: no near-twins, no answer past its share. Building a pack is
``pack_builder.py``'s job, its figures ``pack_stats.py``'s, dealing from it while
the game runs ``deal.py``'s; reading and writing files is the CLI's.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from crossing.crossword.clues import clue_problems
from crossing.crossword.deal import is_twin
from crossing.crossword.editor import Rules, editor_problems
from crossing.crossword.fill import answers_of
from crossing.crossword.ipuz import InvalidPuzzle, from_ipuz, read_unchecked
from crossing.crossword.puzzle import Puzzle
from crossing.crossword.sizes import Size


def puzzle_id(solution: str) -> str:
    """Stable id from the grid of letters: the same grid always gets the same id."""
    return "cw-" + hashlib.sha256(solution.encode("ascii")).hexdigest()[:12]


# An answer may fill at most this share of a size's puzzles (never fewer than two,
# so a pack of a handful of test puzzles can be checked at all).
MAX_ANSWER_SHARE = 0.03
_MIN_CAP = 2


def max_uses(puzzles: int, share: float = MAX_ANSWER_SHARE) -> int:
    """How many of ``puzzles`` puzzles one answer may appear in."""
    return max(_MIN_CAP, math.floor(puzzles * share))


@dataclass
class Ledger:
    """Answers of the puzzles of one size taken so far, to refuse near-twins and over-use.

    A near-twin shares half or more of its answers with a puzzle already taken (a
    transposed grid has the same answers, so it is a twin too).
    """

    puzzles: list[frozenset[str]] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    uses: Counter[str] = field(default_factory=Counter)
    _index: dict[str, list[int]] = field(default_factory=dict)

    @property
    def cap(self) -> int:
        return max_uses(len(self.puzzles))

    def twin(self, words: frozenset[str]) -> tuple[str, int] | None:
        """(label, shared answers) of a puzzle taken that this one nearly repeats, or None."""
        shared: Counter[int] = Counter()
        for word in words:
            shared.update(self._index.get(word, ()))
        for index, count in shared.most_common():
            if is_twin(count, len(words), len(self.puzzles[index])):
                return self.labels[index], count
        return None

    def capped(self, size: int = 0) -> set[str]:
        """Answers that one more puzzle may not use: a pack of ``size`` puzzles (at least
        the one this puzzle makes) would then break the share."""
        cap = max_uses(max(len(self.puzzles) + 1, size))
        return {w for w, n in self.uses.items() if n + 1 > cap}

    def over_used(self) -> list[str]:
        return sorted(w for w, n in self.uses.items() if n > self.cap)

    def add(self, words: frozenset[str], label: str) -> None:
        for word in words:
            self._index.setdefault(word, []).append(len(self.puzzles))
        self.puzzles.append(words)
        self.labels.append(label)
        self.uses.update(words)


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
    rules: Rules | None = None,
) -> list[PackFailure]:
    """Every way the pack breaks the rules; empty means every puzzle is fit to deal.

    ``seen`` maps grids of letters already met (in other packs) to where they were,
    so no two puzzles in all packs share a grid; it is updated as puzzles are read.
    ``rules`` adds the editor's rules (word families, answers in clues, block lists);
    near-twins and over-used answers are always checked across the whole pack.
    """
    seen = {} if seen is None else seen
    rules = rules or Rules(words=answers)
    if not isinstance(data, dict) or not isinstance(data.get("puzzles"), list):
        return [PackFailure(name, 'a pack is a JSON object with a "puzzles" list')]
    failures: list[PackFailure] = []
    try:
        size = Size(str(data.get("size")))  # no other JSON value spells a size
    except ValueError:
        return [PackFailure(name, f"unknown size {data.get('size')!r}")]
    if not data["puzzles"]:
        failures.append(PackFailure(name, "the pack has no puzzles"))
    ledger = Ledger()
    for index, item in enumerate(data["puzzles"], start=1):
        label = f"{name} puzzle {index}"
        if isinstance(item, dict) and item.get("uniqueid"):
            label += f" ({item['uniqueid']})"
        found, puzzle = _check_puzzle(item, size, answers, seen, label, rules)
        failures += found
        if puzzle is not None:
            words = frozenset(answers_of(puzzle))
            twin = ledger.twin(words)
            if twin:
                failures.append(
                    PackFailure(
                        label,
                        f"near-twin: shares {twin[1]} of its {len(words)} answers with {twin[0]}",
                    )
                )
            ledger.add(words, label)
    for word in ledger.over_used():
        failures.append(
            PackFailure(
                name,
                f"over-used answer: {word} is in {ledger.uses[word]} of "
                f"{len(ledger.puzzles)} puzzles "
                f"(at most {ledger.cap}, {MAX_ANSWER_SHARE:.0%})",
            )
        )
    return failures


def _check_puzzle(
    item: Any,
    size: Size,
    answers: Collection[str] | None,
    seen: dict[str, str],
    label: str,
    rules: Rules,
) -> tuple[list[PackFailure], Puzzle | None]:
    failures = []
    try:
        puzzle = from_ipuz(item)
    except InvalidPuzzle as error:
        failures = [PackFailure(label, str(problem)) for problem in error.problems]
        if any(problem.rule in ("format", "numbering", "shape") for problem in error.problems):
            return failures, None
        # The grid reads fine but breaks a rule: keep going, so one run names every failure.
        puzzle = read_unchecked(item)
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
    for where, message in editor_problems(puzzle, size, rules):
        failures.append(PackFailure(f"{label} {where}", message))
    return failures, puzzle
