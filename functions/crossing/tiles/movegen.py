"""Every legal play for a board and a rack (Appel & Jacobson's anchor method on a DAWG).

The search runs one line at a time: rows for across plays, then the same code on
the transposed board for down plays. Each empty square gets a cross-check, the
set of letters that make a valid word with the tiles above and below it, as an
int bit mask (bit t for tile t). Plays grow from anchors (empty squares next to
a tile, or the centre on an empty board): a left part goes only over empty
squares that are not anchors, so every play is found from exactly one anchor.

Scores are summed while the search walks, so plays can be ranked without a
second pass; scoring.py stays the reference, and the tests hold the two equal.
"""

from __future__ import annotations

from dataclasses import dataclass

from crossing.tiles.board import Board
from crossing.tiles.lexicon import Lexicon, letter_of, tile_of
from crossing.tiles.play import ACROSS, DOWN, NewTile
from crossing.tiles.rules import CENTRE, SIZE, RuleSet
from crossing.tiles.scoring import bonuses_for

ALL_LETTERS = sum(1 << t for t in range(1, 27))
BLANK = 0


@dataclass(frozen=True)
class Move:
    """One legal play. ``word`` spells the whole line, lower case for blanks."""

    row: int
    col: int
    direction: str
    word: str
    tiles: tuple[NewTile, ...]
    score: int

    def sort_key(self) -> tuple:
        return (
            -self.score,
            self.direction != ACROSS,
            self.row,
            self.col,
            tuple((t.row, t.col, t.letter, t.blank) for t in self.tiles),
        )


def rack_counts(rack: str) -> list[int]:
    """Tile counts indexed by tile number; index 0 counts blanks (``?``)."""
    counts = [0] * 27
    for letter in rack:
        counts[BLANK if letter == "?" else tile_of(letter)] += 1
    return counts


class _Pass:
    """One direction's search over the rows of a (possibly transposed) board."""

    def __init__(
        self,
        rows: tuple[str, ...],
        lexicon: Lexicon,
        rules: RuleSet,
        premiums: bool,
        transposed: bool,
        rack: list[int],
        found: list[tuple[int, str, int, int, int, tuple[tuple[int, int, bool], ...]]],
    ) -> None:
        self.rows = rows
        self.lexicon = lexicon
        self.rack = rack
        self.found = found
        self.transposed = transposed
        self.direction = DOWN if transposed else ACROSS
        values = [0] * 27
        for letter, value in rules.values.items():
            values[tile_of(letter)] = value
        self.values = values
        self.tiles = [[0 if sq == "." else tile_of(sq) for sq in row] for row in rows]
        self.face = [
            [0 if (sq == "." or sq.islower()) else values[tile_of(sq)] for sq in row]
            for row in rows
        ]

        def at(r: int, c: int) -> tuple[int, int]:
            return (c, r) if transposed else (r, c)

        self.lm = [
            [rules.letter_multiplier(*at(r, c)) if premiums else 1 for c in range(SIZE)]
            for r in range(SIZE)
        ]
        self.wm = [
            [rules.word_multiplier(*at(r, c)) if premiums else 1 for c in range(SIZE)]
            for r in range(SIZE)
        ]
        most_words = SIZE + 1
        self.bonus = [
            [
                sum(points for _, points in bonuses_for(rules, used, words))
                for words in range(most_words + 1)
            ]
            for used in range(rules.rack_size + 1)
        ]

    def _cross_checks(self, r: int) -> tuple[list[int], list[int], list[int]]:
        """For each square of row r: allowed-letter mask, cross-word flag, cross-word tile sum."""
        tiles, face = self.tiles, self.face
        lexicon = self.lexicon
        masks = [0] * SIZE
        crosses = [0] * SIZE
        sums = [0] * SIZE
        for c in range(SIZE):
            if tiles[r][c]:
                continue
            top = r
            while top > 0 and tiles[top - 1][c]:
                top -= 1
            bottom = r
            while bottom < SIZE - 1 and tiles[bottom + 1][c]:
                bottom += 1
            if top == r and bottom == r:
                masks[c] = ALL_LETTERS
                continue
            crosses[c] = 1
            sums[c] = sum(face[i][c] for i in range(top, bottom + 1) if i != r)
            prefix = lexicon.walk(tiles[i][c] for i in range(top, r))
            if prefix is None:
                continue
            suffix = [tiles[i][c] for i in range(r + 1, bottom + 1)]
            mask = 0
            for tile, (accepts, child) in lexicon.arcs(prefix[1]).items():
                if suffix:
                    end = lexicon.walk(suffix, child) if child else None
                    if end is not None and end[0]:
                        mask |= 1 << tile
                elif accepts:
                    mask |= 1 << tile
            masks[c] = mask
        return masks, crosses, sums

    def run(self, anchors_only_centre: bool) -> None:
        tiles = self.tiles
        for r in range(SIZE):
            row_tiles = tiles[r]
            if anchors_only_centre:
                if r != CENTRE[0]:
                    continue
                anchors = [CENTRE[1]]
            else:
                anchors = [
                    c
                    for c in range(SIZE)
                    if not row_tiles[c]
                    and (
                        (c > 0 and row_tiles[c - 1])
                        or (c < SIZE - 1 and row_tiles[c + 1])
                        or (r > 0 and tiles[r - 1][c])
                        or (r < SIZE - 1 and tiles[r + 1][c])
                    )
                ]
            if anchors:
                self._row(r, anchors)

    def _row(self, r: int, anchors: list[int]) -> None:
        masks, crosses, sums = self._cross_checks(r)
        row_tiles = self.tiles[r]
        row_face = self.face[r]
        lm = self.lm[r]
        wm = self.wm[r]
        values = self.values
        rack = self.rack
        found = self.found
        bonus = self.bonus
        lexicon = self.lexicon
        cache = lexicon._arcs
        arcs_of = lexicon.arcs
        skip_single_with_cross = self.transposed
        placed: list[tuple[int, int, bool]] = []
        rack_tiles = [t for t in range(1, 27) if rack[t]]
        is_anchor = [False] * SIZE
        for c in anchors:
            is_anchor[c] = True
        anchor = 0
        start = 0
        row_key = r

        def record(end: int, score: int) -> None:
            found.append((score, self.direction, row_key, start, end, tuple(placed)))

        def extend(c: int, idx: int, accepts: bool, msum: int, wmul: int, xtot: int, nx: int):
            if c < SIZE:
                t = row_tiles[c]
                if t:
                    kids = cache.get(idx) or arcs_of(idx)
                    arc = kids.get(t)
                    if arc is not None:
                        extend(c + 1, arc[1], arc[0], msum + row_face[c], wmul, xtot, nx)
                    return
            if accepts and c > anchor and c - start >= 2:
                used = len(placed)
                if not (used == 1 and skip_single_with_cross and nx):
                    record(c, msum * wmul + xtot + bonus[used][nx + 1])
            if c >= SIZE or not idx:
                return
            mask = masks[c]
            if not mask:
                return
            kids = cache.get(idx) or arcs_of(idx)
            lmc = lm[c]
            wmc = wm[c]
            cross = crosses[c]
            xs = sums[c]
            if rack[BLANK]:
                candidates = kids.items()
            else:
                candidates = [(t, kids[t]) for t in rack_tiles if rack[t] and t in kids]
            for t, (a, nxt) in candidates:
                if not (mask >> t) & 1:
                    continue
                if rack[t]:
                    rack[t] -= 1
                    placed.append((c, t, False))
                    v = values[t] * lmc
                    extend(
                        c + 1,
                        nxt,
                        a,
                        msum + v,
                        wmul * wmc,
                        xtot + (xs + v) * wmc if cross else xtot,
                        nx + cross,
                    )
                    placed.pop()
                    rack[t] += 1
                if rack[BLANK]:
                    rack[BLANK] -= 1
                    placed.append((c, t, True))
                    extend(
                        c + 1,
                        nxt,
                        a,
                        msum,
                        wmul * wmc,
                        xtot + xs * wmc if cross else xtot,
                        nx + cross,
                    )
                    placed.pop()
                    rack[BLANK] += 1

        def from_left_part(idx: int, part: list[tuple[int, bool]]) -> None:
            nonlocal start
            start = anchor - len(part)
            msum = 0
            wmul = 1
            for i, (t, blank) in enumerate(part):
                c = start + i
                if not blank:
                    msum += values[t] * lm[c]
                wmul *= wm[c]
                placed.append((c, t, blank))
            extend(anchor, idx, False, msum, wmul, 0, 0)
            del placed[len(placed) - len(part) :]

        def left_parts(idx: int, limit: int, part: list[tuple[int, bool]]) -> None:
            from_left_part(idx, part)
            if not limit:
                return
            kids = cache.get(idx) or arcs_of(idx)
            for t, (_, nxt) in kids.items():
                if not nxt:
                    continue
                if rack[t]:
                    rack[t] -= 1
                    part.append((t, False))
                    left_parts(nxt, limit - 1, part)
                    part.pop()
                    rack[t] += 1
                if rack[BLANK]:
                    rack[BLANK] -= 1
                    part.append((t, True))
                    left_parts(nxt, limit - 1, part)
                    part.pop()
                    rack[BLANK] += 1

        in_rack = sum(rack)
        for anchor in anchors:
            if anchor > 0 and row_tiles[anchor - 1]:
                first = anchor - 1
                while first > 0 and row_tiles[first - 1]:
                    first -= 1
                prefix = lexicon.walk(row_tiles[i] for i in range(first, anchor))
                if prefix is None or not prefix[1]:
                    continue
                start = first
                msum = sum(row_face[i] for i in range(first, anchor))
                extend(anchor, prefix[1], False, msum, 1, 0, 0)
            else:
                limit = 0
                c = anchor - 1
                while c >= 0 and not row_tiles[c] and not is_anchor[c]:
                    limit += 1
                    c -= 1
                left_parts(lexicon.root, min(limit, in_rack - 1), [])

    def move(self, record: tuple) -> Move:
        score, _, r, start, end, placed = record
        line = list(self.rows[r][start:end])
        new_tiles = []
        for c, t, blank in placed:
            letter = letter_of(t)
            line[c - start] = letter.lower() if blank else letter
            row, col = (c, r) if self.transposed else (r, c)
            new_tiles.append(NewTile(row, col, letter, blank))
        row, col = (start, r) if self.transposed else (r, start)
        new_tiles.sort(key=lambda tile: (tile.row, tile.col))
        return Move(row, col, self.direction, "".join(line), tuple(new_tiles), score)


def generate(
    board: Board,
    rack: str,
    rules: RuleSet,
    lexicon: Lexicon,
    premiums: bool = True,
    top: int | None = None,
) -> list[Move]:
    """Every legal play, best score first (ties in a fixed order); at most ``top``."""
    counts = rack_counts(rack)
    if not sum(counts) or lexicon.root == 0:
        return []
    found: list = []
    opening = board.is_empty()
    passes = (
        _Pass(board.rows, lexicon, rules, premiums, False, counts, found),
        _Pass(board.transposed().rows, lexicon, rules, premiums, True, counts, found),
    )
    for search in passes:
        search.run(opening)
    by_direction = {ACROSS: passes[0], DOWN: passes[1]}
    # Rank cheaply on the raw records first; build Move objects only for the kept ones.
    found.sort(key=lambda rec: (-rec[0], rec[1] != ACROSS, *_origin(rec), rec[5]))
    kept = found if top is None else found[:top]
    moves = [by_direction[rec[1]].move(rec) for rec in kept]
    moves.sort(key=Move.sort_key)
    return moves


def _origin(rec: tuple) -> tuple[int, int]:
    _, direction, r, start, _, _ = rec
    return (start, r) if direction == DOWN else (r, start)
