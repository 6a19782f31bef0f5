"""The word list as a packed word graph (a DAWG in one flat array of 32-bit nodes).

Layout, in the spirit of wolges' KWG: each node is one arc out of a state,
``tile << 24 | accepts << 23 | is_end << 22 | arc_index``. The arcs out of one
state are contiguous and sorted by tile; ``is_end`` marks the last of them;
``arc_index`` is where the arcs of the next state start (0: none). Node 0 is a
header whose ``arc_index`` is the root state. Identical states are stored once,
so the graph is minimal on the right (shared suffixes).

The packed bytes are 8 magic bytes then the nodes, little-endian; tiles are 1..26 for A..Z.
The shipped graph is read by ``crossing.game_files`` and handed in as bytes or a ``Lexicon``.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterable, Iterator

MAGIC = b"CWDAWG01"

_ARC_MASK = (1 << 22) - 1
_IS_END = 1 << 22
_ACCEPTS = 1 << 23


class BadWordList(ValueError):
    """A word list line that is not a word of letters A-Z."""


def tile_of(letter: str) -> int:
    return ord(letter.upper()) - 64


def letter_of(tile: int) -> str:
    return chr(tile + 64)


def normalise_words(lines: Iterable[str]) -> list[str]:
    """Upper-case, sorted, unique words of two or more letters; blank lines skipped.

    One-letter words are dropped: no play is shorter than two letters.
    """
    words = set()
    for number, line in enumerate(lines, start=1):
        word = line.strip()
        if not word:
            continue
        if not (word.isascii() and word.isalpha()):
            raise BadWordList(
                f"word list line {number}: {word[:30]!r} is not a word of letters A-Z"
            )
        if len(word) > 1:
            words.add(word.upper())
    return sorted(words)


def pack(words: Iterable[str]) -> bytes:
    """Compile words into the packed graph. Same words, same bytes."""
    ordered = normalise_words(words)
    states: dict[tuple[tuple[int, bool, int], ...], int] = {}
    state_arcs: list[tuple[tuple[int, bool, int], ...]] = []

    def intern(arcs: tuple[tuple[int, bool, int], ...]) -> int:
        # State ids start at 1 so that 0 can mean "no arcs".
        found = states.get(arcs)
        if found is None:
            found = states[arcs] = len(state_arcs) + 1
            state_arcs.append(arcs)
        return found

    def build(lo: int, hi: int, depth: int) -> int:
        """The state after ``depth`` letters shared by ordered[lo:hi]."""
        arcs = []
        i = lo
        while i < hi:
            while i < hi and len(ordered[i]) <= depth:
                i += 1
            if i >= hi:
                break
            letter = ordered[i][depth]
            j = i
            while j < hi and len(ordered[j]) > depth and ordered[j][depth] == letter:
                j += 1
            accepts = len(ordered[i]) == depth + 1
            child = build(i, j, depth + 1)
            arcs.append((tile_of(letter), accepts, child))
            i = j
        return intern(tuple(arcs)) if arcs else 0

    root = build(0, len(ordered), 0)
    # State ids are in post-order, so every child sits before its parent.
    position = [0] * (len(state_arcs) + 1)
    cursor = 1
    for state_id, arcs in enumerate(state_arcs, start=1):
        position[state_id] = cursor
        cursor += len(arcs)
    if cursor > _ARC_MASK:
        raise BadWordList("word list too large for 22-bit arc indices")
    nodes = array("I", [position[root] if root else 0])
    for arcs in state_arcs:
        last = len(arcs) - 1
        for k, (tile, accepts, child) in enumerate(arcs):
            node = tile << 24 | position[child] if child else tile << 24
            if accepts:
                node |= _ACCEPTS
            if k == last:
                node |= _IS_END
            nodes.append(node)
    if sys.byteorder != "little":
        nodes.byteswap()
    return MAGIC + nodes.tobytes()


class Lexicon:
    """A read-only view of a packed graph, with the lookups move generation needs."""

    def __init__(self, packed: bytes) -> None:
        if packed[: len(MAGIC)] != MAGIC:
            raise BadWordList("not a packed word graph (bad magic bytes)")
        nodes = array("I")
        nodes.frombytes(packed[len(MAGIC) :])
        if sys.byteorder != "little":
            nodes.byteswap()
        self.nodes = nodes
        self.root = nodes[0] & _ARC_MASK
        self.graph_checked = False  # the compiled search's safety check passed on it
        # Decoded arc lists, filled on first visit: loading stays a byte copy,
        # and search pays for decoding once per state it actually reaches.
        self._arcs: dict[int, dict[int, tuple[bool, int]]] = {}
        self._tile_masks: dict[int, int] = {}
        self._before: dict[tuple[int, int], int] = {}

    @classmethod
    def from_words(cls, words: Iterable[str]) -> Lexicon:
        return cls(pack(words))

    def arcs(self, index: int) -> dict[int, tuple[bool, int]]:
        """``{tile: (accepts, next_index)}`` for the state whose arcs start at index."""
        found = self._arcs.get(index)
        if found is None:
            found = {}
            at = index
            if at:
                nodes = self.nodes
                while True:
                    node = nodes[at]
                    found[node >> 24] = (bool(node & _ACCEPTS), node & _ARC_MASK)
                    if node & _IS_END:
                        break
                    at += 1
            self._arcs[index] = found
        return found

    def tile_mask(self, index: int) -> int:
        """Bit t set when the state at index has an arc for tile t."""
        mask = self._tile_masks.get(index)
        if mask is None:
            mask = self._tile_masks[index] = sum(1 << t for t in self.arcs(index))
        return mask

    def tiles_before(self, index: int, tile: int) -> int:
        """Bit t set when, from the state at index, tile t can be followed by ``tile``."""
        key = (index, tile)
        mask = self._before.get(key)
        if mask is None:
            mask = 0
            for t, (_, nxt) in self.arcs(index).items():
                if nxt and tile in self.arcs(nxt):
                    mask |= 1 << t
            self._before[key] = mask
        return mask

    def walk(self, tiles: Iterable[int], index: int | None = None) -> tuple[bool, int] | None:
        """Follow tiles from a state; ``(accepts, next_index)`` of the last arc, or None."""
        accepts, index = False, self.root if index is None else index
        for tile in tiles:
            arc = self.arcs(index).get(tile)
            if arc is None:
                return None
            accepts, index = arc
        return accepts, index

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or not word.isascii() or not word.isalpha():
            return False
        found = self.walk(tile_of(letter) for letter in word)
        return found is not None and found[0]

    def words(self) -> Iterator[str]:
        """Every word, in alphabetical order."""

        def visit(index: int, prefix: str) -> Iterator[str]:
            for tile, (accepts, child) in sorted(self.arcs(index).items()):
                word = prefix + letter_of(tile)
                if accepts:
                    yield word
                if child:
                    yield from visit(child, word)

        if self.root:
            yield from visit(self.root, "")
