"""Bots as pure functions: seeded, ordered by level, fair on the shared board."""

import random
import statistics

from crossing.crossword import bots
from crossing.crossword import together as G
from crossing.crossword.commands import Done, Type
from crossing.rooms.simulate import synthetic_puzzle

from tests.crossword.helpers import run, type_answer
from tests.crossword.puzzles import MINI


def test_a_race_plan_is_fixed_by_its_seed():
    assert bots.race_plan(MINI, "medium", "s1") == bots.race_plan(MINI, "medium", "s1")
    assert bots.race_plan(MINI, "medium", "s1") != bots.race_plan(MINI, "medium", "s2")


def test_a_race_bot_fills_every_square_once_fast_first_slower_last_then_done():
    plan = bots.race_plan(MINI, "hard", 7)
    squares = [sq for _, sq, _ in plan.fills]
    assert sorted(squares) == sorted(MINI.white_squares)
    times = [at for at, _, _ in plan.fills]
    assert times == sorted(times)
    gaps = [b - a for a, b in zip([0, *times], times, strict=False)]
    third = len(gaps) // 3
    assert statistics.mean(gaps[-third:]) > 1.5 * statistics.mean(gaps[:third])
    assert 2000 <= plan.done_ms - times[-1] <= 6000  # Done a few seconds after it is full


def race_figures(level, width, seeds=range(80)):
    plans = [bots.race_plan(synthetic_puzzle(width, s), level, s) for s in seeds]
    puzzles = [synthetic_puzzle(width, s) for s in seeds]
    wrong = [
        sum(letter != p.solution[sq] for _, sq, letter in plan.fills)
        for plan, p in zip(plans, puzzles, strict=True)
    ]
    return statistics.median(p.done_ms for p in plans), statistics.mean(wrong)


def test_levels_are_ordered_in_a_race_hard_faster_and_more_accurate():
    for width in (5, 7, 9, 11):
        easy, medium, hard = (race_figures(level, width) for level in bots.LEVELS)
        assert easy[0] > medium[0] > hard[0]
        assert easy[1] > medium[1] > hard[1]


def test_a_hard_bot_on_a_mini_takes_about_a_minute_and_easy_bots_beat_the_limits():
    hard_mini, _ = race_figures("hard", 5)
    assert 45_000 <= hard_mini <= 80_000
    for width, limit_min in ((5, 5), (7, 10), (9, 20), (11, 30)):
        easy, _ = race_figures("easy", width)
        assert easy < 0.85 * limit_min * 60_000


def test_a_together_bot_prefers_words_with_letters_in():
    game = G.start_together(MINI, ["ann", "bot1"], 0)
    game, _ = run(G, game, type_answer(MINI, "ann", "4a"), 0)  # ASIDE: crosses every down
    picks = []
    for seed in range(200):
        turn = bots.together_turn(game, "bot1", "hard", random.Random(seed))
        picks.append({c.square for c in turn.commands if isinstance(c, Type)})
    crossing = set().union(*(MINI.grid.slot(s).squares for s in ("1d", "2d", "4d", "5d")))
    touching = sum(bool(p & crossing) for p in picks)
    assert touching > 0.6 * len(picks)


def test_a_together_bot_that_solves_types_the_answer_and_one_that_does_not_keeps_letters():
    game = G.start_together(MINI, ["ann", "bot1"], 0)
    game, _ = run(G, game, [Type("ann", MINI.grid.slot("1a").squares[0], "X")], 0)
    typed_over = set()
    for seed in range(300):
        turn = bots.together_turn(game, "bot1", "easy", random.Random(seed))
        for c in turn.commands:
            if isinstance(c, Type) and c.letter != MINI.solution[c.square]:
                # a wrong guess goes only in an empty square, never over a letter
                assert game.board[c.square].letter == "."
            if isinstance(c, Type) and game.board[c.square].letter != ".":
                typed_over.add(c.square)
                assert c.letter == MINI.solution[c.square]  # only a solved word corrects


def test_a_full_board_bot_fixes_a_wrong_word_or_taps_done():
    game = G.start_together(MINI, ["ann", "bot1"], 0)
    commands = [Type("ann", sq, MINI.solution[sq]) for sq in MINI.white_squares]
    game, _ = run(G, game, commands, 0)
    turn = bots.together_turn(game, "bot1", "easy", random.Random(1))
    assert turn.commands == (Done("bot1"),)
    assert turn.think_ms is None
    game, _ = G.step(game, Type("ann", 2, "X"), 0)
    fixes = [bots.together_turn(game, "bot1", "hard", random.Random(s)) for s in range(50)]
    assert sum(Type("bot1", 2, "S") in t.commands for t in fixes) > 40
