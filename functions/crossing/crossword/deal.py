"""Dealing from a pack, while the game runs: which puzzle a host gets next, the near-twin
relation that keeps a deal new, and the form of the puzzle ids a phone sends back.

Checking packs (``packs.py``) and building them (``pack_builder.py``) is offline work;
this is what the rooms need of a pack at play time. Pure: the caller keeps and sends
the dealt list.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from crossing.crossword.fill import answers_of
from crossing.crossword.puzzle import Puzzle

# The form of every puzzle id a pack may hold (``packs.puzzle_id`` gives "cw-" and twelve
# hex digits): a host's phone sends the ids it has been dealt back in this form.
PUZZLE_ID_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"
PUZZLE_ID_LENGTH = 20


def is_twin(shared: int, first: int, second: int) -> bool:
    """Sharing half or more of either puzzle's answers: a twin, not a new puzzle."""
    return 2 * shared >= min(first, second)


_TWINS: dict[tuple[tuple[str, str], ...], dict[str, frozenset[str]]] = {}


def near_twins(puzzles: Sequence[Puzzle]) -> dict[str, frozenset[str]]:
    """For each puzzle's id, the ids of the other puzzles that nearly repeat it.

    A pack's twins never change, and a deal needs them all: worked out once per pack
    (tens of milliseconds for 1,000 Minis) and kept, so a deal costs a pass over
    the pack. Kept by ids and grids, so a changed pack is worked out anew.
    """
    key = tuple((p.id, p.solution) for p in puzzles)
    if key not in _TWINS:
        words = [frozenset(answers_of(p)) for p in puzzles]
        index: dict[str, list[int]] = {}
        for n, answers in enumerate(words):
            for word in answers:
                index.setdefault(word, []).append(n)
        twins = {}
        for n, answers in enumerate(words):
            shared = Counter(m for word in answers for m in index[word] if m != n)
            twins[puzzles[n].id] = frozenset(
                puzzles[m].id
                for m, count in shared.items()
                if is_twin(count, len(answers), len(words[m]))
            )
        if len(_TWINS) >= 8:  # four sizes, and room for a pack being replaced
            _TWINS.clear()
        _TWINS[key] = twins
    return _TWINS[key]


def pick_puzzle(puzzles: Sequence[Puzzle], dealt: Sequence[str], rng: random.Random) -> Puzzle:
    """A puzzle for a host who has had ``dealt`` (puzzle ids of one size, oldest first).

    Never one dealt before while any is left, and never one sharing half its answers
    with one dealt before. When every puzzle is either, one at random from the half
    met longest ago (a puzzle meets its twins' deals too): in a pack without twins a
    repeat comes at least half a pack of games after the last, and the passes after
    the first never follow its order.
    Pure: the caller keeps and sends the dealt list.
    """
    if not puzzles:
        raise ValueError("no puzzles to deal from")
    twins = near_twins(puzzles)
    order = {pid: n for n, pid in enumerate(dealt)}

    def last_met(puzzle: Puzzle) -> int:
        """When the host last met this puzzle or a near-twin of it; -1 for never."""
        return max([order.get(puzzle.id, -1), *(order.get(t, -1) for t in twins[puzzle.id])])

    met = {p.id: last_met(p) for p in puzzles}
    fresh = [p for p in puzzles if met[p.id] < 0]
    if fresh:
        return rng.choice(fresh)
    older = sorted(met.values())[max(1, len(puzzles) // 2) - 1]
    return rng.choice([p for p in puzzles if met[p.id] <= older])
