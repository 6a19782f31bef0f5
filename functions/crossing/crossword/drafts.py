"""Drafts: filled grids with answers but no clues yet, the puzzle factory's middle step.

answers → drafts → the answers drafts still need clued → clues written → packs.
A draft is a Puzzle without clues; it keeps every newspaper rule but the clue one.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from itertools import islice
from typing import Any

from crossing.crossword.fill import Lexicon, Preference, answers_of, draft_problems, fill_grid
from crossing.crossword.packs import MAX_ANSWER_SHARE, Ledger
from crossing.crossword.patterns import PATTERNS
from crossing.crossword.puzzle import InvalidPuzzle, Puzzle
from crossing.crossword.sizes import Size

# Easy puzzles (Mini, Small) keep closest to the most common (and clued) answers.
_RANK_WEIGHT = {"easy": 2.5, "hard": 1.5}
_SPREAD = {"easy": 0.8, "hard": 1.0}
_TIERS = {"easy": (0.3, 1.0), "hard": (1.0,)}
# Setting aside a quarter (easy) or an eighth (hard) of the words per restart makes
# seeds differ; big grids need more of the list to fill, so they set aside less.
_SAMPLE_ROUNDS = {"easy": 2, "hard": 3}
_PATTERNS_PER_DRAFT = 3


def preference_for(size: Size, clued: Collection[str] = ()) -> Preference:
    return Preference(
        clued=frozenset(clued),
        rank_weight=_RANK_WEIGHT[size.difficulty],
        spread=_SPREAD[size.difficulty],
        tiers=_TIERS[size.difficulty],
        sample_rounds=_SAMPLE_ROUNDS[size.difficulty],
    )


def draft_one(
    size: Size, lexicon: Lexicon, seed: int, preference: Preference, restarts: int = 6
) -> Puzzle | None:
    """One filled grid of the size, from a seeded choice of its patterns, or None.

    Fewer ``restarts`` give up sooner on a pattern the lexicon cannot fill, which
    pays when many attempts are made and any success will do.
    """
    rng = random.Random(seed)
    patterns = list(PATTERNS[size])
    rng.shuffle(patterns)
    for pattern in patterns[:_PATTERNS_PER_DRAFT]:
        puzzle = fill_grid(
            pattern.grid, lexicon, rng.getrandbits(32), preference, restarts=restarts
        )
        if puzzle is not None:
            return puzzle
    return None


def draft_batch(
    size: Size,
    lexicon: Lexicon,
    count: int,
    seed: int,
    preference: Preference,
    avoid: Collection[str] = (),
    attempts_per_draft: int = 3,
) -> list[Puzzle]:
    """Up to ``count`` drafts with distinct grids of letters (none of them in ``avoid``).

    Fewer come back only when the fill keeps failing; the caller says so.
    """
    fresh = fresh_drafts(size, lambda: lexicon, preference, seed, avoid, count * attempts_per_draft)
    return list(islice(fresh, count))


def fresh_drafts(
    size: Size,
    lexicon: Callable[[], Lexicon],
    preference: Preference,
    seed: int,
    avoid: Collection[str],
    attempts: int,
    restarts: int = 6,
    stop: Callable[[], bool] = lambda: False,
) -> Iterator[Puzzle]:
    """Filled grids one by one, each a grid of letters not seen before (nor in ``avoid``).

    ``lexicon()`` is asked afresh for every attempt, so a caller may narrow it as it
    goes; each attempt draws its fill seed from ``seed`` whether it succeeds or not.
    ``stop()`` is asked before every attempt: when fills keep failing nothing is
    yielded, so a caller's own deadline check would never run.
    """
    rng = random.Random(seed)
    seen = set(avoid)
    for _ in range(attempts):
        if stop():
            return
        puzzle = draft_one(size, lexicon(), rng.getrandbits(32), preference, restarts)
        if puzzle is None or puzzle.solution in seen:
            continue
        seen.add(puzzle.solution)
        yield puzzle


def draft_batch_spread(
    size: Size,
    scores: Mapping[str, int],
    clued: Collection[str],
    count: int,
    seed: int,
    avoid: Collection[str] = (),
    max_share: float = MAX_ANSWER_SHARE,
    before: Iterable[Puzzle] = (),
    share_of: int | None = None,
) -> list[Puzzle]:
    """Drafts preferring clued answers, none of which fills more than ``max_share`` of them.

    Left alone, the best fill puts THE in every other Mini; once an answer reaches
    its share the lexicon is rebuilt without it, so players meet more words. The
    share and the near-twin rule are the pack's own, so no draft is written that
    ``build`` would refuse for them (and no clue is written for such a draft).

    ``before`` are puzzles made earlier (drafts, the pack): their answers count
    against the share of a pack of ``share_of`` puzzles (default ``count``) and no
    new draft nearly repeats one, so a second round fills with answers still free.
    """
    cap = max(2, round((share_of or count) * max_share))
    used: Counter[str] = Counter()
    ledger = Ledger()
    seen = set(avoid)
    for n, puzzle in enumerate(before):
        if puzzle.solution in seen:
            continue  # a pack puzzle that came from a draft counts once
        seen.add(puzzle.solution)
        words = frozenset(answers_of(puzzle))
        ledger.add(words, f"before {n}")
        used.update(words)
    drafts: list[Puzzle] = []
    preference = preference_for(size, clued)

    def allowed() -> Lexicon:
        return Lexicon.build({w: s for w, s in scores.items() if used[w] < cap}, clued)

    # The lexicon narrows as answers reach their share: the drafting reads the current one.
    current = [allowed()]
    for puzzle in fresh_drafts(size, lambda: current[0], preference, seed, seen, count * 3):
        words = frozenset(answers_of(puzzle))
        if ledger.twin(words):
            continue
        ledger.add(words, str(len(drafts)))
        drafts.append(puzzle)
        used.update(words)
        if any(used[w] >= cap for w in words):
            current[0] = allowed()
        if len(drafts) >= count:
            break
    return drafts


def unclued_answers(drafts: Iterable[Puzzle], clued: Collection[str]) -> Counter[str]:
    """Answers the drafts use that have no clue yet, with how many drafts use each."""
    clued_set = set(clued)
    needed: Counter[str] = Counter()
    for puzzle in drafts:
        needed.update(a for a in set(answers_of(puzzle)) if a not in clued_set)
    return needed


def draft_to_data(puzzle: Puzzle) -> dict[str, Any]:
    """A draft as plain JSON data: its rows, and its answers for people reading the file."""
    return {
        "rows": puzzle.rows(),
        "answers": {slot.id: puzzle.answer(slot) for slot in puzzle.slots},
    }


def draft_from_data(data: Any) -> Puzzle:
    """Read one draft back and check it keeps the newspaper rules (clues aside)."""
    if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
        raise ValueError("a draft is an object with a 'rows' list")
    rows = [str(row) for row in data["rows"]]
    puzzle = Puzzle.from_rows(rows, {})
    problems = draft_problems(puzzle)
    if problems:
        raise InvalidPuzzle(problems)
    return puzzle
