"""Duel bots: levels ordered by strength, seeded, and able to finish a game."""

import random
import statistics

import pytest
from crossing.duel import bots
from crossing.duel.game import Place, Skip, Swap, start_duel, step
from crossing.game_files import default_lexicon
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


@pytest.mark.parametrize("limit", [3 * 60_000, 5 * 60_000, 10 * 60_000, 20 * 60_000, None])
def test_hard_answers_within_a_second_and_a_half_and_easy_within_three(limit):
    pauses = {
        level: [bots.think_ms(level, limit, random.Random(n)) for n in range(300)]
        for level in bots.THINK_MS
    }
    # The pause leaves room, within 1.5 s and 3 s, for the page's tick (250 ms) and the server.
    assert max(pauses["hard"]) <= 1_200
    assert max(pauses["medium"]) <= 1_900
    assert max(pauses["easy"]) <= 2_600
    assert min(min(p) for p in pauses.values()) > 0


def test_a_short_game_has_short_pauses():
    three = [bots.think_ms("easy", 3 * 60_000, random.Random(n)) for n in range(100)]
    twenty = [bots.think_ms("easy", 20 * 60_000, random.Random(n)) for n in range(100)]
    assert statistics.mean(three) < statistics.mean(twenty) / 2
