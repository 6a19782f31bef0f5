"""Fill a block pattern with answers: most-constrained slot first, forward checking, restarts.

Candidates of each length are numbered best first (clued answers, then common
ones), and each (position, letter) has a Python int whose bits are the numbers of
the candidates with that letter there, so a slot's candidates are one AND per
filled square. Everything is deterministic from the seed: one ``random.Random``
drives candidate jitter and restarts, and there is no other randomness.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from crossing.crossword.grid import Grid, Slot
from crossing.crossword.lemma import stems
from crossing.crossword.puzzle import Problem, Puzzle, problems_of


@dataclass(frozen=True)
class Preference:
    """How strongly a fill prefers some answers over others.

    ``clued`` answers go before every unclued one. ``rank_weight`` is how much a
    candidate's rank (clued first, then commonness) counts against the room it
    leaves its crossings; ``spread`` is seeded jitter that varies puzzles between
    seeds. Easy sizes weigh rank more, so Mini and Small keep to common words.
    ``tiers`` are the shares of each length's best-ranked candidates tried in
    turn: a fill first tries only the best quarter, say, and widens when that fails.
    Each restart also sets aside a seeded random share of unclued candidates (half
    for one sample round, a quarter for two, none for zero), so different seeds
    give different grids instead of the same best fill.
    """

    clued: frozenset[str] = frozenset()
    rank_weight: float = 1.0
    spread: float = 1.0
    tiers: tuple[float, ...] = (1.0,)
    sample_rounds: int = 2
    candidates_per_slot: int = 24


@dataclass
class _Bucket:
    """Candidates of one length, best first, with a bitset per (position, letter)."""

    words: list[str]
    full: int
    letters: list[dict[str, int]]
    clued: int = 0  # the first ``clued`` words are clued answers


@dataclass
class Lexicon:
    """The answers a fill may use, indexed for fast candidate lookup."""

    buckets: dict[int, _Bucket]
    scores: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def build(cls, scores: Mapping[str, int], clued: Collection[str] = ()) -> Lexicon:
        """Index answers best first: clued before unclued, then by commonness score."""
        clued_set = set(clued)
        ranked = sorted(scores, key=lambda w: (w not in clued_set, -scores[w], w))
        by_length: dict[int, list[str]] = {}
        for word in ranked:
            by_length.setdefault(len(word), []).append(word)
        buckets = {}
        for length, words in by_length.items():
            letters: list[dict[str, int]] = [{} for _ in range(length)]
            for index, word in enumerate(words):
                bit = 1 << index
                for pos, letter in enumerate(word):
                    letters[pos][letter] = letters[pos].get(letter, 0) | bit
            clued_count = sum(1 for word in words if word in clued_set)
            buckets[length] = _Bucket(words, (1 << len(words)) - 1, letters, clued_count)
        return cls(buckets, dict(scores))

    def __len__(self) -> int:
        return sum(len(b.words) for b in self.buckets.values())


class _OutOfNodes(Exception):
    pass


@dataclass
class _Search:
    grid: Grid
    lexicon: Lexicon
    preference: Preference
    rng: random.Random
    budget: int
    tier: float = 1.0
    slots: tuple[Slot, ...] = ()
    crossings: list[list[tuple[int, int, int]]] = field(default_factory=list)
    nodes: int = 0
    families: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.slots = self.grid.slots
        index = {slot: i for i, slot in enumerate(self.slots)}
        self.crossings = []
        for slot in self.slots:
            found = []
            for pos, square in enumerate(slot.squares):
                other = self.grid.crossing(slot, square)
                if other is not None:
                    found.append((pos, index[other], other.squares.index(square)))
            self.crossings.append(found)

    def run(self) -> list[str] | None:
        sampled = {}
        for length, bucket in self.lexicon.buckets.items():
            # Clued answers are never set aside: they are the ones a puzzle should use.
            mask = (1 << bucket.clued) - 1 if self.preference.sample_rounds else bucket.full
            for _ in range(self.preference.sample_rounds):
                mask |= self.rng.getrandbits(len(bucket.words))
            sampled[length] = mask
        domains = []
        for slot in self.slots:
            slot_bucket = self.lexicon.buckets.get(len(slot))
            if slot_bucket is None:
                return None
            allowed = max(1, math.ceil(len(slot_bucket.words) * self.tier))
            domains.append(slot_bucket.full & ((1 << allowed) - 1) & sampled[len(slot)])
        used = dict.fromkeys(self.lexicon.buckets, 0)
        chosen: list[str | None] = [None] * len(self.slots)
        try:
            return self._search(domains, chosen, used)
        except _OutOfNodes:
            return None

    def _pick_slot(self, domains: list[int], chosen: list[str | None], used: dict[int, int]) -> int:
        best, best_count = -1, math.inf
        for i, slot in enumerate(self.slots):
            if chosen[i] is None:
                count = (domains[i] & ~used[len(slot)]).bit_count()
                if count < best_count:
                    best, best_count = i, count
                    if count <= 1:
                        break
        return best

    def _candidates(self, mask: int) -> list[int]:
        """Up to ``candidates_per_slot`` candidate numbers, best first."""
        found: list[int] = []
        limit = self.preference.candidates_per_slot
        while mask and len(found) < limit:
            low = mask & -mask
            found.append(low.bit_length() - 1)
            mask ^= low
        return found

    def _narrow(
        self, i: int, word: str, domains: list[int], chosen: list[str | None], used: dict[int, int]
    ) -> tuple[list[int], float] | None:
        """Crossing candidates once ``word`` is in slot ``i``, and how roomy they stay.

        None when some crossing slot is left with no candidate (forward checking).
        """
        narrowed = list(domains)
        room = 0.0
        for pos, j, other_pos in self.crossings[i]:
            if chosen[j] is not None:
                continue
            other_len = len(self.slots[j])
            letter_bits = self.lexicon.buckets[other_len].letters[other_pos].get(word[pos], 0)
            narrowed[j] &= letter_bits
            count = (narrowed[j] & ~used[other_len]).bit_count()
            if not count:
                return None
            room += math.log(count)
        return narrowed, room

    def _search(
        self, domains: list[int], chosen: list[str | None], used: dict[int, int]
    ) -> list[str] | None:
        i = self._pick_slot(domains, chosen, used)
        if i < 0:
            return [w for w in chosen if w is not None]
        slot = self.slots[i]
        length = len(slot)
        bucket = self.lexicon.buckets[length]
        crossings = max(1, len(self.crossings[i]))
        options = []
        for n in self._candidates(domains[i] & ~used[length]):
            if self._same_family(bucket.words[n]):
                continue  # ACTS beside ACT: the editor's rule, kept while filling
            used[length] |= 1 << n
            narrowed = self._narrow(i, bucket.words[n], domains, chosen, used)
            used[length] &= ~(1 << n)
            if narrowed is not None:
                # Rank by preference (with seeded jitter for variety) and by how much
                # room the word leaves its crossings, so the fill rarely paints itself
                # into a corner while still reaching for the best answers first.
                key = (
                    self.preference.rank_weight * math.log(n + 2)
                    + self.rng.gauss(0.0, self.preference.spread)
                    - narrowed[1] / crossings
                )
                options.append((key, n, narrowed[0]))
        options.sort(key=lambda option: option[0])
        for _, n, narrowed_domains in options:
            self.nodes += 1
            if self.nodes > self.budget:
                raise _OutOfNodes
            used[length] |= 1 << n
            chosen[i] = word = bucket.words[n]
            family = stems(word, self.lexicon.scores)
            self.families.update(family)
            result = self._search(narrowed_domains, chosen, used)
            if result is not None:
                return result
            self.families.subtract(family)
            chosen[i] = None
            used[length] &= ~(1 << n)
        return None

    def _same_family(self, word: str) -> bool:
        """Whether a form of the word is in the grid already (its stems are counted)."""
        return any(self.families[stem] > 0 for stem in stems(word, self.lexicon.scores))


def fill_grid(
    grid: Grid,
    lexicon: Lexicon,
    seed: int,
    preference: Preference = Preference(),
    node_budget: int = 4_000,
    restarts: int = 6,
) -> Puzzle | None:
    """The grid filled with answers from the lexicon, or None when the budget runs out.

    The result is a draft: a Puzzle with a solution and no clues yet.
    """
    rng = random.Random(seed)
    for number, tier in enumerate(preference.tiers, start=1):
        # A narrow tier gets a few quick tries; the widest gets the full restarts.
        tries = restarts if number == len(preference.tiers) else max(1, restarts // 3)
        for _ in range(tries):
            search = _Search(grid, lexicon, preference, rng, node_budget, tier)
            words = search.run()
            if words is not None:
                return _as_puzzle(grid, search.slots, words)
    return None


def _as_puzzle(grid: Grid, slots: tuple[Slot, ...], words: list[str]) -> Puzzle:
    letters = ["#"] * grid.size
    for slot, word in zip(slots, words, strict=True):
        for square, letter in zip(slot.squares, word, strict=True):
            letters[square] = letter
    return Puzzle(grid.width, grid.height, "".join(letters), {})


def draft_problems(puzzle: Puzzle) -> list[Problem]:
    """Every rule a draft breaks, except the clue rule: drafts get their clues later."""
    return [p for p in problems_of(puzzle) if p.rule != "clued"]


def answers_of(puzzle: Puzzle) -> list[str]:
    """The puzzle's answers in slot order (across first)."""
    return [puzzle.answer(slot) for slot in puzzle.slots]
