"""Which puzzles a pack can take together: as many as possible, no answer over its share.

Offered one by one, the first drafts to come use up the common answers, and later
drafts that need one of them are refused: a Midi pack of 326 drafts took 246 that
way. Choosing them together is a packing problem (each answer may be used ``cap``
times); a greedy start that takes the least contended drafts first, then a local
search that swaps one chosen puzzle for two it blocks (and, on a plateau, for one
at random, so the next swap can find a gain), gets close to the best quickly.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

ROUNDS = 20_000
"""Swaps tried after the greedy start (about a second for a few hundred drafts)."""


def most_within_share(
    answers: Sequence[frozenset[str]],
    cap: int,
    *,
    fixed: int = 0,
    start: Sequence[int] = (),
    twins: Callable[[int, int], bool] | None = None,
    rng: random.Random | None = None,
    rounds: int = ROUNDS,
) -> list[int]:
    """Indices of the puzzles to take, the first ``fixed`` always (they are kept whatever
    they use); no answer in more than ``cap`` of them, and no two that ``twins``.

    Searched twice, from ``start`` (a choice that keeps the rules, such as what a pack
    holds now) and from scratch, the larger kept: never fewer than ``start``."""
    rng = rng or random.Random(0)
    by_answer: dict[str, list[int]] = {}
    for i, words in enumerate(answers):
        for word in words:
            by_answer.setdefault(word, []).append(i)
    search = _Search(answers, cap, by_answer, twins)
    best = search.run(fixed, start, rng, rounds)
    if start:
        fresh = search.run(fixed, (), rng, rounds)
        best = fresh if len(fresh) > len(best) else best
    return sorted(best, key=lambda i: (i >= fixed, i))


class _Search:
    def __init__(
        self,
        answers: Sequence[frozenset[str]],
        cap: int,
        by_answer: dict[str, list[int]],
        twins: Callable[[int, int], bool] | None,
    ) -> None:
        self.answers, self.cap, self.by_answer, self.twins = answers, cap, by_answer, twins
        demand = {word: len(found) for word, found in by_answer.items()}
        self.contention = [sum(max(0, demand[w] - cap) for w in words) for words in answers]

    def run(self, fixed: int, start: Sequence[int], rng: random.Random, rounds: int) -> set[int]:
        answers, cap, twins = self.answers, self.cap, self.twins
        uses: Counter[str] = Counter()
        chosen: set[int] = set()

        def fits(i: int) -> bool:
            if any(uses[word] >= cap for word in answers[i]):
                return False
            return twins is None or not any(twins(i, j) for j in chosen)

        def take(i: int) -> None:
            chosen.add(i)
            uses.update(answers[i])

        for i in range(fixed):
            take(i)
        for i in start:
            if i >= fixed:
                take(i)
        rest = sorted(range(fixed, len(answers)), key=lambda i: (self.contention[i], i))
        for i in rest:
            if i not in chosen and fits(i):
                take(i)
        movable = range(fixed, len(answers))
        for _ in range(rounds if len(chosen) < len(answers) and len(movable) else 0):
            out = rng.choice(movable)
            if out not in chosen:
                continue
            chosen.discard(out)
            uses.subtract(answers[out])
            # Only a puzzle sharing an answer with the one dropped can newly fit.
            freed = {j for w in answers[out] for j in self.by_answer[w] if j not in chosen}
            freed.discard(out)
            candidates = sorted(freed)
            rng.shuffle(candidates)
            added = 0
            for j in candidates:
                if fits(j):
                    take(j)
                    added += 1
            if not added:  # nothing it blocked fits in its place: keep it
                take(out)
        return chosen
