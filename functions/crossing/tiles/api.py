"""The Solver as one pure function over plain data: the CLI and the HTTP handler both call it.

Request: ``{"rules": str, "rack": str, "board": [15 strings] (optional, default
empty), "words": [str] (optional, replaces the word list), "top": int (optional,
default 10), "bonus": bool (optional, default true)}``. Unknown keys are ignored.
Response: ``{"plays": [{"word", "row", "col", "direction", "score", "tiles_used",
"breakdown"}]}``, best first, rows and columns 1-based.
"""

from __future__ import annotations

from typing import Any

from crossing.tiles.board import BadBoard, Board
from crossing.tiles.lexicon import BadWordList, Lexicon, default_lexicon
from crossing.tiles.movegen import Move, generate
from crossing.tiles.play import check_play
from crossing.tiles.rules import RULE_SETS, RuleSet
from crossing.tiles.scoring import score_play

DEFAULT_TOP = 10


class BadRequest(ValueError):
    """Input the Solver cannot use; the message is one line meant for the user."""


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


def _lexicon(data: dict[str, Any]) -> Lexicon:
    words = data.get("words")
    if words is None:
        return default_lexicon()
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


def play_json(board: Board, move: Move, rules: RuleSet, lexicon: Lexicon, bonus: bool) -> dict:
    # The reference scorer writes the breakdown; movegen's own sum must agree with it.
    checked = check_play(board, move.tiles, lexicon)
    breakdown = score_play(board, checked, rules, premiums=bonus)
    return {
        "word": move.word,
        "row": move.row + 1,
        "col": move.col + 1,
        "direction": move.direction,
        "score": breakdown.total,
        "tiles_used": len(move.tiles),
        "breakdown": breakdown.to_json(),
    }


def solve_request(data: dict[str, Any]) -> dict[str, Any]:
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
    lexicon = _lexicon(data)
    moves = generate(board, rack, rules, lexicon, premiums=bonus, top=top)
    return {"plays": [play_json(board, move, rules, lexicon, bonus) for move in moves]}
