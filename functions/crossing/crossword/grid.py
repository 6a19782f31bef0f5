"""The shape of a crossword: squares, blocks, numbering and slots.

A square is an int, ``row * width + col``, so a board is a flat string and a
set of squares is cheap. Nothing here knows letters or clues.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

Square = int
BLOCK = "#"


class Direction(StrEnum):
    ACROSS = "across"
    DOWN = "down"

    @property
    def other(self) -> Direction:
        return Direction.DOWN if self is Direction.ACROSS else Direction.ACROSS


@dataclass(frozen=True)
class Slot:
    """A run of white squares that holds one answer, e.g. 1-across."""

    number: int
    direction: Direction
    squares: tuple[Square, ...]

    @property
    def id(self) -> str:
        """Stable short name used in protocol and storage: ``"1a"``, ``"4d"``."""
        return f"{self.number}{self.direction.value[0]}"

    def __len__(self) -> int:
        return len(self.squares)

    def __repr__(self) -> str:
        return f"Slot({self.id!r}, len={len(self)})"


def square_name(square: Square, width: int) -> str:
    """Human name of a square for messages: row and column counted from 1."""
    row, col = divmod(square, width)
    return f"row {row + 1}, column {col + 1}"


@dataclass(frozen=True)
class Grid:
    """Block pattern of a rectangular grid; ``blocks`` holds the black squares."""

    width: int
    height: int
    blocks: frozenset[Square]

    @classmethod
    def from_rows(cls, rows: list[str] | tuple[str, ...]) -> Grid:
        """Build from text rows where ``#`` is a block and anything else is white.

        >>> Grid.from_rows(["#..", "...", "..#"]).blocks
        frozenset({0, 8})
        """
        height, width = len(rows), len(rows[0]) if rows else 0
        if not height or not width or any(len(row) != width for row in rows):
            raise ValueError("grid rows must be non-empty and all the same length")
        blocks = frozenset(
            r * width + c for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == BLOCK
        )
        return cls(width, height, blocks)

    @property
    def size(self) -> int:
        return self.width * self.height

    def is_white(self, square: Square) -> bool:
        return 0 <= square < self.size and square not in self.blocks

    @cached_property
    def white_squares(self) -> tuple[Square, ...]:
        return tuple(s for s in range(self.size) if s not in self.blocks)

    def name(self, square: Square) -> str:
        return square_name(square, self.width)

    def _runs(self, direction: Direction) -> list[tuple[Square, ...]]:
        """Maximal runs of white squares in one direction, any length."""
        runs: list[tuple[Square, ...]] = []
        outer, inner = (
            (self.height, self.width)
            if direction is Direction.ACROSS
            else (self.width, self.height)
        )
        for line in range(outer):
            run: list[Square] = []
            for pos in range(inner):
                square = (
                    line * self.width + pos
                    if direction is Direction.ACROSS
                    else pos * self.width + line
                )
                if square in self.blocks:
                    if run:
                        runs.append(tuple(run))
                    run = []
                else:
                    run.append(square)
            if run:
                runs.append(tuple(run))
        return runs

    @cached_property
    def numbers(self) -> dict[Square, int]:
        """Newspaper numbering: squares that start a run of two or more, in reading order."""
        starts = {run[0] for d in Direction for run in self._runs(d) if len(run) >= 2}
        return {square: n for n, square in enumerate(sorted(starts), start=1)}

    @cached_property
    def slots(self) -> tuple[Slot, ...]:
        """Every run of two or more white squares, across slots first, by number."""
        found = [
            Slot(self.numbers[run[0]], d, run)
            for d in Direction
            for run in self._runs(d)
            if len(run) >= 2
        ]
        return tuple(sorted(found, key=lambda s: (s.direction is Direction.DOWN, s.number)))

    @cached_property
    def unchecked_squares(self) -> tuple[tuple[Square, Direction], ...]:
        """White squares missing an across or a down slot, with the direction they lack."""
        covered = {
            d: {sq for slot in self.slots if slot.direction is d for sq in slot.squares}
            for d in Direction
        }
        return tuple(
            (sq, d) for sq in self.white_squares for d in Direction if sq not in covered[d]
        )

    @cached_property
    def slots_by_square(self) -> dict[Square, tuple[Slot, ...]]:
        """The slots (across first) that run through each white square."""
        found: dict[Square, list[Slot]] = {sq: [] for sq in self.white_squares}
        for slot in self.slots:
            for sq in slot.squares:
                found[sq].append(slot)
        return {sq: tuple(slots) for sq, slots in found.items()}

    def slot(self, slot_id: str) -> Slot:
        for slot in self.slots:
            if slot.id == slot_id:
                return slot
        raise KeyError(slot_id)

    def crossing(self, slot: Slot, square: Square) -> Slot | None:
        """The slot that crosses ``slot`` at ``square``, if any."""
        for other in self.slots_by_square.get(square, ()):
            if other.direction is not slot.direction:
                return other
        return None

    def mirror(self, square: Square) -> Square:
        """The square at 180° rotation."""
        return self.size - 1 - square

    @cached_property
    def components(self) -> list[frozenset[Square]]:
        """Connected areas of white squares (edges only, not corners)."""
        seen: set[Square] = set()
        areas: list[frozenset[Square]] = []
        for start in self.white_squares:
            if start in seen:
                continue
            area, stack = {start}, [start]
            while stack:
                sq = stack.pop()
                row, col = divmod(sq, self.width)
                for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                    nxt = r * self.width + c
                    if (
                        0 <= r < self.height
                        and 0 <= c < self.width
                        and nxt not in self.blocks
                        and nxt not in area
                    ):
                        area.add(nxt)
                        stack.append(nxt)
            seen |= area
            areas.append(frozenset(area))
        return areas
