"""A stored Duel: who moves first, the bot's move and flag falls as due events applied
as of their own moment, connections, and the rating changes recorded once."""

from collections import Counter

import pytest
from crossing.crossword.commands import Refused
from crossing.duel import game as G
from crossing.duel.match import (
    Connect,
    Disconnect,
    Paused,
    Player,
    Settle,
    aborted,
    advance,
    rated,
    rating_steps,
    start_match,
    step,
)
from crossing.game_files import default_lexicon
from crossing.rooms.storage import dump_match, load_match

LEX = default_lexicon()
T0 = 5_000_000
MIN = 60_000
ANN = Player("ann", "Ann", 1000, rated=True)
BOB = Player("bob", "Bob", 1100, rated=True)
BOT = Player("bot:hard", "Hard bot", 1000, bot="hard")


def vs_bot(seed, limit=None):
    return start_match("g-1", (ANN, BOT), T0, seed=seed, limit_ms=limit)


def test_who_moves_first_comes_from_the_seed_and_both_orders_happen():
    firsts = {
        start_match("g", (ANN, BOB), T0, seed=s, limit_ms=None).players[0].id for s in range(12)
    }
    assert firsts == {"ann", "bob"}
    again = [start_match("g", (ANN, BOB), T0, seed=3, limit_ms=None) for _ in range(2)]
    assert again[0] == again[1]


def test_a_bot_to_move_has_its_move_due_within_a_second_and_a_half_and_nothing_before():
    match = next(m for m in (vs_bot(s) for s in range(20)) if m.duel.to_move == BOT.id)
    assert 0 < match.bot_due - T0 <= 1_200
    early, made = advance(match, match.bot_due - 1, LEX)
    assert early == match and made == []
    moved, made = advance(match, match.bot_due, LEX)
    assert [t.player for t in made] == [BOT.id]
    assert moved.duel.to_move == ANN.id and moved.bot_due is None


def test_a_bot_move_applied_late_is_the_one_it_would_have_made_on_time():
    match = next(m for m in (vs_bot(s, 5 * MIN) for s in range(20)) if m.duel.to_move == BOT.id)
    on_time, _ = advance(match, match.bot_due, LEX)
    late, _ = advance(match, match.bot_due + 40_000, LEX)
    assert late.duel.board == on_time.duel.board
    # The bot's clock stopped when it moved, and the human's runs from that moment.
    assert late.duel.seats == on_time.duel.seats
    assert late.duel.time_left(ANN.id, match.bot_due + 40_000) == 5 * MIN - 40_000


def test_the_human_moves_and_the_bot_answers_by_itself():
    match = next(m for m in (vs_bot(s) for s in range(20)) if m.duel.to_move == ANN.id)
    assert match.bot_due is None
    match, _ = step(match, G.Skip(ANN.id), T0 + 1_000, LEX)
    assert match.bot_due is not None and match.due_at() == match.bot_due
    with pytest.raises(Refused, match="not your turn"):
        step(match, G.Skip(ANN.id), T0 + 1_500, LEX)
    with pytest.raises(Refused, match="bot"):
        step(match, G.Skip(BOT.id), T0 + 1_500, LEX)
    match, made = step(match, G.Tick(), match.bot_due, LEX)
    assert made[-1].player == BOT.id and match.duel.to_move == ANN.id


def test_a_flag_that_falls_before_the_bots_move_falls_first():
    match = next(m for m in (vs_bot(s, 3 * MIN) for s in range(20)) if m.duel.to_move == ANN.id)
    match, made = advance(match, T0 + 3 * MIN + 60_000, LEX)
    assert made[0] == G.Turn(ANN.id, "time")
    assert made[1].player == BOT.id  # then the bot plays on, its move due after the flag
    assert match.duel.seats[match.seat_of(ANN.id)].out_of_time


def test_a_bot_game_reaches_a_result_on_due_events_alone():
    match = vs_bot(11, 3 * MIN)
    match, _ = advance(match, T0 + 60 * MIN, LEX)
    assert match.over and match.ended_at is not None
    assert match.due_at() == match.ended_at  # the ratings are still to be recorded
    assert sum(match.duel.tiles_in_play().values()) == 98
    settled, _ = step(match, Settle((None, None)), T0 + 61 * MIN, LEX)
    assert settled.settled and settled.due_at() is None
    again, _ = step(settled, Settle(((1000, 1016), None)), T0 + 62 * MIN, LEX)
    assert again.ratings == (None, None)  # recorded once


def test_only_the_two_players_connect_and_a_closed_tab_is_forgotten():
    match = start_match("g", (ANN, BOB), T0, seed=1, limit_ms=None)
    match, _ = step(match, Connect(ANN.id, "c1"), T0, LEX)
    match, _ = step(match, Connect(ANN.id, "c2"), T0, LEX)
    assert match.connections == {ANN.id: ("c1", "c2")}
    with pytest.raises(Refused, match="not playing"):
        step(match, Connect("cat", "c3"), T0, LEX)
    match, _ = step(match, Disconnect("c1"), T0, LEX)
    match, _ = step(match, Disconnect("c2"), T0, LEX)
    assert match.connections == {}


def test_a_match_stores_and_loads_unchanged():
    match, _ = advance(vs_bot(4, 3 * MIN), T0 + 20 * MIN, LEX)
    assert load_match(dump_match(match)) == match
    assert Counter(match.duel.tiles_in_play()) == Counter(G.full_bag())


def test_a_bots_pause_never_comes_off_its_clock_so_an_easy_bot_never_loses_on_time():
    """The issue's case: an Easy bot in a 3-minute game used to run out of time."""
    easy = Player("bot:easy", "Easy bot", 1000, bot="easy")
    for seed in range(6):
        match = start_match("g", (ANN, easy), T0, seed=seed, limit_ms=3 * MIN)
        bot = match.seat_of(easy.id)
        now = T0
        while not match.over and len(match.duel.moves) < 60:
            if match.duel.to_move == easy.id:
                assert match.bot_due - now <= 2_600 * 0.4  # short game, short pause
                now = match.bot_due
                match, _ = advance(match, now, LEX)
            else:
                now += 1_000  # the human answers in a second, with a skip or a swap
                match, _ = step(match, G.Skip(ANN.id), now, LEX)
        assert match.duel.time_left(easy.id, now) == 3 * MIN
        assert not match.duel.seats[bot].out_of_time
        assert match.duel.result is None or match.duel.result.reason != "time"


GUEST = Player("guest-1", "Gus", 1000)


def test_only_a_game_between_two_registered_players_is_rated():
    assert rated(start_match("g", (ANN, BOB), T0, seed=1, limit_ms=None))
    assert not rated(start_match("g", (ANN, GUEST), T0, seed=1, limit_ms=None))
    assert not rated(vs_bot(1))


def test_rating_steps_none_for_guests_and_aborted_games_elo_otherwise():
    match = start_match("g", (ANN, BOB), T0, seed=1, limit_ms=None)
    first, second = (
        match.duel.to_move,
        next(p.id for p in match.players if p.id != match.duel.to_move),
    )
    at_once, _ = step(match, G.Resign(second), T0, LEX)
    assert aborted(at_once) and rating_steps(at_once) == (None, None)
    one_moved, _ = step(match, G.Skip(first), T0, LEX)
    one_moved, _ = step(one_moved, G.Resign(second), T0, LEX)
    assert aborted(one_moved) and rating_steps(one_moved) == (None, None)
    both, _ = step(match, G.Skip(first), T0, LEX)
    both, _ = step(both, G.Skip(second), T0, LEX)
    both, _ = step(both, G.Resign(BOB.id), T0, LEX)
    assert not aborted(both)
    steps = dict(zip((p.id for p in both.players), rating_steps(both), strict=True))
    assert steps == {"ann": 20, "bob": -20}  # Ann, 100 below Bob, gains more than 16
    with_guest = start_match("g", (ANN, GUEST), T0, seed=1, limit_ms=None)
    a, b = (p.id for p in with_guest.players)
    for p in (with_guest.duel.to_move, a if with_guest.duel.to_move == b else b):
        with_guest, _ = step(with_guest, G.Skip(p), T0, LEX)
    with_guest, _ = step(with_guest, G.Resign(GUEST.id), T0, LEX)
    assert not aborted(with_guest) and rating_steps(with_guest) == (None, None)


def test_a_player_whose_flag_fell_without_moving_makes_the_game_aborted():
    match = start_match("g", (ANN, BOB), T0, seed=1, limit_ms=MIN)
    match, _ = advance(match, T0 + MIN, LEX)  # the first player's flag, before any move
    assert not match.over
    other = match.duel.to_move
    for n in range(2):
        match, _ = step(match, G.Skip(other), T0 + MIN + n, LEX)
    assert match.over and aborted(match)


# --- a restart is a pause ---------------------------------------------------------------------


def human_to_move(limit=5 * MIN):
    match = next(m for m in (vs_bot(s, limit) for s in range(20)) if m.duel.to_move == ANN.id)
    assert match.duel.seats[0].clock.running
    return match


def test_the_time_the_server_was_away_is_charged_to_nobody():
    match = human_to_move()
    down, up = T0 + 20_000, T0 + 32_000  # 20 s thinking, then 12 s with no server
    back, made = step(match, Paused(down), up, LEX)
    assert made == []
    assert back.duel.time_left(ANN.id, up) == 5 * MIN - 20_000
    assert back.duel.time_left(ANN.id, up + 3_000) == 5 * MIN - 23_000  # it runs on
    assert back.duel.due_at() == match.duel.due_at() + 12_000
    # The same pause told twice counts once.
    assert step(back, Paused(down), up, LEX)[0] == back


def test_a_flag_that_would_have_fallen_while_the_server_was_away_does_not():
    match = human_to_move(limit=MIN)
    down, up = T0 + 50_000, T0 + 80_000  # 10 s left when it went away; back 20 s "late"
    back, made = step(match, Paused(down), up, LEX)
    assert made == [] and not back.duel.seats[0].out_of_time
    assert back.duel.time_left(ANN.id, up) == 10_000


def test_what_fell_due_before_the_server_went_away_happens_as_of_its_moment():
    match = human_to_move(limit=MIN)
    back, made = step(match, Paused(T0 + 70_000), T0 + 90_000, LEX)
    assert made[0].kind == "time"  # the flag fell at T0 + 60 s, before it went away
    assert back.duel.seats[0].out_of_time


def test_a_bot_move_due_while_the_server_was_away_comes_on_its_return():
    match = next(m for m in (vs_bot(s, 5 * MIN) for s in range(20)) if m.duel.to_move == BOT.id)
    down, up = match.bot_due - 100, match.bot_due + 15_000
    back, made = step(match, Paused(down), up, LEX)
    assert made == [] and back.bot_due == up
    moved, made = advance(back, up, LEX)
    assert [t.player for t in made] == [BOT.id]
    # The human's clock starts when the bot's move could be seen, not while the server was away.
    assert moved.duel.time_left(ANN.id, up) == 5 * MIN
