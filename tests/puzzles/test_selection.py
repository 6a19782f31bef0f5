"""Choosing a pack's puzzles together, so the share refuses as few as it must."""

from collections import Counter

from crossing.crossword.selection import most_within_share
from hypothesis import given
from hypothesis import strategies as st


def _uses(answers: list[frozenset[str]], chosen: list[int]) -> Counter[str]:
    return Counter(word for i in chosen for word in answers[i])


def test_swapping_finds_room_that_taking_in_turn_misses():
    # Taken least-contended first, {A,B,C} shuts out two puzzles; three fit together.
    answers = [frozenset(w) for w in ("B", "EF", "AF", "CE", "B", "ABC")]
    assert len(most_within_share(answers, 1, rounds=0)) == 2
    chosen = most_within_share(answers, 1)
    assert len(chosen) == 3
    assert max(_uses(answers, chosen).values()) == 1


words = st.frozensets(st.sampled_from("ABCDEFGH"), min_size=1, max_size=4)


@given(st.lists(words, min_size=1, max_size=12), st.integers(1, 3), st.integers(0, 3))
def test_the_kept_stay_and_no_answer_passes_its_share(answers, cap, fixed):
    fixed = min(fixed, len(answers))
    chosen = most_within_share(answers, cap, fixed=fixed, rounds=200)
    assert chosen[:fixed] == list(range(fixed))
    assert len(set(chosen)) == len(chosen)
    free = [i for i in chosen if i >= fixed]
    kept = _uses(answers, list(range(fixed)))
    # What the kept ones use is theirs; the rest never take an answer past the cap.
    for word, n in _uses(answers, free).items():
        assert n + kept[word] <= max(cap, kept[word])


def test_two_twins_are_never_both_taken():
    answers = [frozenset("AB"), frozenset("AB"), frozenset("CD")]
    chosen = most_within_share(answers, 5, twins=lambda i, j: answers[i] == answers[j])
    assert sorted(chosen) in ([0, 2], [1, 2])


@given(st.lists(words, min_size=1, max_size=12), st.integers(1, 3))
def test_choosing_again_never_takes_fewer_than_the_pack_holds(answers, cap):
    held = most_within_share(answers, cap, rounds=0)
    again = most_within_share(answers, cap, start=held, rounds=50)
    assert len(again) >= len(held)
