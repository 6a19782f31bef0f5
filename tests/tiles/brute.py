"""A slow, obviously-correct play finder for checking the move generator.

It knows nothing of anchors, cross-check masks or the word graph's shape: it
tries every word of the list in every line segment, every way of taking its new
letters from the rack (blanks included), and keeps what check_play accepts.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from crossing.tiles.board import Board
from crossing.tiles.lexicon import Lexicon
from crossing.tiles.play import IllegalPlay, NewTile, check_play
from crossing.tiles.rules import SIZE, RuleSet
from crossing.tiles.scoring import score_play

PlayKey = tuple[tuple[int, int, str, bool], ...]


def _could_spell(word: str, pool: Counter, blanks: int) -> bool:
    short = sum(max(0, n - pool[letter]) for letter, n in Counter(word).items())
    return short <= blanks


def brute_force_plays(
    board: Board,
    rack: str,
    rules: RuleSet,
    words: list[str],
    lexicon: Lexicon,
    premiums: bool = True,
) -> dict[PlayKey, tuple[str, int]]:
    """``{tiles: (direction, score)}`` for every legal play."""
    have = Counter(letter for letter in rack if letter != "?")
    blanks = rack.count("?")
    pool = have + Counter(square.upper() for _, _, square in board.tiles())
    candidates = [w for w in {w.upper() for w in words} if len(w) > 1]
    candidates = sorted(w for w in candidates if _could_spell(w, pool, blanks))
    # Cheap necessary conditions only narrow the words tried; check_play decides.
    from_rack: dict[int, list[str]] = {}
    by_letter: dict[tuple[int, int, str], list[str]] = {}
    for word in candidates:
        if _could_spell(word, have, blanks):
            from_rack.setdefault(len(word), []).append(word)
        for i, letter in enumerate(word):
            by_letter.setdefault((len(word), i, letter), []).append(word)
    opening = board.is_empty()
    found: dict[PlayKey, tuple[str, int]] = {}
    for transposed in (False, True):
        for line in range(SIZE):

            def at(i: int, line: int = line, transposed: bool = transposed) -> tuple[int, int]:
                return (i, line) if transposed else (line, i)

            squares = [board.square(*at(i)) for i in range(SIZE)]
            beside = [
                any(0 <= line + d < SIZE and board.square(*at(i, line + d)) != "." for d in (-1, 1))
                for i in range(SIZE)
            ]
            for start in range(SIZE):
                if start > 0 and squares[start - 1] != ".":
                    continue
                for end in range(start + 2, SIZE + 1):
                    if end < SIZE and squares[end] != ".":
                        continue
                    empties = [i for i in range(start, end) if squares[i] == "."]
                    if not empties or len(empties) > len(rack):
                        continue
                    fixed = [i for i in range(start, end) if squares[i] != "."]
                    if fixed:
                        first = fixed[0]
                        words_here = by_letter.get(
                            (end - start, first - start, squares[first].upper()), []
                        )
                    elif (opening and not (start <= 7 < end and line == 7)) or (
                        not opening and not any(beside[i] for i in empties)
                    ):
                        continue
                    else:
                        words_here = from_rack.get(end - start, [])
                    for word in words_here:
                        if any(word[i - start] != squares[i].upper() for i in fixed):
                            continue
                        needed = [word[i - start] for i in empties]
                        for count in range(blanks + 1):
                            for chosen in combinations(range(len(needed)), count):
                                real = Counter(
                                    letter for k, letter in enumerate(needed) if k not in chosen
                                )
                                if any(real[letter] > have[letter] for letter in real):
                                    continue
                                tiles = tuple(
                                    NewTile(*at(i), needed[k], k in chosen)
                                    for k, i in enumerate(empties)
                                )
                                try:
                                    checked = check_play(board, tiles, lexicon, rack)
                                except IllegalPlay:
                                    continue
                                score = score_play(board, checked, rules, premiums).total
                                key = tuple(
                                    (t.row, t.col, t.letter, t.blank) for t in checked.tiles
                                )
                                found[key] = (checked.main.direction, score)
    return found
