"""Legality of one play, rule by rule, as the Crossplay turn procedure states it.

Each broken rule has its own exception class (a subclass of IllegalPlay) with a
sentence a player can read. Nothing here scores.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from crossing.tiles.board import Board
from crossing.tiles.lexicon import Lexicon
from crossing.tiles.rules import CENTRE, SIZE

ACROSS = "across"
DOWN = "down"


class IllegalPlay(ValueError):
    """A play the rules reject; ``reason`` is a short machine-readable name."""

    reason = "illegal"


class NoNewTile(IllegalPlay):
    reason = "no_new_tile"


class OffBoard(IllegalPlay):
    reason = "off_board"


class SquareTaken(IllegalPlay):
    reason = "square_taken"


class LetterMismatch(IllegalPlay):
    reason = "letter_mismatch"


class NotInLine(IllegalPlay):
    reason = "not_in_line"


class NotContiguous(IllegalPlay):
    reason = "not_contiguous"


class TooShort(IllegalPlay):
    reason = "too_short"


class MissesCentre(IllegalPlay):
    reason = "misses_centre"


class NotConnected(IllegalPlay):
    reason = "not_connected"


class NotOnRack(IllegalPlay):
    reason = "not_on_rack"


class NotAWord(IllegalPlay):
    reason = "not_a_word"


class BadCrossWord(NotAWord):
    reason = "bad_cross_word"


class NewTile(NamedTuple):
    """A tile from the rack placed on an empty square; ``letter`` is upper case."""

    row: int
    col: int
    letter: str
    blank: bool = False

    @property
    def text(self) -> str:
        return self.letter.lower() if self.blank else self.letter


@dataclass(frozen=True)
class WordSpan:
    """A run of two or more letters in one line: where it starts and what it spells."""

    row: int
    col: int
    direction: str
    squares: tuple[tuple[int, int], ...]
    text: str  # upper case


@dataclass(frozen=True)
class CheckedPlay:
    """A legal play: its new tiles, its main word and every new cross word."""

    tiles: tuple[NewTile, ...]
    main: WordSpan
    cross: tuple[WordSpan, ...]

    @property
    def words(self) -> tuple[WordSpan, ...]:
        return (self.main, *self.cross)


def _step(direction: str) -> tuple[int, int]:
    return (0, 1) if direction == ACROSS else (1, 0)


def tiles_for_word(
    board: Board, row: int, col: int, direction: str, word: str
) -> tuple[NewTile, ...]:
    """The new tiles of a word laid from (row, col); board letters must match it.

    Upper case is a rack tile, lower case a blank, as on the board.
    """
    dr, dc = _step(direction)
    tiles = []
    for i, letter in enumerate(word):
        r, c = row + dr * i, col + dc * i
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            raise OffBoard(f"{word.upper()} runs off the board")
        square = board.square(r, c)
        if square == ".":
            tiles.append(NewTile(r, c, letter.upper(), letter.islower()))
        elif square.upper() != letter.upper():
            raise LetterMismatch(
                f"the board has {square.upper()} at {r + 1},{c + 1} where "
                f"{word.upper()} needs {letter.upper()}"
            )
    return tuple(tiles)


def _span(
    board: Board, placed: dict[tuple[int, int], str], r: int, c: int, direction: str
) -> WordSpan:
    """The maximal run through (r, c) in a direction, over board and placed tiles."""
    dr, dc = _step(direction)

    def filled(rr: int, cc: int) -> bool:
        return (
            0 <= rr < SIZE
            and 0 <= cc < SIZE
            and ((rr, cc) in placed or not board.is_empty_at(rr, cc))
        )

    while filled(r - dr, c - dc):
        r, c = r - dr, c - dc
    squares = []
    while filled(r, c):
        squares.append((r, c))
        r, c = r + dr, c + dc
    text = "".join(placed.get(sq) or board.square(*sq) for sq in squares).upper()
    first = squares[0]
    return WordSpan(first[0], first[1], direction, tuple(squares), text)


def check_rack(tiles: Iterable[NewTile], rack: str) -> None:
    have = Counter(rack.upper())
    need = Counter("?" if tile.blank else tile.letter for tile in tiles)
    for letter, count in sorted(need.items()):
        if have[letter] < count:
            what = "blank" if letter == "?" else letter
            raise NotOnRack(f"the play needs {count} {what} but the rack has {have[letter]}")


def check_play(
    board: Board,
    tiles: Sequence[NewTile],
    lexicon: Lexicon,
    rack: str | None = None,
) -> CheckedPlay:
    """Check every rule of a play; return its words or raise the first IllegalPlay."""
    if not tiles:
        raise NoNewTile("a play places at least one new tile")
    placed: dict[tuple[int, int], str] = {}
    for tile in tiles:
        if not (0 <= tile.row < SIZE and 0 <= tile.col < SIZE):
            raise OffBoard(f"square {tile.row + 1},{tile.col + 1} is off the board")
        if not (len(tile.letter) == 1 and tile.letter.isascii() and tile.letter.isupper()):
            raise IllegalPlay(f"a tile must be a letter A-Z, not {tile.letter!r}")
        if not board.is_empty_at(tile.row, tile.col) or (tile.row, tile.col) in placed:
            raise SquareTaken(f"square {tile.row + 1},{tile.col + 1} already holds a tile")
        placed[(tile.row, tile.col)] = tile.letter
    rows = {tile.row for tile in tiles}
    cols = {tile.col for tile in tiles}
    if len(rows) > 1 and len(cols) > 1:
        raise NotInLine("the new tiles must lie in one straight line, across or down")
    if len(tiles) > 1:
        direction = ACROSS if len(rows) == 1 else DOWN
    else:
        # One tile: its across run is the main word when it has one.
        only = tiles[0]
        across = _span(board, placed, only.row, only.col, ACROSS)
        direction = ACROSS if len(across.squares) > 1 else DOWN
    first = min((tile.row, tile.col) for tile in tiles)
    main = _span(board, placed, first[0], first[1], direction)
    if any((tile.row, tile.col) not in main.squares for tile in tiles):
        raise NotContiguous("the new tiles must form one unbroken line with the board's letters")
    if len(main.squares) < 2:
        raise TooShort("a word has at least two letters")
    cross = []
    other = DOWN if direction == ACROSS else ACROSS
    for tile in sorted(tiles, key=lambda t: (t.row, t.col)):
        span = _span(board, placed, tile.row, tile.col, other)
        if len(span.squares) > 1:
            cross.append(span)
    if board.is_empty():
        if CENTRE not in placed:
            raise MissesCentre("the first word must cover the centre square (8,8)")
    elif len(main.squares) == len(tiles) and not cross:
        raise NotConnected("the new tiles must touch a word already on the board")
    if rack is not None:
        check_rack(tiles, rack)
    if main.text not in lexicon:
        raise NotAWord(f"{main.text} is not in the word list")
    for span in cross:
        if span.text not in lexicon:
            raise BadCrossWord(f"{span.text} (formed {span.direction}) is not in the word list")
    ordered = tuple(sorted(tiles, key=lambda t: (t.row, t.col)))
    return CheckedPlay(ordered, main, tuple(cross))
