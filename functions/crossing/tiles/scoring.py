"""The score of a legal play, square by square, with every bonus named.

Premium squares count only under new tiles. A blank is worth 0 wherever it
lands, but a word multiplier under it still multiplies the word. The rack
bonus (sweep/bingo) and Duel's bonuses are added after all multipliers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from crossing.tiles.board import Board
from crossing.tiles.play import CheckedPlay, WordSpan
from crossing.tiles.rules import RuleSet


@dataclass(frozen=True)
class SquareScore:
    row: int
    col: int
    letter: str
    value: int
    letter_multiplier: int
    word_multiplier: int
    new: bool
    blank: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "row": self.row + 1,
            "col": self.col + 1,
            "letter": self.letter,
            "value": self.value,
            "letter_multiplier": self.letter_multiplier,
            "word_multiplier": self.word_multiplier,
            "new": self.new,
            "blank": self.blank,
        }


@dataclass(frozen=True)
class WordScore:
    word: str
    row: int
    col: int
    direction: str
    score: int
    word_multiplier: int
    squares: tuple[SquareScore, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "word": self.word,
            "row": self.row + 1,
            "col": self.col + 1,
            "direction": self.direction,
            "score": self.score,
            "word_multiplier": self.word_multiplier,
            "squares": [square.to_json() for square in self.squares],
        }


@dataclass(frozen=True)
class Breakdown:
    words: tuple[WordScore, ...]
    bonuses: tuple[tuple[str, int], ...]
    total: int

    def to_json(self) -> dict[str, Any]:
        return {
            "words": [word.to_json() for word in self.words],
            "bonuses": [{"name": name, "points": points} for name, points in self.bonuses],
            "total": self.total,
        }


def _score_word(
    span: WordSpan, board: Board, new: dict[tuple[int, int], bool], rules: RuleSet, premiums: bool
) -> WordScore:
    squares = []
    word_sum = 0
    word_multiplier = 1
    for (r, c), letter in zip(span.squares, span.text, strict=True):
        is_new = (r, c) in new
        blank = new[(r, c)] if is_new else board.square(r, c).islower()
        value = 0 if blank else rules.values[letter]
        lm = rules.letter_multiplier(r, c) if is_new and premiums else 1
        wm = rules.word_multiplier(r, c) if is_new and premiums else 1
        word_sum += value * lm
        word_multiplier *= wm
        squares.append(SquareScore(r, c, letter, value, lm, wm, is_new, blank))
    return WordScore(
        span.text,
        span.row,
        span.col,
        span.direction,
        word_sum * word_multiplier,
        word_multiplier,
        tuple(squares),
    )


def bonuses_for(rules: RuleSet, tiles_used: int, words_formed: int) -> tuple[tuple[str, int], ...]:
    """Bonuses added after the word scores; the rack bonus follows tiles, not word length."""
    found = []
    if rules.rack_bonus and tiles_used == rules.rack_size:
        found.append((rules.rack_bonus_name, rules.rack_bonus))
    if points := rules.tiles_bonus(tiles_used):
        found.append(("tiles_used", points))
    if points := rules.words_bonus(words_formed):
        found.append(("words_formed", points))
    return tuple(found)


def score_play(board: Board, play: CheckedPlay, rules: RuleSet, premiums: bool = True) -> Breakdown:
    """Score a checked play on the board it was checked against.

    ``premiums=False`` is the "bonus tiles off" switch: face values only, with
    the rack bonus and Duel's bonuses still added.
    """
    new = {(tile.row, tile.col): tile.blank for tile in play.tiles}
    words = tuple(_score_word(span, board, new, rules, premiums) for span in play.words)
    bonuses = bonuses_for(rules, len(play.tiles), len(words))
    total = sum(word.score for word in words) + sum(points for _, points in bonuses)
    return Breakdown(words, bonuses, total)
