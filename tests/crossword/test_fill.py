"""The filler: valid patterns, deterministic fills, valid drafts, clued answers preferred."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from crossing.crossword.answers import parse_answers, top_answers
from crossing.crossword.drafts import (
    draft_batch,
    draft_batch_spread,
    draft_one,
    fresh_drafts,
    preference_for,
)
from crossing.crossword.editor import shape_problems
from crossing.crossword.fill import Lexicon, Preference, answers_of, draft_problems, fill_grid
from crossing.crossword.grid import Grid
from crossing.crossword.patterns import PATTERNS
from crossing.crossword.puzzle import Puzzle, problems_of
from crossing.crossword.sizes import Size

ANSWERS_FILE = Path(__file__).resolve().parents[2] / "puzzles" / "answers" / "answers.tsv"


@pytest.fixture(scope="module")
def answers() -> dict[str, int]:
    return parse_answers(ANSWERS_FILE.read_text(encoding="utf-8").splitlines())


@pytest.fixture(scope="module")
def lexicon(answers: dict[str, int]) -> Lexicon:
    return Lexicon.build(answers)


SHAPES_PER_SIZE = {Size.MINI: 12, Size.SMALL: 20, Size.MIDI: 20, Size.LARGE: 20}


@pytest.mark.parametrize("size", list(Size))
def test_every_pattern_keeps_the_newspaper_rules(size: Size):
    assert len({pattern.rows for pattern in PATTERNS[size]}) >= SHAPES_PER_SIZE[size]
    for pattern in PATTERNS[size]:
        blank = "".join(row.replace(".", "A") for row in pattern.rows)
        puzzle = Puzzle(size.width, size.width, blank, {})
        broken = [p for p in problems_of(puzzle) if p.rule not in ("clued", "repeat")]
        assert broken == [], pattern.name
        assert max(len(slot) for slot in pattern.grid.slots) <= size.width


@pytest.mark.parametrize("size", [Size.MIDI, Size.LARGE])
def test_big_patterns_have_marquee_entries_and_few_three_letter_slots(size: Size):
    for pattern in PATTERNS[size]:
        assert shape_problems([len(slot) for slot in pattern.grid.slots], size) == [], pattern.name


@pytest.mark.parametrize("size", list(Size))
def test_a_draft_is_a_valid_grid_of_listed_answers_without_repeats(size: Size, lexicon, answers):
    puzzle = draft_one(size, lexicon, seed=1, preference=preference_for(size))
    assert puzzle is not None
    assert (puzzle.width, puzzle.height) == (size.width, size.width)
    assert draft_problems(puzzle) == []
    words = answers_of(puzzle)
    assert len(words) == len(set(words))
    assert all(word in answers for word in words)


def test_the_same_seed_gives_the_same_fill_and_other_seeds_vary(lexicon):
    pref = preference_for(Size.MINI)
    first = draft_one(Size.MINI, lexicon, seed=7, preference=pref)
    again = draft_one(Size.MINI, lexicon, seed=7, preference=pref)
    assert first is not None
    assert again is not None
    assert first.solution == again.solution
    batch = draft_batch(Size.MINI, lexicon, count=6, seed=7, preference=pref)
    assert len({p.solution for p in batch}) == 6


def test_the_fill_prefers_clued_answers_when_told(answers):
    # Like a real clue file: a third of the 15,000 most common answers have clues.
    rng = random.Random(3)
    clued = set(rng.sample(list(top_answers(answers, 15000)), 5000))
    lexicon_plain = Lexicon.build(answers)
    lexicon_clued = Lexicon.build(answers, clued)
    size = Size.MINI

    def share(lexicon) -> float:
        batch = draft_batch(size, lexicon, count=10, seed=11, preference=preference_for(size))
        words = [w for p in batch for w in answers_of(p)]
        return sum(w in clued for w in words) / len(words)

    plain, preferred = share(lexicon_plain), share(lexicon_clued)
    assert preferred > 0.5
    assert preferred > plain + 0.2


def test_a_fill_gives_up_cleanly_when_no_answer_fits():
    lexicon = Lexicon.build({"CAT": 50, "DOG": 50})
    grid = Grid.from_rows(["...", "...", "..."])
    assert fill_grid(grid, lexicon, seed=0, node_budget=200, restarts=2) is None


def test_common_words_come_first_for_easy_sizes(answers, lexicon):
    common = set(top_answers(answers, 8000))
    batch = draft_batch(Size.MINI, lexicon, 5, 2, preference_for(Size.MINI))
    words = [w for p in batch for w in answers_of(p)]
    assert sum(w in common for w in words) / len(words) > 0.6


def test_a_batch_spreads_answers_so_none_fills_every_other_puzzle(answers):
    batch = draft_batch_spread(Size.MINI, answers, (), count=12, seed=4, max_share=0.1)
    assert len(batch) == 12
    assert len({p.solution for p in batch}) == 12
    uses = Counter(w for p in batch for w in set(answers_of(p)))
    assert max(uses.values()) <= 2


def test_a_second_round_counts_the_first_rounds_answers_against_the_share(answers):
    first = draft_batch_spread(Size.MINI, answers, (), count=12, seed=4, max_share=0.1)
    second = draft_batch_spread(
        Size.MINI, answers, (), count=12, seed=5, max_share=0.1, before=first, share_of=24
    )
    assert len(second) == 12
    both = first + second
    assert len({p.solution for p in both}) == 24
    uses = Counter(w for p in both for w in set(answers_of(p)))
    assert max(uses.values()) <= 2  # 10% of 24 puzzles, the first round's uses included
    for new in second:
        words = set(answers_of(new))
        assert all(len(words & set(answers_of(old))) * 2 < len(words) for old in first)


def test_drafting_stops_when_asked_even_while_every_fill_fails():
    # Only CAT and DOG: no Mini can be filled, so no draft is ever yielded.
    lexicon = Lexicon.build({"CAT": 50, "DOG": 50})
    asked = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > 3

    made = fresh_drafts(
        Size.MINI, lambda: lexicon, preference_for(Size.MINI), 1, (), 1000, 1, stop=stop
    )
    assert list(made) == []
    assert len(asked) == 4  # three attempts, then the stop, not a thousand attempts


def test_a_fill_never_puts_two_forms_of_one_word_in_a_grid():
    lexicon = Lexicon.build({"RUN": 90, "RAN": 80, "CAT": 10})
    grid = Grid.from_rows(["...#", "####", "#..."])  # two slots, no crossing
    for seed in range(10):
        puzzle = fill_grid(grid, lexicon, seed, Preference(sample_rounds=0), 200, 2)
        assert puzzle is not None
        assert sorted(answers_of(puzzle)) in (["CAT", "RUN"], ["CAT", "RAN"])
