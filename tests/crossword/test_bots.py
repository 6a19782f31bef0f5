"""Bots as pure functions: seeded, ordered by level, fair on the shared board."""

import random
import statistics

from crossing.crossword import bots
from crossing.crossword import together as G
from crossing.crossword.commands import Type
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
        turn = bots.together_turn(game, "bot1", "hard", random.Random(seed), 0)
        picks.append({c.square for c in turn.commands if isinstance(c, Type)})
    crossing = set().union(*(MINI.grid.slot(s).squares for s in ("1d", "2d", "4d", "5d")))
    touching = sum(bool(p & crossing) for p in picks)
    assert touching > 0.6 * len(picks)


def test_a_together_bot_that_solves_types_the_answer_and_one_that_does_not_keeps_letters():
    game = G.start_together(MINI, ["ann", "bot1"], 0)
    game, _ = run(G, game, [Type("ann", MINI.grid.slot("1a").squares[0], "X")], 0)
    typed_over = set()
    for seed in range(300):
        turn = bots.together_turn(game, "bot1", "easy", random.Random(seed), 0)
        for c in turn.commands:
            if isinstance(c, Type) and c.letter != MINI.solution[c.square]:
                # a wrong guess goes only in an empty square, never over a letter
                assert game.board[c.square].letter == "."
            if isinstance(c, Type) and game.board[c.square].letter != ".":
                typed_over.add(c.square)
                assert c.letter == MINI.solution[c.square]  # only a solved word corrects


def full_board(wrong=()):
    game = G.start_together(MINI, ["ann", "bot1"], 0)
    letters = {sq: "Q" if sq in wrong else MINI.solution[sq] for sq in MINI.white_squares}
    game, _ = run(G, game, [Type("ann", sq, ch) for sq, ch in letters.items()], 0)
    return game


def rereads(game, level, seed, waited_for=False, look=None):
    """A bot alone on a full board, turn after turn until Done, each turn when a room
    would give it (``bots.acts_at``), the first as the board fills: the (ms, command) it
    typed, the board at its Done, and the moment of its Done."""
    typed, at = [], game.changed_ms
    look = look or bots.first_look(level, bots.rng_for(seed, "first"))
    for n in range(500):
        rng = bots.rng_for(seed, n)
        turn = bots.together_turn(game, "bot1", level, rng, at, look, waited_for)
        if turn.think_ms is None:
            return typed, game, at
        for c in turn.commands:
            typed.append((at, c))
            game, _ = G.step(game, c, at)
        look = turn.look
        at = bots.acts_at(game, level, look, at + turn.think_ms)
    raise AssertionError("the bot never tapped Done")


def test_a_full_board_bot_rereads_words_as_a_solver_does_not_as_a_check_button():
    two_wrong = full_board(wrong=(2, 12))
    assert rereads(two_wrong, "hard", 1) == rereads(two_wrong, "hard", 1)  # fixed by its seed
    runs = [rereads(two_wrong, "hard", seed) for seed in range(60)]
    # Not at once: the first change comes after some words have been re-read.
    firsts = sorted(typed[0][0] for typed, _, _ in runs if typed)
    assert firsts[len(firsts) // 2] > 5_000
    both_soon = sum(
        {2, 12}
        <= {c.square for ms, c in typed if ms <= 9_000 and c.letter == MINI.solution[c.square]}
        for typed, _, _ in runs
    )
    assert both_soon < len(runs) / 4  # it was every time, within 3 to 9 s
    # Not always: sometimes a wrong word is left alone, and Done tapped over it.
    left = sum(any(game.board[sq].letter == "Q" for sq in (2, 12)) for _, game, _ in runs)
    assert 0 < left < len(runs) * 0.6
    # Not only wrong squares: a doubt that is not solved changes a right letter.
    on_right = sum(c.square not in (2, 12) for typed, _, _ in runs for _, c in typed)
    assert on_right > 0


def test_a_full_right_board_is_mostly_left_alone_then_done():
    game = full_board()
    runs = [rereads(game, level, seed) for level in bots.LEVELS for seed in range(30)]
    assert sum(bool(typed) for typed, _, _ in runs) < len(runs) / 2


SECONDS_TO_DONE = {"easy": 60, "medium": 40, "hard": 20}  # after the board's last change


def boards():
    """Full boards: right, two wrong squares, every square wrong, and a Large with six."""
    large = synthetic_puzzle(11, 1)
    six = set(large.white_squares[::17][:6])
    wrong_large = G.start_together(large, ["ann", "bot1"], 0)
    letters = {sq: "Q" if sq in six else large.solution[sq] for sq in large.white_squares}
    wrong_large, _ = run(G, wrong_large, [Type("ann", sq, ch) for sq, ch in letters.items()], 0)
    return [full_board(), full_board(wrong=(2, 12)), full_board(MINI.white_squares), wrong_large]


def test_a_full_board_bot_taps_done_within_its_levels_time_after_the_last_change():
    for game in boards():
        for level, seconds in SECONDS_TO_DONE.items():
            for seed in range(15):
                _, end, done_at = rereads(game, level, seed)
                assert done_at - end.changed_ms <= seconds * 1000, (level, seed)


def test_a_word_that_has_read_wrong_to_a_bot_twice_it_lets_stand():
    """So its changes are bounded: two bots cannot break and mend a board for ever."""
    game = full_board(MINI.white_squares)  # every word wrong
    twice = bots.Look(doubts={s.id: 2 for s in MINI.slots})
    for level in bots.LEVELS:
        for seed in range(20):
            typed, _, _ = rereads(game, level, seed, look=twice)
            assert typed == []
        # while it had not, it worked them
        assert sum(bool(rereads(game, level, seed)[0]) for seed in range(20)) > 15


def test_once_every_person_is_done_a_bot_changes_only_words_it_solves():
    """A right board then stays right, and the check waits at most a bot's patience."""
    right, two_wrong = full_board(), full_board(wrong=(2, 12))
    for level in bots.LEVELS:
        for seed in range(40):
            typed, _, _ = rereads(right, level, seed, waited_for=True)
            assert typed == []
            typed, _, _ = rereads(two_wrong, level, seed, waited_for=True)
            assert all(c.letter == MINI.solution[c.square] for _, c in typed)
