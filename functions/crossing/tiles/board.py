"""The tile board: 15 rows of 15 squares, as text at the edges.

A square holds ``.`` (empty), ``A``-``Z`` (a tile) or ``a``-``z`` (a blank
standing for that letter). Positions are 0-based ``(row, col)`` inside the
engine; players and the JSON see them 1-based.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from crossing.tiles.rules import CENTRE, SIZE, RuleSet

EMPTY = "."


class BadBoard(ValueError):
    """A board that cannot be read, or that no game could have produced."""


@dataclass(frozen=True)
class Board:
    rows: tuple[str, ...]

    @classmethod
    def empty(cls) -> Board:
        return cls(tuple(EMPTY * SIZE for _ in range(SIZE)))

    @classmethod
    def parse(cls, lines: Iterable[str]) -> Board:
        """Read 15 lines of 15 squares; trailing whitespace is ignored."""
        rows = [line.rstrip() for line in lines]
        while rows and not rows[-1]:
            rows.pop()
        if len(rows) != SIZE:
            raise BadBoard(f"board must have {SIZE} rows of {SIZE} squares, got {len(rows)} rows")
        for number, row in enumerate(rows, start=1):
            if len(row) != SIZE:
                raise BadBoard(f"board row {number} has {len(row)} squares, expected {SIZE}")
            for col, square in enumerate(row, start=1):
                if square != EMPTY and not (square.isascii() and square.isalpha()):
                    raise BadBoard(
                        f"board row {number}, column {col}: bad square {square!r} "
                        "(use '.', A-Z, or a-z for a blank)"
                    )
        return cls(tuple(rows))

    def __str__(self) -> str:
        return "\n".join(self.rows)

    def square(self, row: int, col: int) -> str:
        return self.rows[row][col]

    def is_empty_at(self, row: int, col: int) -> bool:
        return self.rows[row][col] == EMPTY

    def is_empty(self) -> bool:
        return all(row == EMPTY * SIZE for row in self.rows)

    def tiles(self) -> Iterator[tuple[int, int, str]]:
        for r, row in enumerate(self.rows):
            for c, square in enumerate(row):
                if square != EMPTY:
                    yield r, c, square

    def transposed(self) -> Board:
        return Board(tuple("".join(row[c] for row in self.rows) for c in range(SIZE)))

    def with_tiles(self, tiles: Iterable[tuple[int, int, str]]) -> Board:
        """A new board with tiles placed; ``str`` is the square's text (lowercase: blank)."""
        grid = [list(row) for row in self.rows]
        for r, c, square in tiles:
            grid[r][c] = square
        return Board(tuple("".join(row) for row in grid))

    def check_possible(self, rules: RuleSet, rack: str = "") -> None:
        """Raise BadBoard if no game under these rules reaches this board with this rack."""
        tiles = list(self.tiles())
        used = Counter(square for _, _, square in tiles if square.isupper())
        used.update(letter for letter in rack if letter != "?")
        blanks = sum(1 for _, _, square in tiles if square.islower()) + rack.count("?")
        for letter, count in sorted(used.items()):
            if count > rules.counts[letter]:
                raise BadBoard(
                    f"{count} {letter} tiles on the board and rack, "
                    f"but the {rules.name} bag holds {rules.counts[letter]}"
                )
        if blanks > rules.blanks:
            raise BadBoard(
                f"{blanks} blanks on the board and rack, but the {rules.name} bag holds "
                f"{rules.blanks}"
            )
        if not tiles:
            return
        if self.is_empty_at(*CENTRE):
            raise BadBoard("the tiles on the board do not cover the centre square (8,8)")
        if len(tiles) == 1:
            raise BadBoard("a board with one tile cannot occur: the first word has two letters")
        seen = {CENTRE}
        frontier = [CENTRE]
        while frontier:
            r, c = frontier.pop()
            for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                inside = 0 <= nr < SIZE and 0 <= nc < SIZE
                if inside and (nr, nc) not in seen and not self.is_empty_at(nr, nc):
                    seen.add((nr, nc))
                    frontier.append((nr, nc))
        if len(seen) != len(tiles):
            r, c, _ = next(t for t in tiles if (t[0], t[1]) not in seen)
            raise BadBoard(f"the tile at {r + 1},{c + 1} is not connected to the centre square")
