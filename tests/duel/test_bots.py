"""Duel bots: levels ordered by strength, seeded, and able to finish a game."""

import statistics

import pytest
from crossing.duel import bots
from crossing.duel.game import Place, Skip, Swap, start_duel, step
from crossing.tiles.lexicon import default_lexicon
from crossing.tiles.movegen import generate

LEX = default_lexicon()


def bot_game(level_a, level_b, seed, max_moves=60):
    d = start_duel(["a", "b"], 0, seed=seed)
    levels = {"a": level_a, "b": level_b}
    t = 0
    while not d.over and len(d.moves) < max_moves:
        t += 1000
        d, _ = step(d, bots.choose(d, levels[d.to_move], LEX), t, LEX)
    return d


def test_a_hard_bot_makes_the_top_play():
    d = start_duel(["a", "b"], 0, seed=3)
    move = bots.choose(d, "hard", LEX)
    top = generate(d.board, d.seats[0].rack, bots.RULES, LEX, top=1)[0]
    assert move == Place("a", tuple((t.row, t.col, t.letter) for t in top.tiles))


def test_the_same_position_gives_the_same_choice():
    d = start_duel(["a", "b"], 0, seed=4)
    assert bots.choose(d, "medium", LEX) == bots.choose(d, "medium", LEX)


def test_levels_are_ordered_by_the_points_they_score_per_move():
    def per_move(level):
        scores = []
        for seed in range(4):
            d = start_duel(["a", "b"], 0, seed=seed)
            for _ in range(6):
                command = bots.choose(d, level, LEX)
                d, turns = step(d, command, 0, LEX)
                scores.append(turns[-1].score)
        return statistics.mean(scores)

    easy, medium, hard = per_move("easy"), per_move("medium"), per_move("hard")
    assert hard > medium > easy


def test_a_game_between_bots_reaches_a_result():
    d = bot_game("hard", "easy", seed=2, max_moves=200)
    assert d.over
    assert d.result.reason in ("tiles", "zeros")


def test_with_no_play_a_bot_swaps_or_skips():
    d = start_duel(["a", "b"], 0, seed=1)
    stuck = d.__class__(
        **{**d.__dict__, "seats": (d.seats[0].__class__("a", "QQQQQQQ"), d.seats[1])}
    )
    assert isinstance(bots.choose(stuck, "hard", LEX), Swap)
    empty_bag = stuck.__class__(**{**stuck.__dict__, "bag": ""})
    assert bots.choose(empty_bag, "hard", LEX) == Skip("a")


def test_an_unknown_level_is_refused():
    with pytest.raises(ValueError, match="level"):
        bots.choose(start_duel(["a", "b"], 0, seed=1), "genius", LEX)
