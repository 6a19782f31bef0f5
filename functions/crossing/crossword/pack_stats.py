"""The figures an editor reads a built pack by: clue reuse, wordplay, shape, answer use.

Read-only, on checked packs (``crossing puzzles stats`` and the puzzle tests): how
often a regular player meets a clue again, and which answers are short of clues.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from crossing.crossword.clues import is_wordplay
from crossing.crossword.fill import answers_of
from crossing.crossword.ipuz import from_ipuz


def pack_answers(data: Mapping[str, Any]) -> list[list[str]]:
    """Each puzzle's answers, read off a (checked) pack."""
    return [answers_of(from_ipuz(item)) for item in data.get("puzzles", [])]


def pack_clue_texts(data: Mapping[str, Any]) -> list[str]:
    texts = []
    for item in data.get("puzzles", []):
        for entries in item.get("clues", {}).values():
            texts += [str(entry[1]) for entry in entries if isinstance(entry, list)]
    return texts


def pack_clue_pairs(data: Mapping[str, Any]) -> list[list[tuple[str, str]]]:
    """Each puzzle's (answer, clue) pairs, read off a (checked) pack."""
    found = []
    for item in data.get("puzzles", []):
        puzzle = from_ipuz(item)
        found.append([(puzzle.answer(slot), puzzle.clues[slot.id]) for slot in puzzle.slots])
    return found


def seen_before(
    puzzles: Sequence[Sequence[tuple[str, str]]], at: int, orders: int = 200, seed: int = 0
) -> float:
    """The share of clues of the ``at``-th puzzle a player meets (dealt in a random order)
    that were in one of the puzzles before it, as the same answer with the same clue."""
    if len(puzzles) < at:
        return float("nan")
    rng = random.Random(seed)
    seen_total = clues_total = 0
    for _ in range(orders):
        order = rng.sample(range(len(puzzles)), at)
        seen = {pair for index in order[:-1] for pair in puzzles[index]}
        last = puzzles[order[-1]]
        seen_total += sum(pair in seen for pair in last)
        clues_total += len(last)
    return seen_total / max(1, clues_total)


@dataclass(frozen=True)
class PackStats:
    puzzles: int
    seen_30: float
    seen_100: float
    wordplay: float
    three_letter: float
    longest: int
    top_answer: str
    top_share: float


def pack_stats(data: Mapping[str, Any]) -> PackStats:
    """The figures an editor reads a pack by (issue 19's point 4)."""
    pairs = pack_clue_pairs(data)
    slots = [pair for puzzle in pairs for pair in puzzle]
    uses: Counter[str] = Counter()
    for puzzle in pairs:
        uses.update({answer for answer, _ in puzzle})
    top, count = uses.most_common(1)[0] if uses else ("", 0)
    total = max(1, len(slots))
    return PackStats(
        puzzles=len(pairs),
        seen_30=seen_before(pairs, 30),
        seen_100=seen_before(pairs, 100),
        wordplay=sum(is_wordplay(clue) for _, clue in slots) / total,
        three_letter=sum(len(answer) == 3 for answer, _ in slots) / total,
        longest=max((len(answer) for answer, _ in slots), default=0),
        top_answer=top,
        top_share=count / max(1, len(pairs)),
    )


def short_of_clues(
    packs: Sequence[Mapping[str, Any]], book: Mapping[str, Sequence[str]], need: int = 3
) -> list[tuple[str, int, int]]:
    """Answers in ``need`` or more puzzles of these packs (one difficulty's sizes) that
    have fewer than ``need`` distinct clues in ``book``: ``(answer, puzzles, clues)``,
    most used first. A regular player meets such an answer often, so one clue would
    come round again and again (issue 19, point 4)."""
    uses: Counter[str] = Counter()
    for data in packs:
        for answers in pack_answers(data):
            uses.update(set(answers))
    short = []
    for answer, count in uses.items():
        distinct = len({" ".join(clue.lower().split()) for clue in book.get(answer, ())})
        if count >= need and distinct < need:
            short.append((answer, count, distinct))
    return sorted(short, key=lambda item: (-item[1], item[0]))
