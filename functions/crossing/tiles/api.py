"""The Solver as one pure function over plain data: the CLI and the HTTP handler both call it.

Request: ``{"rules": str, "rack": str, "board": [15 strings] (optional, default
empty), "words": [str] (optional, replaces the word list), "top": int (optional,
default 10), "bonus": bool (optional, default true)}``. Unknown keys are ignored.
Response: ``{"plays": [{"word", "row", "col", "direction", "score", "tiles_used",
"leave", "equity", "breakdown"}]}``, best first, rows and columns 1-based;
``leave`` is the rack tiles the play keeps and ``equity`` its score plus what
that leave is worth (leaves.py).

Two more shapes of the same request:

- ``"all": true`` lists every legal play without breakdowns (a two-blank rack
  can have 40,000), as ``{"fields": [...], "plays": [[...]], "count": n}``, each
  play a row of ``fields``: plays that differ only in which letters the rack's
  blanks stand for are one row, the best-scoring way shown and the others in
  its ``variants`` (``[[word, score, leave, equity], ...]``).
- ``"play": {"row", "col", "direction", "word"}`` checks and scores that one
  play (1-based; lower case for a blank) and answers it with its breakdown, or
  refuses it with the rule it breaks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from crossing.tiles.board import BadBoard, Board
from crossing.tiles.leaves import LeaveValues, leave_of, leave_reader, leave_value
from crossing.tiles.lexicon import BadWordList, Lexicon
from crossing.tiles.movegen import Move, generate
from crossing.tiles.play import ACROSS, DOWN, IllegalPlay, check_play, tiles_for_word
from crossing.tiles.rules import RULE_SETS, RuleSet
from crossing.tiles.scoring import score_play

DEFAULT_TOP = 10


class BadRequest(ValueError):
    """Input the Solver cannot use; the message is one line meant for the user."""


@dataclass(frozen=True)
class Shipped:
    """What the Solver plays with unless a request brings its own word list: read by
    the caller (``crossing.game_files.shipped``), passed in."""

    lexicon: Lexicon
    leaves: Mapping[str, LeaveValues]  # per rule set's name; a rule set without: 0 each


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _rules(data: dict[str, Any]) -> RuleSet:
    name = data.get("rules")
    if not isinstance(name, str) or name not in RULE_SETS:
        raise BadRequest(f"rules must be one of {', '.join(RULE_SETS)}, not {name!r}")
    return RULE_SETS[name]


def _rack(data: dict[str, Any], rules: RuleSet) -> str:
    rack = data.get("rack")
    if not isinstance(rack, str):
        raise BadRequest("rack must be a string of letters A-Z, with ? for a blank")
    rack = rack.strip().upper()
    if not rack:
        raise BadRequest("the rack is empty")
    for letter in rack:
        if letter != "?" and not ("A" <= letter <= "Z"):
            raise BadRequest(f"bad rack tile {letter!r}: use letters A-Z, and ? for a blank")
    if len(rack) > rules.rack_size:
        raise BadRequest(f"the rack has {len(rack)} tiles; a rack holds at most {rules.rack_size}")
    blanks = rack.count("?")
    if blanks > rules.blanks:
        raise BadRequest(
            f"the rack has {_count(blanks, 'blank')}; "
            f"{rules.name} has {_count(rules.blanks, 'blank')} in the bag"
        )
    return rack


def _board(data: dict[str, Any]) -> Board:
    rows = data.get("board")
    if rows is None:
        return Board.empty()
    if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
        raise BadRequest("board must be a list of 15 strings of 15 squares")
    try:
        return Board.parse(rows)
    except BadBoard as error:
        raise BadRequest(str(error)) from None


def _lexicon(data: dict[str, Any], shipped: Lexicon) -> Lexicon:
    words = data.get("words")
    if words is None:
        return shipped
    if not isinstance(words, list) or not all(isinstance(word, str) for word in words):
        raise BadRequest("words must be a list of strings")
    try:
        lexicon = Lexicon.from_words(words)
    except BadWordList as error:
        raise BadRequest(str(error)) from None
    if not lexicon.root:
        raise BadRequest("the word list has no words of two or more letters")
    return lexicon


def _top(data: dict[str, Any]) -> int:
    top = data.get("top", DEFAULT_TOP)
    if top is None:
        return DEFAULT_TOP
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise BadRequest(f"top must be a whole number of at least 1, not {top!r}")
    return top


def _bonus(data: dict[str, Any]) -> bool:
    bonus = data.get("bonus", True)
    if not isinstance(bonus, bool):
        raise BadRequest(f"bonus must be true or false, not {bonus!r}")
    return bonus


def _leave(values: LeaveValues, rack: str, move: Move, score: int) -> tuple[str, float]:
    leave = leave_of(rack, move)
    return leave, round(score + leave_value(values, leave), 1)


def play_json(
    board: Board,
    move: Move,
    rules: RuleSet,
    lexicon: Lexicon,
    bonus: bool,
    rack: str,
    values: LeaveValues,
) -> dict[str, Any]:
    # The reference scorer writes the breakdown; movegen's own sum must agree with it.
    checked = check_play(board, move.tiles, lexicon)
    breakdown = score_play(board, checked, rules, premiums=bonus)
    leave, equity = _leave(values, rack, move, breakdown.total)
    return {
        "word": move.word,
        "row": move.row + 1,
        "col": move.col + 1,
        "direction": move.direction,
        "score": breakdown.total,
        "tiles_used": len(move.tiles),
        "leave": leave,
        "equity": equity,
        "breakdown": breakdown.to_json(),
    }


def _all(data: dict[str, Any]) -> bool:
    every = data.get("all", False)
    if not isinstance(every, bool):
        raise BadRequest(f"all must be true or false, not {every!r}")
    return every


def _play(data: dict[str, Any], board: Board, rack: str, lexicon: Lexicon) -> Move:
    play = data["play"]
    if not isinstance(play, dict):
        raise BadRequest("play must be an object with row, col, direction and word")
    row, col = _line_number(play, "row"), _line_number(play, "col")
    direction, word = play.get("direction"), play.get("word")
    if direction not in (ACROSS, DOWN):
        raise BadRequest(f"play direction must be across or down, not {direction!r}")
    if not isinstance(word, str) or not word.isascii() or not word.isalpha():
        raise BadRequest("play word must be letters A-Z, lower case for a blank")
    try:
        tiles = tiles_for_word(board, row - 1, col - 1, direction, word)
        check_play(board, tiles, lexicon, rack=rack)
    except IllegalPlay as error:
        raise BadRequest(str(error)) from None
    return Move(row - 1, col - 1, direction, word, tiles, 0)


def _line_number(play: dict[str, Any], name: str) -> int:
    value = play.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 15:
        raise BadRequest(f"play {name} must be a whole number 1-15, not {value!r}")
    return value


# Every play is many thousands: each is a short row, not an object with a breakdown.
ROW_FIELDS = (
    "word",
    "row",
    "col",
    "direction",
    "score",
    "tiles_used",
    "leave",
    "equity",
    "variants",
)


def grouped(moves: list[Move], values: LeaveValues, rack: str) -> list[list[Any]]:
    """One row per placement and spelling (``ROW_FIELDS``); its other blank choices as
    ``[word, score, leave, equity]`` variants. ``moves`` is best first, so a row shows
    its best-scoring way."""
    rows: dict[tuple[int, int, str, str], list[Any]] = {}
    read = leave_reader(values, rack)
    for move in moves:
        leave, worth = read(move)
        score = move.score
        word = move.word
        key = (move.row, move.col, move.direction, word.upper())
        row = rows.get(key)
        if row is None:
            rows[key] = [
                word,
                move.row + 1,
                move.col + 1,
                move.direction,
                score,
                len(move.tiles),
                leave,
                round(score + worth, 1),
                [],
            ]
        else:
            row[8].append([word, score, leave, round(score + worth, 1)])
    return list(rows.values())


def solve_request(data: dict[str, Any], shipped: Shipped) -> dict[str, Any]:
    """Best plays for a request; raises BadRequest with one clear line on bad input."""
    if not isinstance(data, dict):
        raise BadRequest("the request must be a JSON object")
    rules = _rules(data)
    rack = _rack(data, rules)
    board = _board(data)
    top = _top(data)
    bonus = _bonus(data)
    try:
        board.check_possible(rules, rack)
    except BadBoard as error:
        raise BadRequest(str(error)) from None
    every = _all(data)
    lexicon = _lexicon(data, shipped.lexicon)
    values = shipped.leaves.get(rules.name, {})
    if data.get("play") is not None:
        move = _play(data, board, rack, lexicon)
        return {"plays": [play_json(board, move, rules, lexicon, bonus, rack, values)]}
    if every:
        moves = generate(board, rack, rules, lexicon, premiums=bonus)
        rows = grouped(moves, values, rack)
        return {"fields": list(ROW_FIELDS), "plays": rows, "count": len(moves)}
    moves = generate(board, rack, rules, lexicon, premiums=bonus, top=top)
    return {
        "plays": [play_json(board, move, rules, lexicon, bonus, rack, values) for move in moves]
    }
