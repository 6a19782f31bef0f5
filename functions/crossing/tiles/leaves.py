"""What the tiles a play keeps are worth to the next turn: the leave, and score + leave.

The values come from our own self-play (``scripts/build_leaves.py``, seed and game
count stored with them in ``data/leaves.json``, which ``crossing.game_files`` reads:
here they come in as a rule set's ``{feature: value}``): for every turn of score-greedy games,
the points the same player made on their next turn were fitted, by least squares, as
a constant plus one value per kept tile plus one for each repeated tile. A tile's value
is therefore how many points keeping it is worth next turn against drawing a fresh
tile instead; an empty leave is worth 0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from itertools import product

from crossing.tiles.board import Board
from crossing.tiles.lexicon import Lexicon
from crossing.tiles.movegen import Move, generate
from crossing.tiles.rules import LETTERS, RuleSet

FEATURES = (*LETTERS, "?", "duplicate")

LeaveValues = Mapping[str, float]  # one rule set's fitted value per feature; {}: none fitted


def features(leave: str) -> list[int]:
    """The fitted inputs for a leave: tiles of each letter, blanks, repeats."""
    counts = Counter(leave)
    return [counts.get(f, 0) for f in FEATURES[:-1]] + [
        sum(n - 1 for n in counts.values() if n > 1)
    ]


def leave_value(values: LeaveValues, leave: str) -> float:
    if not values:
        return 0.0
    found = zip(FEATURES, features(leave), strict=True)
    return sum(x * values.get(name, 0.0) for name, x in found if x)


def leave_of(rack: str, move: Move) -> str:
    """The rack tiles a play does not use, in alphabetical order (``?`` last)."""
    left = Counter(rack.upper())
    for tile in move.tiles:
        left["?" if tile.blank else tile.letter] -= 1
    return _in_order(left)


def _in_order(tiles: Counter[str]) -> str:
    return "".join(sorted(tiles.elements(), key=lambda t: (t == "?", t)))


def equity(values: LeaveValues, rack: str, move: Move) -> float:
    return move.score + leave_value(values, leave_of(rack, move))


def leave_reader(values: LeaveValues, rack: str) -> Callable[[Move], tuple[str, float]]:
    """``move -> (leave, its value)`` for many plays from one rack.

    The plays of one rack keep one of at most 128 sub-racks: each is worked out once,
    keyed by the tiles used.
    """
    known: dict[str, tuple[str, float]] = {}
    blank = "?"

    def read(move: Move) -> tuple[str, float]:
        used = "".join(sorted([blank if t.blank else t.letter for t in move.tiles]))
        found = known.get(used)
        if found is None:
            leave = leave_of(rack, move)
            found = known[used] = (leave, leave_value(values, leave))
        return found

    return read


def leaves_by_use(values: LeaveValues, rack: str) -> list[tuple[str, float]]:
    """(leave, its value) for every choice of tiles a play can take from ``rack``: what
    the compiled rows look up instead of reading each play (``movegen.all_rows_json``).

    Kinds of tile are numbered ``?`` 0, then A-Z 1-26; the choice using ``u[k]`` of the
    rack's ``n[k]`` tiles of kind ``k`` is entry ``sum(u[k] * stride[k])``, where a
    kind's stride is the product of ``n[j] + 1`` over the rack's kinds before it.
    """
    held = Counter(rack.upper())
    # product() turns its last range fastest, and the first kind must count fastest.
    kinds = sorted(held, key=lambda t: (t != "?", t), reverse=True)
    table: list[tuple[str, float]] = []
    for used in product(*(range(held[kind] + 1) for kind in kinds)):
        leave = _in_order(Counter({k: held[k] - u for k, u in zip(kinds, used, strict=True)}))
        table.append((leave, leave_value(values, leave)))
    return table


def by_equity(
    board: Board, rack: str, rules: RuleSet, lexicon: Lexicon, values: LeaveValues
) -> Move | None:
    """The play with the highest score + leave (the first of equals in the engine's order)."""
    moves = generate(board, rack, rules, lexicon)
    if not moves:
        return None
    read = leave_reader(values, rack)
    best, best_equity = None, float("-inf")
    for move in moves:
        value = move.score + read(move)[1]
        if value > best_equity:
            best, best_equity = move, value
    return best
