"""The Solver as one pure function: the CLI and the HTTP handler both call it.

Request: a :class:`SolveRequest`, its shape and types already checked where it
arrived (``crossing.solver_request``: the HTTP body or the CLI's flags); this module
trusts them and judges only what needs the game: the rack's tiles against the rule
set, the board's squares, the word list's words and a play's legality.
Response: ``{"plays": [{"word", "row", "col", "direction", "score", "tiles_used",
"leave", "equity", "breakdown"}]}``, best first, rows and columns 1-based;
``leave`` is the rack tiles the play keeps and ``equity`` its score plus what
that leave is worth (leaves.py).

Two more shapes of the same request:

- ``all`` lists every legal play without breakdowns (a two-blank rack
  can have 96,000), as ``{"fields": [...], "plays": [[...]], "count": n}``, each
  play a row of ``fields``: plays that differ only in which letters the rack's
  blanks stand for are one row, the best-scoring way shown and the others in
  its ``variants`` (``[[word, score, leave, equity], ...]``). The compiled search
  writes these rows as JSON text itself, without holding the interpreter
  (``solve_text`` sends them on as they are); ``grouped`` is the same in Python,
  for when it is not built.
- ``play`` (:class:`PlayAsked`) checks and scores that one
  play (1-based; lower case for a blank) and answers it with its breakdown, or
  refuses it with the rule it breaks.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from crossing.tiles.board import BadBoard, Board
from crossing.tiles.leaves import (
    LeaveValues,
    leave_of,
    leave_reader,
    leave_value,
    leaves_by_use,
)
from crossing.tiles.lexicon import BadWordList, Lexicon
from crossing.tiles.movegen import Move, all_rows_json, compiled_available, generate
from crossing.tiles.play import IllegalPlay, check_play, tiles_for_word
from crossing.tiles.rules import RULE_SETS, SIZE, RuleSet
from crossing.tiles.scoring import score_play

DEFAULT_TOP = 10


class BadRequest(ValueError):
    """Input the Solver cannot use; the message is one line meant for the user."""


@dataclass(frozen=True)
class PlayAsked:
    """One play to check and score: 1-based, ``direction`` across or down, ``word``
    letters A-Z (lower case for a blank)."""

    row: int
    col: int
    direction: str
    word: str


@dataclass(frozen=True)
class SolveRequest:
    """A solve request of the right shape: ``rules`` names a rule set, ``top`` is at
    least 1; the letters in ``rack``, ``board`` and ``words`` are not yet judged."""

    rules: str
    rack: str
    board: Sequence[str] | None = None  # 15 rows of 15 squares; None: an empty board
    words: Sequence[str] | None = None  # replaces the shipped word list
    top: int = DEFAULT_TOP
    bonus: bool = True
    all: bool = False  # every play, as short rows
    play: PlayAsked | None = None


@dataclass(frozen=True)
class Shipped:
    """What the Solver plays with unless a request brings its own word list: read by
    the caller (``crossing.game_files.shipped``), passed in."""

    lexicon: Lexicon
    leaves: Mapping[str, LeaveValues]  # per rule set's name; a rule set without: 0 each


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _rack(text: str, rules: RuleSet) -> str:
    rack = text.strip().upper()
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


def _board(rows: Sequence[str] | None) -> Board:
    if rows is None:
        return Board.empty()
    try:
        return Board.parse(rows)
    except BadBoard as error:
        raise BadRequest(str(error)) from None


def _lexicon(words: Sequence[str] | None, shipped: Lexicon) -> Lexicon:
    if words is None:
        return shipped
    # No play is longer than the board, so a longer word cannot matter; left in, one of
    # thousands of letters would take the compiler as many calls deep. Blanked rather
    # than dropped, so a bad word's line number is still its own.
    playable = ["" if len(word.strip()) > SIZE else word for word in words]
    try:
        lexicon = Lexicon.from_words(playable)
    except BadWordList as error:
        raise BadRequest(str(error)) from None
    if not lexicon.root:
        raise BadRequest("the word list has no words of two or more letters")
    return lexicon


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


def _play(play: PlayAsked, board: Board, rack: str, lexicon: Lexicon) -> Move:
    row, col = play.row - 1, play.col - 1
    try:
        tiles = tiles_for_word(board, row, col, play.direction, play.word)
        check_play(board, tiles, lexicon, rack=rack)
    except IllegalPlay as error:
        raise BadRequest(str(error)) from None
    return Move(row, col, play.direction, play.word, tiles, 0)


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


class _Judged(NamedTuple):
    """A request whose letters, squares and words the game allows."""

    rules: RuleSet
    rack: str
    board: Board
    lexicon: Lexicon
    values: LeaveValues


def _judge(request: SolveRequest, shipped: Shipped) -> _Judged:
    rules = RULE_SETS[request.rules]
    rack = _rack(request.rack, rules)
    board = _board(request.board)
    try:
        board.check_possible(rules, rack)
    except BadBoard as error:
        raise BadRequest(str(error)) from None
    lexicon = _lexicon(request.words, shipped.lexicon)
    return _Judged(rules, rack, board, lexicon, shipped.leaves.get(rules.name, {}))


def _all_rows(asked: _Judged, bonus: bool) -> tuple[str, int]:
    """Every play's row as compact JSON text (an array), and the number of plays."""
    rules, rack, board, lexicon, values = asked
    if compiled_available():
        return all_rows_json(board, rack, rules, lexicon, bonus, leaves_by_use(values, rack))
    moves = generate(board, rack, rules, lexicon, premiums=bonus)
    return json.dumps(grouped(moves, values, rack), separators=(",", ":")), len(moves)


def _lists_all(request: SolveRequest) -> bool:
    return request.all and request.play is None  # a play asked for is answered alone


def solve_request(request: SolveRequest, shipped: Shipped) -> dict[str, Any]:
    """Best plays for a request; raises BadRequest with one clear line on letters,
    squares, words or a play the game does not allow."""
    asked = _judge(request, shipped)
    rules, rack, board, lexicon, values = asked
    top, bonus = request.top, request.bonus
    if request.play is not None:
        move = _play(request.play, board, rack, lexicon)
        return {"plays": [play_json(board, move, rules, lexicon, bonus, rack, values)]}
    if _lists_all(request):
        rows, count = _all_rows(asked, bonus)
        return {"fields": list(ROW_FIELDS), "plays": json.loads(rows), "count": count}
    moves = generate(board, rack, rules, lexicon, premiums=bonus, top=top)
    return {
        "plays": [play_json(board, move, rules, lexicon, bonus, rack, values) for move in moves]
    }


_FIELDS_JSON = json.dumps(ROW_FIELDS, separators=(",", ":"))


def solve_text(request: SolveRequest, shipped: Shipped) -> str:
    """``solve_request``'s answer as compact JSON text, as the HTTP API sends it. The
    rows of ``all`` go in as the compiled search wrote them: a two-blank rack's 3 MB
    are never Python objects, so the interpreter stays free for the server's other
    threads."""
    if not _lists_all(request):
        return json.dumps(solve_request(request, shipped), separators=(",", ":"))
    rows, count = _all_rows(_judge(request, shipped), request.bonus)
    return f'{{"fields":{_FIELDS_JSON},"plays":{rows},"count":{count}}}'
