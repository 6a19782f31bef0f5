"""The compiled search lists exactly the Python reference's plays, in the same order, with
the same scores; and its top N is the head of the full list."""

from __future__ import annotations

import random
from functools import cache

import pytest
from crossing.game_files import default_lexicon
from crossing.tiles import movegen
from crossing.tiles.board import Board
from crossing.tiles.lexicon import Lexicon
from crossing.tiles.movegen import compiled_available, generate, generate_python
from crossing.tiles.rules import RULE_SETS
from crossing.tiles.selfplay import self_play
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tiles.conftest import sample_words

RULES = list(RULE_SETS.values())


@cache
def sampled_lexicon(seed: int) -> Lexicon:
    return Lexicon.from_words(sample_words(seed, 4000))


@cache
def played(rules_name: str, lexicon_seed: int | None, seed: int, turns: int):
    lexicon = default_lexicon() if lexicon_seed is None else sampled_lexicon(lexicon_seed)
    return self_play(RULE_SETS[rules_name], lexicon, seed, turns=turns)


@st.composite
def positions(draw, lexicon_seeds, most_turns):
    """A self-played board (some tiles turned into blanks) and a rack from what is left."""
    rules = draw(st.sampled_from(RULES))
    lexicon_seed = draw(st.sampled_from(lexicon_seeds))
    seed = draw(st.integers(0, 400))
    turns = draw(st.integers(0, most_turns))
    board, rest = played(rules.name, lexicon_seed, seed, turns)
    rng = random.Random(draw(st.integers(0, 2**32)))
    rack_blanks = draw(st.integers(0, rules.blanks))
    board_blanks = draw(st.integers(0, rules.blanks - rack_blanks))
    tiles = list(board.tiles())
    if tiles and board_blanks:
        chosen = rng.sample(tiles, min(board_blanks, len(tiles)))
        board = board.with_tiles((r, c, letter.lower()) for r, c, letter in chosen)
    letters = [t for t in rest if t != "?"]
    size = draw(st.integers(1, rules.rack_size))
    drawn = rng.sample(letters, min(len(letters), max(0, size - rack_blanks)))
    rack = "".join(drawn) + "?" * rack_blanks
    premiums = draw(st.booleans())
    lexicon = default_lexicon() if lexicon_seed is None else sampled_lexicon(lexicon_seed)
    return board, rack or "E", rules, lexicon, premiums


FAST = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)


def test_the_compiled_search_is_built():
    # pip install builds it; without it every solve runs the slow Python search.
    assert compiled_available()


@settings(FAST, max_examples=2500)
@given(positions(lexicon_seeds=[0, 1, 2, 3], most_turns=14))
def test_compiled_equals_python_on_sampled_word_lists(position):
    board, rack, rules, lexicon, premiums = position
    expected = generate_python(board, rack, rules, lexicon, premiums)
    assert generate(board, rack, rules, lexicon, premiums) == expected


@settings(FAST, max_examples=120)
@given(positions(lexicon_seeds=[None], most_turns=12))
def test_compiled_equals_python_on_the_real_word_list(position):
    board, rack, rules, lexicon, premiums = position
    expected = generate_python(board, rack, rules, lexicon, premiums)
    assert generate(board, rack, rules, lexicon, premiums) == expected


@settings(FAST, max_examples=400)
@given(positions(lexicon_seeds=[None, 0], most_turns=14), st.sampled_from([1, 2, 3, 10, 40]))
def test_top_n_is_the_head_of_the_full_list(position, top):
    board, rack, rules, lexicon, premiums = position
    full = generate(board, rack, rules, lexicon, premiums)
    assert generate(board, rack, rules, lexicon, premiums, top=top) == full[:top]


def test_blank_variants_and_opening_match_on_a_two_blank_opening(enable):
    rules = RULE_SETS["crossplay"]
    expected = generate_python(Board.empty(), "RETAI??", rules, enable)
    found = generate(Board.empty(), "RETAI??", rules, enable)
    assert found == expected
    assert len(found) > 50_000


def test_without_the_compiled_module_the_python_search_answers(enable, monkeypatch):
    rules = RULE_SETS["crossplay"]
    monkeypatch.setattr(movegen, "_compiled", None)
    moves = generate(Board.empty(), "QUIXOTE", rules, enable, top=1)
    assert (moves[0].word, moves[0].row, moves[0].col, moves[0].score) == ("QUIXOTE", 7, 5, 110)


def test_a_corrupt_word_graph_is_refused_not_followed(enable):
    # An arc index past the end of the graph: reading it would crash the process.
    nodes = enable.nodes[:1000]
    broken = Lexicon.__new__(Lexicon)
    broken.nodes = nodes
    broken.root = enable.root
    broken.graph_checked = False
    with pytest.raises(ValueError, match="outside the graph"):
        generate(Board.empty(), "QUIXOTE", RULE_SETS["crossplay"], broken)
