"""Every legal play for a board and a rack (Appel & Jacobson's anchor method on a DAWG).

The search runs one line at a time: rows for across plays, then the same code on
the transposed board for down plays. Each empty square gets a cross-check, the
set of letters that make a valid word with the tiles above and below it, as an
int bit mask (bit t for tile t). Plays grow from anchors (empty squares next to
a tile, or the centre on an empty board): a left part goes only over empty
squares that are not anchors, so every play is found from exactly one anchor.

The search spells letters only; which of them come from blanks is settled
when a word is found, so a rack with blanks never walks the same letters twice.
Scores are summed while the search walks, so plays can be ranked without a
second pass; scoring.py stays the reference, and the tests hold the two equal.

The same search is compiled in ``_movegen.c`` (built by ``pip install``);
``generate`` uses it when it imports and this module's Python otherwise. The
Python here is the reference: a hypothesis test holds the two equal play for
play. Asked for the top N, the compiled search bounds each anchor's best
possible score and skips anchors that cannot reach the N-th best found. It
searches with the GIL released (only building the list of Moves holds it), so
searches on worker threads run beside each other and beside an event loop.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from functools import cache
from itertools import combinations
from typing import NamedTuple

from crossing.tiles.board import Board
from crossing.tiles.lexicon import Lexicon, letter_of, tile_of
from crossing.tiles.play import ACROSS, DOWN, NewTile
from crossing.tiles.rules import CENTRE, SIZE, RuleSet
from crossing.tiles.scoring import bonuses_for

ALL_LETTERS = sum(1 << t for t in range(1, 27))
BLANK = 0
_UPPER = "." + "".join(letter_of(t) for t in range(1, 27))
_LOWER = _UPPER.lower()
_make = tuple.__new__

# A play found by the Python search, sorting best first:
# (-score, 0 across / 1 down, row, col, ((col in line, tile, blank), ...), end col).
_Record = tuple[int, int, int, int, tuple[tuple[int, int, bool], ...], int]
# Left parts (state index, tiles) fitting one anchor constraint, and how far they are scanned.
_Viable = dict[tuple[int, int], tuple[list[tuple[int, tuple[int, ...]]], list[int]]]

try:
    from crossing.tiles import _movegen as _compiled
except ImportError:  # built without a C compiler: the Python search serves alone
    _compiled = None  # type: ignore[assignment]  # the module, or None when not built


class Move(NamedTuple):
    """One legal play. ``word`` spells the whole line, lower case for blanks."""

    row: int
    col: int
    direction: str
    word: str
    tiles: tuple[NewTile, ...]
    score: int

    def sort_key(self) -> tuple[int, bool, int, int, tuple[tuple[int, int, str, bool], ...]]:
        """The ranking: score, then across before down, then position, then tiles."""
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
        parts: list[tuple[int, tuple[int, ...]]],
        viable: _Viable,
        found: list[_Record],
    ) -> None:
        self.rows = rows
        self.parts = parts
        # (letters allowed on the anchor, tile right of it) -> (left parts that fit,
        # how far down ``parts`` they have been looked for); shared by both passes.
        self.viable = viable
        # Raw plays: (-score, 0 across / 1 down, row, col, ((square, tile, blank), ...), end).
        self.found = found
        self.rack_mask = (
            ALL_LETTERS if rack[BLANK] else sum(1 << t for t in range(1, 27) if rack[t])
        )
        self.lexicon = lexicon
        self.rack = rack
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
            for used in range(max(rules.rack_size, SIZE) + 1)
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
        blanks = rack[BLANK]
        found = self.found
        bonus = self.bonus
        lexicon = self.lexicon
        cache = lexicon._arcs
        arcs_of = lexicon.arcs
        skip_single_with_cross = self.transposed
        direction_flag = 1 if self.transposed else 0
        # The search spells letters only; whether each comes from a tile or a blank
        # is settled when a word is found (``record``), so a rack with blanks does
        # not walk the same letters twice. ``used`` counts letters in the current
        # play; a letter beyond the rack's own tiles needs a blank (``short``).
        used = [0] * 27
        # Per new tile: square, tile, its letter points, its cross word's multiplier (0: none).
        placed: list[tuple[int, int, int, int]] = []
        rack_tiles = [t for t in range(1, 27) if rack[t]]
        is_anchor = [False] * SIZE
        for c in anchors:
            is_anchor[c] = True
        anchor = 0
        start = 0

        def record(end: int, wmul: int, score: int) -> None:
            head = (direction_flag, start, r) if direction_flag else (direction_flag, r, start)
            if not blanks:
                tiles = tuple((c, t, False) for c, t, _, _ in placed)
                found.append((-score, *head, tiles, end))
                return
            for blank_at, penalty in _blank_choices(placed, used, rack, blanks, wmul):
                tiles = tuple((c, t, i in blank_at) for i, (c, t, _, _) in enumerate(placed))
                found.append((penalty - score, *head, tiles, end))

        def extend(
            c: int, idx: int, accepts: bool, msum: int, wmul: int, xtot: int, nx: int, short: int
        ) -> None:
            if c < SIZE:
                t = row_tiles[c]
                if t:
                    kids = cache.get(idx) or arcs_of(idx)
                    arc = kids.get(t)
                    if arc is not None:
                        extend(c + 1, arc[1], arc[0], msum + row_face[c], wmul, xtot, nx, short)
                    return
            if accepts and c > anchor and c - start >= 2:
                n = len(placed)
                if not (n == 1 and skip_single_with_cross and nx):
                    record(c, wmul, msum * wmul + xtot + bonus[n][nx + 1])
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
            candidates: Iterable[tuple[int, tuple[bool, int]]]
            if short < blanks:
                candidates = kids.items()
            else:
                candidates = [(t, kids[t]) for t in rack_tiles if used[t] < rack[t] and t in kids]
            for t, (a, nxt) in candidates:
                if not (mask >> t) & 1:
                    continue
                over = used[t] >= rack[t]
                used[t] += 1
                v = values[t] * lmc
                if cross:
                    placed.append((c, t, v, wmc))
                    extend(
                        c + 1,
                        nxt,
                        a,
                        msum + v,
                        wmul * wmc,
                        xtot + (xs + v) * wmc,
                        nx + 1,
                        short + over,
                    )
                else:
                    placed.append((c, t, v, 0))
                    extend(c + 1, nxt, a, msum + v, wmul * wmc, xtot, nx, short + over)
                placed.pop()
                used[t] -= 1

        tile_mask = lexicon.tile_mask
        before = lexicon._before
        tiles_before = lexicon.tiles_before
        parts = self.parts
        viable = self.viable
        for anchor in anchors:
            # Letters that could go on the anchor: a cheap test that skips left parts
            # (or a prefix) whose next arc cannot land there, or cannot reach the
            # board tile just right of the anchor.
            allowed = masks[anchor] & self.rack_mask
            if not allowed:
                continue
            after = row_tiles[anchor + 1] if anchor + 1 < SIZE else 0
            if anchor > 0 and row_tiles[anchor - 1]:
                first = anchor - 1
                while first > 0 and row_tiles[first - 1]:
                    first -= 1
                prefix = lexicon.walk(row_tiles[i] for i in range(first, anchor))
                if prefix is None or not prefix[1]:
                    continue
                idx = prefix[1]
                if not allowed & (tiles_before(idx, after) if after else tile_mask(idx)):
                    continue
                start = first
                msum = sum(row_face[i] for i in range(first, anchor))
                extend(anchor, idx, False, msum, 1, 0, 0, 0)
                continue
            limit = 0
            c = anchor - 1
            while c >= 0 and not row_tiles[c] and not is_anchor[c]:
                limit += 1
                c -= 1
            # Anchors with the same constraint share one filtered list of left parts,
            # grown (parts are shortest first) only as far as the longest room seen.
            key = (allowed, after)
            entry = viable.get(key)
            if entry is None:
                entry = viable[key] = ([], [0])
            fitting, scanned = entry
            i = scanned[0]
            while i < len(parts) and len(parts[i][1]) <= limit:
                idx = parts[i][0]
                if after:
                    fits = before.get((idx, after))
                    if fits is None:
                        fits = tiles_before(idx, after)
                else:
                    fits = tile_mask(idx)
                if allowed & fits:
                    fitting.append(parts[i])
                i += 1
            scanned[0] = i
            for idx, part in fitting:
                k = len(part)
                if k > limit:
                    break
                start = anchor - k
                msum = 0
                wmul = 1
                short = 0
                for i, t in enumerate(part):
                    c = start + i
                    if used[t] >= rack[t]:
                        short += 1
                    used[t] += 1
                    v = values[t] * lm[c]
                    msum += v
                    wmul *= wm[c]
                    placed.append((c, t, v, 0))
                extend(anchor, idx, False, msum, wmul, 0, 0, short)
                for t in part:
                    used[t] -= 1
                del placed[:]

    def move(self, record: _Record) -> Move:
        negative_score, _, row, col, tiles, end = record
        # tuple.__new__ skips the NamedTuple argument handling: with two blanks a
        # full list can hold 40,000 plays, and building them is a third of the time.
        if self.transposed:
            r, start = col, row
            new_tiles = tuple([_make(NewTile, (c, r, _UPPER[t], blank)) for c, t, blank in tiles])
        else:
            r, start = row, col
            new_tiles = tuple([_make(NewTile, (r, c, _UPPER[t], blank)) for c, t, blank in tiles])
        line = list(self.rows[r][start:end])
        for c, t, blank in tiles:
            line[c - start] = _LOWER[t] if blank else _UPPER[t]
        return _make(Move, (row, col, self.direction, "".join(line), new_tiles, -negative_score))


@cache
def _subsets(n: int, k: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The k-element subsets of range(n), each with its bit mask."""
    return tuple((chosen, sum(1 << i for i in chosen)) for chosen in combinations(range(n), k))


def _blank_choices(
    placed: list[tuple[int, int, int, int]],
    used: list[int],
    rack: list[int],
    blanks: int,
    wmul: int,
) -> list[tuple[tuple[int, ...], int]]:
    """Each way to take the placed letters from the rack: (indices on blanks, points lost).

    A blank scores 0, so a blank at index i loses its letter points times the
    main word's multiplier plus its cross word's multiplier. A letter used more
    often than the rack holds it must take the difference from blanks.
    """
    lost = [points * (wmul + cross_wm) for _, _, points, cross_wm in placed]
    # For each letter short on the rack: (bit mask of its indices, blanks it needs).
    short = []
    needed = 0
    for t in {t for _, t, _, _ in placed if used[t] > rack[t]}:
        mask = sum(1 << i for i, p in enumerate(placed) if p[1] == t)
        short.append((mask, used[t] - rack[t]))
        needed += used[t] - rack[t]
    n = len(placed)
    choices = []
    for k in range(needed, min(blanks, n) + 1):
        for chosen, bits in _subsets(n, k):
            if short and any((bits & mask).bit_count() < least for mask, least in short):
                continue
            if k == 1:
                choices.append((chosen, lost[chosen[0]]))
            else:
                choices.append((chosen, sum(lost[i] for i in chosen)))
    return choices


def left_parts(
    lexicon: Lexicon, rack: list[int], longest: int
) -> list[tuple[int, tuple[int, ...]]]:
    """Every spellable word start of up to ``longest`` letters that the graph can continue.

    Letters beyond the rack's own tiles count against its blanks. The same list
    serves every anchor of the board, shortest first: an anchor takes the ones
    that fit in the empty squares on its left.
    """
    found: list[tuple[int, tuple[int, ...]]] = [(lexicon.root, ())]
    part: list[int] = []
    used = [0] * 27
    blanks = rack[BLANK]

    def grow(idx: int, short: int) -> None:
        if len(part) == longest:
            return
        for t, (_, nxt) in lexicon.arcs(idx).items():
            if not nxt:
                continue
            over = used[t] >= rack[t]
            if over and short >= blanks:
                continue
            used[t] += 1
            part.append(t)
            found.append((nxt, tuple(part)))
            grow(nxt, short + over)
            part.pop()
            used[t] -= 1

    grow(lexicon.root, 0)
    found.sort(key=lambda item: len(item[1]))
    return found


def compiled_available() -> bool:
    return _compiled is not None


def generate(
    board: Board,
    rack: str,
    rules: RuleSet,
    lexicon: Lexicon,
    premiums: bool = True,
    top: int | None = None,
    compiled: bool = True,
) -> list[Move]:
    """Every legal play, best score first (ties in a fixed order); at most ``top``.

    ``compiled=False`` runs the Python reference even when the compiled search is built.
    """
    if compiled and _compiled is not None:
        return _generate_compiled(board, rack, rules, lexicon, premiums, top)
    return generate_python(board, rack, rules, lexicon, premiums, top)


# Per rule set and bonus switch: the byte tables the compiled search reads.
_tables: dict[tuple[int, bool], tuple[RuleSet, bytes, bytes, bytes, array[int]]] = {}
_DIRECTIONS = (ACROSS, DOWN)
_LETTERS = tuple(_UPPER)


def _compiled_tables(rules: RuleSet, premiums: bool) -> tuple[bytes, bytes, bytes, array[int]]:
    key = (id(rules), premiums)
    found = _tables.get(key)
    if found is None or found[0] is not rules:
        squares = [(r, c) for r in range(SIZE) for c in range(SIZE)]
        lm = bytes(rules.letter_multiplier(r, c) if premiums else 1 for r, c in squares)
        wm = bytes(rules.word_multiplier(r, c) if premiums else 1 for r, c in squares)
        values = bytes([0] + [rules.values[letter_of(t)] for t in range(1, 27)])
        bonus = array(
            "i",
            [
                sum(points for _, points in bonuses_for(rules, used, words))
                for used in range(max(rules.rack_size, SIZE) + 1)
                for words in range(SIZE + 2)
            ],
        )
        found = _tables[key] = (rules, values, lm, wm, bonus)
    return found[1:]


def _position(
    board: Board, rack: str, rules: RuleSet, lexicon: Lexicon, premiums: bool
) -> _compiled.Position:
    """The compiled search's first argument: graph, board, the rule set's tables, rack."""
    # Checked once per graph, and remembered on it: a request's own word list
    # is a new graph that must not outlive the request.
    if not lexicon.graph_checked:
        _compiled.check_graph(lexicon.nodes)
        lexicon.graph_checked = True
    values, lm, wm, bonus = _compiled_tables(rules, premiums)
    board_text = "".join(board.rows).encode("ascii")
    return lexicon.nodes, board_text, values, lm, wm, bonus, bytes(rack_counts(rack))


def _generate_compiled(
    board: Board, rack: str, rules: RuleSet, lexicon: Lexicon, premiums: bool, top: int | None
) -> list[Move]:
    if not rack or lexicon.root == 0:
        return []
    position = _position(board, rack, rules, lexicon, premiums)
    return _compiled.generate(position, top or 0, Move, NewTile, _DIRECTIONS, _LETTERS)


# Room for a leave in the compiled rows' table: _movegen.c's MAX_TILES.
_LEAVE_WIDTH = 16
# Worths beyond this would print with an exponent in Python, and not in C.
_MOST_WORTH = 1e12


def all_rows_json(
    board: Board,
    rack: str,
    rules: RuleSet,
    lexicon: Lexicon,
    premiums: bool,
    leaves: list[tuple[str, float]],
) -> tuple[str, int]:
    """Every legal play as the Solver's rows (``api.ROW_FIELDS``), written as compact
    JSON text by the compiled search without holding the interpreter, and how many
    plays there were before grouping. ``leaves`` is ``leaves.leaves_by_use`` for this
    rack. Only when ``compiled_available()``."""
    if _compiled is None:
        raise RuntimeError("the compiled move generator is not built")
    for leave, worth in leaves:
        if len(leave) >= _LEAVE_WIDTH or not abs(worth) < _MOST_WORTH:
            raise ValueError(f"leave {leave!r} worth {worth!r}: out of the rows' range")
    texts = b"".join(leave.encode("ascii").ljust(_LEAVE_WIDTH, b"\0") for leave, _ in leaves)
    worths = array("d", [worth for _, worth in leaves])
    # An int worth (an empty leave sums to 0) makes an int equity, written without ".0".
    whole = bytes(isinstance(worth, int) for _, worth in leaves)
    if lexicon.root == 0:  # no graph to check, and nothing to find
        return "[]", 0
    position = _position(board, rack, rules, lexicon, premiums)
    return _compiled.all_rows(position, texts, worths, whole, _DIRECTIONS)


def generate_python(
    board: Board,
    rack: str,
    rules: RuleSet,
    lexicon: Lexicon,
    premiums: bool = True,
    top: int | None = None,
) -> list[Move]:
    """The reference search, in Python: every legal play, best first; at most ``top``."""
    counts = rack_counts(rack)
    if not sum(counts) or lexicon.root == 0:
        return []
    # Records sort as tuples: (-score, across first, row, col, tiles, end).
    found: list[_Record] = []
    opening = board.is_empty()
    parts = left_parts(lexicon, counts, sum(counts) - 1)
    viable: _Viable = {}
    passes = (
        _Pass(board.rows, lexicon, rules, premiums, False, counts, parts, viable, found),
        _Pass(
            board.transposed().rows, lexicon, rules, premiums, True, counts, parts, viable, found
        ),
    )
    for search in passes:
        search.run(opening)
    found.sort()
    kept = found if top is None else found[:top]
    return [passes[rec[1]].move(rec) for rec in kept]
