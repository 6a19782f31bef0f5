"""A crossword puzzle: grid, solution and clues, and the newspaper rules it must keep."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from crossing.crossword.grid import BLOCK, Grid, Slot, Square

MIN_SLOT_LENGTH = 3


@dataclass(frozen=True)
class Problem:
    """One broken rule: which rule, where, and a sentence a person can act on."""

    rule: str
    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.rule} ({self.where}): {self.message}"


class InvalidPuzzle(ValueError):
    """A puzzle that breaks one or more rules; ``problems`` lists every one."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


@dataclass(frozen=True)
class Puzzle:
    """``solution`` is the grid row by row as one string: ``#`` blocks, ``A``-``Z`` letters.

    ``clues`` maps a slot id (``"1a"``, ``"2d"``) to its clue text.
    """

    width: int
    height: int
    solution: str
    clues: Mapping[str, str]
    id: str = ""
    title: str = ""
    difficulty: str = ""
    meta: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_rows(cls, rows: list[str], clues: Mapping[str, str], **kwargs: Any) -> Puzzle:
        """Build from text rows of the solution (``#`` for blocks)."""
        height, width = len(rows), len(rows[0]) if rows else 0
        return cls(width, height, "".join(rows).upper(), dict(clues), **kwargs)

    @cached_property
    def grid(self) -> Grid:
        blocks = frozenset(i for i, ch in enumerate(self.solution) if ch == BLOCK)
        return Grid(self.width, self.height, blocks)

    @property
    def slots(self) -> tuple[Slot, ...]:
        return self.grid.slots

    @property
    def white_squares(self) -> tuple[Square, ...]:
        return self.grid.white_squares

    def answer(self, slot: Slot) -> str:
        return "".join(self.solution[sq] for sq in slot.squares)

    def rows(self) -> list[str]:
        return [self.solution[r * self.width : (r + 1) * self.width] for r in range(self.height)]

    def validate(self) -> Puzzle:
        """Return the puzzle if it keeps every rule, else raise InvalidPuzzle naming each."""
        problems = problems_of(self)
        if problems:
            raise InvalidPuzzle(problems)
        return self


@dataclass(frozen=True)
class Miss:
    """A square that is wrong or empty at the check, with its right letter."""

    square: Square
    answer: str
    letter: str  # "." when empty


def misses(puzzle: Puzzle, letters: str) -> tuple[Miss, ...]:
    """Every white square of a board (one character a square) that is not the answer's."""
    return tuple(
        Miss(sq, puzzle.solution[sq], letters[sq])
        for sq in puzzle.white_squares
        if letters[sq] != puzzle.solution[sq]
    )


def problems_of(puzzle: Puzzle) -> list[Problem]:
    """Every newspaper rule the puzzle breaks, in a stable order; empty means valid."""
    shape = _shape_problems(puzzle)
    if shape:
        return shape  # the other rules cannot be read off a malformed grid
    grid = puzzle.grid
    return [
        *_symmetry_problems(grid),
        *_checked_problems(grid),
        *_length_problems(grid),
        *_connected_problems(grid),
        *_repeat_problems(puzzle),
        *_clue_problems(puzzle),
    ]


def _shape_problems(puzzle: Puzzle) -> list[Problem]:
    if puzzle.width < MIN_SLOT_LENGTH or puzzle.height < MIN_SLOT_LENGTH:
        return [
            Problem(
                "shape",
                "grid",
                f"grid is {puzzle.width}x{puzzle.height}; "
                f"both sides must be at least {MIN_SLOT_LENGTH}",
            )
        ]
    if len(puzzle.solution) != puzzle.width * puzzle.height:
        return [
            Problem(
                "shape",
                "solution",
                f"solution has {len(puzzle.solution)} squares, "
                f"a {puzzle.width}x{puzzle.height} grid has {puzzle.width * puzzle.height}",
            )
        ]
    return [
        Problem(
            "shape",
            Grid(puzzle.width, puzzle.height, frozenset()).name(i),
            f"{ch!r} is neither a letter A-Z nor a block '#'",
        )
        for i, ch in enumerate(puzzle.solution)
        if ch != BLOCK and not ("A" <= ch <= "Z")
    ]


def _symmetry_problems(grid: Grid) -> list[Problem]:
    return [
        Problem(
            "symmetry",
            grid.name(sq),
            f"block has no partner at {grid.name(grid.mirror(sq))} "
            "(blocks must look the same turned upside down)",
        )
        for sq in sorted(grid.blocks)
        if grid.mirror(sq) not in grid.blocks
    ]


def _checked_problems(grid: Grid) -> list[Problem]:
    return [
        Problem("checked", grid.name(sq), f"white square is in no {direction} word")
        for sq, direction in grid.unchecked_squares
    ]


def _length_problems(grid: Grid) -> list[Problem]:
    return [
        Problem(
            "length",
            f"{slot.number} {slot.direction}",
            f"word is {len(slot)} letters; none may be shorter than {MIN_SLOT_LENGTH}",
        )
        for slot in grid.slots
        if len(slot) < MIN_SLOT_LENGTH
    ]


def _connected_problems(grid: Grid) -> list[Problem]:
    areas = grid.components
    if len(areas) <= 1:
        return []
    return [
        Problem(
            "connected",
            grid.name(min(area)),
            f"white area of {len(area)} squares is cut off from the rest",
        )
        for area in sorted(areas, key=min)[1:]
    ]


def _repeat_problems(puzzle: Puzzle) -> list[Problem]:
    first: dict[str, Slot] = {}
    problems = []
    for slot in puzzle.slots:
        answer = puzzle.answer(slot)
        if answer in first:
            problems.append(
                Problem(
                    "repeat",
                    f"{slot.number} {slot.direction}",
                    f"answer {answer} is also {first[answer].number} {first[answer].direction}",
                )
            )
        else:
            first[answer] = slot
    return problems


def _clue_problems(puzzle: Puzzle) -> list[Problem]:
    ids = {slot.id for slot in puzzle.slots}
    problems = [
        Problem("clued", f"{slot.number} {slot.direction}", "word has no clue")
        for slot in puzzle.slots
        if not (puzzle.clues.get(slot.id) or "").strip()
    ]
    problems += [
        Problem("clued", f"clue {slot_id}", "clue has no word of that number and direction")
        for slot_id in sorted(set(puzzle.clues) - ids)
    ]
    return problems
