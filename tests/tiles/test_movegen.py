"""The move generator finds exactly the plays a brute-force search finds, scored the same."""

from __future__ import annotations

import random

import pytest
from crossing.tiles.board import Board
from crossing.tiles.movegen import Move, generate
from crossing.tiles.play import check_play
from crossing.tiles.rules import CROSSPLAY, DUEL, RULE_SETS, SCRABBLE
from crossing.tiles.scoring import score_play
from crossing.tiles.selfplay import self_play
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tiles.brute import brute_force_plays
from tests.tiles.conftest import enable_words, sample_words, small_lexicon


def _as_found(moves):
    return {
        tuple((t.row, t.col, t.letter, t.blank) for t in m.tiles): (m.direction, m.score)
        for m in moves
    }


def _agree(board, rack, rules, words, lexicon, premiums=True):
    moves = generate(board, rack, rules, lexicon, premiums=premiums)
    keys = [tuple((t.row, t.col, t.letter, t.blank) for t in m.tiles) for m in moves]
    assert len(keys) == len(set(keys)), "a play was generated twice"
    expected = brute_force_plays(board, rack, rules, words, lexicon, premiums)
    assert _as_found(moves) == expected
    assert moves == sorted(moves, key=Move.sort_key)
    return moves


@pytest.mark.parametrize("seed", range(24))
def test_agrees_with_brute_force_on_small_word_lists(seed):
    rng = random.Random(seed)
    rules = [CROSSPLAY, SCRABBLE, RULE_SETS["wwf"], DUEL][seed % 4]
    words = sample_words(seed, 600)
    lexicon = small_lexicon(words)
    board, rest = self_play(rules, lexicon, seed, turns=rng.randint(0, 7))
    letters = [t for t in rest if t != "?"]
    blanks = min(rules.blanks, seed % 3)
    rack = "".join(rng.sample(letters, 7 - blanks)) + "?" * blanks
    _agree(board, rack, rules, words, lexicon, premiums=seed % 5 != 0)


@pytest.mark.parametrize("seed", [101, 202])
def test_agrees_with_brute_force_on_the_real_word_list(seed, enable):
    rng = random.Random(seed)
    board, rest = self_play(CROSSPLAY, enable, seed, turns=5)
    rack = "".join(rng.sample([t for t in rest if t != "?"], 6)) + "?"
    moves = _agree(board, rack, CROSSPLAY, list(enable_words()), enable)
    assert len(moves) > 50


def test_every_generated_play_passes_the_reference_checker(enable):
    board, _ = self_play(SCRABBLE, enable, 7, turns=6)
    for move in generate(board, "EARTHS?", SCRABBLE, enable, top=300):
        checked = check_play(board, move.tiles, enable, "EARTHS?")
        assert score_play(board, checked, SCRABBLE).total == move.score
        assert checked.main.direction == move.direction
        assert (checked.main.row, checked.main.col) == (move.row, move.col)
        assert checked.main.text == move.word.upper()


def test_opening_lists_quixote_at_8_6_first_under_crossplay(enable):
    best = generate(Board.empty(), "QUIXOTE", CROSSPLAY, enable, top=1)[0]
    assert (best.word, best.row + 1, best.col + 1, best.direction, best.score) == (
        "QUIXOTE",
        8,
        6,
        "across",
        110,
    )


def test_top_keeps_the_same_order_as_the_full_list(enable):
    board, _ = self_play(CROSSPLAY, enable, 3, turns=4)
    every = generate(board, "RETAIN?", CROSSPLAY, enable)
    assert generate(board, "RETAIN?", CROSSPLAY, enable, top=25) == every[:25]


def test_no_rack_or_no_fit_means_no_plays(enable):
    assert generate(Board.empty(), "", CROSSPLAY, enable) == []
    assert generate(Board.empty(), "Q", CROSSPLAY, enable) == []


small_words = st.lists(
    st.text(alphabet="AEINORST", min_size=2, max_size=5), min_size=1, max_size=40
)


@settings(max_examples=40, deadline=None)
@given(
    small_words,
    st.integers(min_value=0, max_value=10_000),
    st.integers(min_value=0, max_value=5),
    st.text(alphabet="AEINORST?", min_size=1, max_size=7),
)
def test_agrees_with_brute_force_on_any_tiny_word_list(words, seed, turns, rack):
    lexicon = small_lexicon(words)
    board, _ = self_play(CROSSPLAY, lexicon, seed, turns=turns)
    rack = rack[:7] if rack.count("?") <= 3 else rack.replace("?", "A")
    _agree(board, rack, CROSSPLAY, words, lexicon)


def test_two_letter_openings_are_generated(enable):
    moves = generate(Board.empty(), "AT", CROSSPLAY, enable)
    spots = {(m.word, m.row + 1, m.col + 1, m.direction) for m in moves}
    assert ("AT", 8, 7, "across") in spots
    assert ("AT", 8, 8, "across") in spots
    assert ("TA", 7, 8, "down") in spots
    assert all(len(m.tiles) == 2 for m in moves)
