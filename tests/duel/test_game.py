"""Duel: turns, plays, swaps, skips, resigning, clocks and every way a game ends."""

from collections import Counter
from dataclasses import replace

import pytest
from crossing.crossword.commands import Refused
from crossing.duel import elo
from crossing.duel.game import (
    RULES,
    Place,
    Resign,
    Skip,
    Swap,
    Tick,
    full_bag,
    start_duel,
    step,
)
from crossing.game_files import default_lexicon
from crossing.tiles.board import Board
from crossing.tiles.movegen import generate
from hypothesis import given, settings
from hypothesis import strategies as st

T0 = 1_000_000
MIN = 60_000
LEX = default_lexicon()


def duel(limit=None, seed=5):
    return start_duel(["ann", "bob"], T0, seed=seed, limit_ms=limit)


def best(d):
    move = generate(d.board, d.seats[d.turn].rack, RULES, LEX, top=1)[0]
    return Place(d.to_move, tuple((t.row, t.col, t.letter) for t in move.tiles)), move


def refused(d, command, code, now=T0):
    with pytest.raises(Refused) as caught:
        step(d, command, now, LEX)
    assert caught.value.code == code
    return str(caught.value)


def test_the_bag_holds_98_tiles_with_the_scrabble_letters_and_no_blanks():
    assert len(full_bag()) == 98
    assert Counter(full_bag())["E"] == 12
    assert "?" not in full_bag()
    d = duel()
    assert [len(s.rack) for s in d.seats] == [7, 7]
    assert len(d.bag) == 84
    assert d.tiles_in_play() == Counter(full_bag())


def test_a_play_scores_by_the_duel_rules_refills_the_rack_and_passes_the_turn():
    d = duel()
    place, move = best(d)
    after, turns = step(d, place, T0 + 5000, LEX)
    assert turns[-1].score == move.score
    assert after.seats[0].score == move.score
    assert len(after.seats[0].rack) == 7
    assert len(after.bag) == 84 - len(move.tiles)
    assert after.to_move == "bob"


def test_the_first_play_covers_the_middle_square():
    d = duel()
    rack = d.seats[0].rack
    message = refused(d, Place("ann", ((0, 0, rack[0]), (0, 1, rack[1]))), "illegal-play")
    assert "centre" in message


def test_only_the_player_to_move_may_play_and_only_their_own_tiles():
    d = duel()
    place, _ = best(d)
    refused(d, replace(place, player="bob"), "not-your-turn")
    refused(d, Place("zed", place.tiles), "not-a-player")
    missing = next(ch for ch in "QZXJ" if ch not in d.seats[0].rack)
    assert "rack" in refused(d, Place("ann", ((7, 7, missing), (7, 8, "A"))), "illegal-play")


def test_words_must_be_in_the_list_and_a_rejected_play_changes_nothing():
    d = duel()
    rack = d.seats[0].rack
    tiles = tuple((7, 7 + i, ch) for i, ch in enumerate(rack[:2]))
    if "".join(rack[:2]) not in LEX:
        assert "word list" in refused(d, Place("ann", tiles), "illegal-play")
    assert d.to_move == "ann"


def test_a_swap_trades_one_tile_scores_zero_and_ends_the_turn():
    d = duel()
    letter = d.seats[0].rack[0]
    after, turns = step(d, Swap("ann", letter), T0, LEX)
    assert turns[-1].kind == "swap"
    assert after.seats[0].score == 0
    assert len(after.seats[0].rack) == 7
    assert len(after.bag) == len(d.bag)
    assert after.tiles_in_play() == Counter(full_bag())
    assert after.to_move == "bob"
    absent = next(ch for ch in "QZXJK" if ch not in d.seats[0].rack)
    refused(d, Swap("ann", absent), "not-on-rack")
    refused(replace(d, bag=""), Swap("ann", letter), "bag-empty")


def test_four_zero_score_turns_two_each_end_the_game():
    d = duel()
    place, _ = best(d)
    d, _ = step(d, place, T0, LEX)  # ann scores
    for player in ("bob", "ann", "bob"):
        d, _ = step(d, Skip(player), T0, LEX)
        assert not d.over
    d, _ = step(d, Skip("ann"), T0, LEX)
    assert d.result.reason == "zeros"
    assert d.result.winner == "ann"
    refused(d, Skip("bob"), "over")


def test_resigning_gives_the_other_player_the_game():
    d, _ = step(duel(), Resign("bob"), T0, LEX)  # at any time, even out of turn
    assert (d.result.reason, d.result.winner) == ("resigned", "ann")


def test_the_game_ends_when_the_bag_is_empty_and_a_rack_is_played_out():
    d = duel()
    place, move = best(d)
    letters = "".join(t.letter for t in move.tiles)
    d = replace(d, bag="", seats=(replace(d.seats[0], rack=letters), d.seats[1]))
    done, _ = step(d, place, T0, LEX)
    assert done.result.reason == "tiles"
    assert done.result.winner == "ann"
    assert done.seats[0].rack == ""


def test_each_clock_runs_only_on_its_players_turn():
    d = duel(limit=10 * MIN)
    place, _ = best(d)
    d, _ = step(d, place, T0 + 30_000, LEX)
    assert d.time_left("ann", T0 + 5 * MIN) == 10 * MIN - 30_000
    assert d.time_left("bob", T0 + 5 * MIN) == 10 * MIN - (5 * MIN - 30_000)


def test_a_player_out_of_time_gets_no_more_turns_and_the_other_plays_on():
    d = duel(limit=1 * MIN)
    assert d.due_at() == T0 + MIN
    d, turns = step(d, Tick(), T0 + MIN, LEX)
    assert [t.kind for t in turns] == ["time"]
    assert d.seats[0].out_of_time and d.to_move == "bob"
    refused(d, Skip("ann"), "out-of-time")
    place, _ = best(d)
    d, _ = step(d, place, T0 + MIN + 1000, LEX)
    assert d.to_move == "bob"  # ann's turns are skipped now
    d, _ = step(d, Tick(), T0 + 5 * MIN, LEX)  # bob's own minute runs out too
    assert d.result.reason == "time"
    assert d.result.winner == "bob"


def test_a_flag_fall_applied_late_is_the_same_as_on_time():
    d = duel(limit=MIN)
    on_time, _ = step(d, Tick(), T0 + MIN, LEX)
    late, _ = step(d, Tick(), T0 + MIN + 40_000, LEX)
    assert on_time.seats[0] == late.seats[0]
    assert late.seats[1].clock.read(T0 + MIN + 40_000) == 40_000  # bob's clock from the fall


def test_unlimited_games_have_no_flag():
    assert duel().due_at() is None


@settings(max_examples=12, deadline=None)
@given(
    st.integers(0, 10_000), st.lists(st.sampled_from(["play", "play", "swap", "skip"]), max_size=24)
)
def test_tiles_are_conserved_racks_bag_and_board_always_98(seed, kinds):
    d = duel(seed=seed)
    for n, kind in enumerate(kinds):
        if d.over:
            break
        if kind == "play":
            moves = generate(d.board, d.seats[d.turn].rack, RULES, LEX, top=8)
            if not moves:
                continue
            m = moves[n % len(moves)]
            command = Place(d.to_move, tuple((t.row, t.col, t.letter) for t in m.tiles))
        elif kind == "swap" and d.bag:
            command = Swap(d.to_move, d.seats[d.turn].rack[n % 7])
        else:
            command = Skip(d.to_move)
        d, _ = step(d, command, T0 + n, LEX)
        assert d.tiles_in_play() == Counter(full_bag())
        assert all(len(s.rack) <= 7 for s in d.seats)
        assert isinstance(d.board, Board)


def test_elo_winner_gains_what_loser_loses_and_upsets_move_more():
    assert (elo.updated(1000, 1000, 1), elo.updated(1000, 1000, 0)) == (1016, 984)
    upset = elo.updated(1000, 1400, 1)
    expected_win = elo.updated(1400, 1000, 1)
    assert upset - 1000 > expected_win - 1400
    assert elo.updated(1200, 1200, 0.5) == 1200
    with pytest.raises(ValueError, match="result"):
        elo.updated(1000, 1000, 2)


# --- flag falls: each way a game with a fallen flag can end ---------------------------------


def test_both_flags_falling_ends_the_game_on_time():
    d = duel(limit=MIN)
    d, _ = step(d, Tick(), T0 + MIN, LEX)  # ann's flag
    d, turns = step(d, Tick(), T0 + 2 * MIN, LEX)  # then bob's
    assert [t.kind for t in turns] == ["time"]
    assert d.result.reason == "time"
    assert [t.kind for t in d.moves] == ["time", "time"]


def test_after_one_flag_the_player_left_ends_it_with_two_zero_turns_of_their_own():
    d = duel(limit=MIN)
    d, _ = step(d, Skip("ann"), T0 + 1000, LEX)  # a zero turn before the flag
    d, _ = step(d, Tick(), T0 + 1000 + MIN, LEX)  # bob's flag falls on his turn
    assert d.seats[1].out_of_time and d.to_move == "ann"
    d, _ = step(d, Skip("ann"), T0 + MIN + 2000, LEX)
    assert not d.over, "ann's skip before the flag does not count with this one"
    d, _ = step(d, Skip("ann"), T0 + MIN + 3000, LEX)
    assert d.result.reason == "zeros_alone"


def test_after_one_flag_the_player_left_can_play_out_the_tiles():
    d = duel(limit=MIN)
    d, _ = step(d, Tick(), T0 + MIN, LEX)  # ann's flag falls; bob plays on
    place, move = best(d)
    letters = "".join(t.letter for t in move.tiles)
    d = replace(d, bag="", seats=(d.seats[0], replace(d.seats[1], rack=letters)))
    done, _ = step(d, place, T0 + MIN + 1000, LEX)
    assert done.result.reason == "tiles" and done.result.winner == "bob"


def test_after_one_flag_the_player_left_may_still_resign():
    d = duel(limit=MIN)
    d, _ = step(d, Tick(), T0 + MIN, LEX)
    d, _ = step(d, Resign("bob"), T0 + MIN + 1000, LEX)
    assert (d.result.reason, d.result.winner) == ("resigned", "ann")


def test_a_play_is_named_by_where_its_main_word_starts():
    d = duel()
    d = replace(d, seats=(replace(d.seats[0], rack="ACTEORS"), d.seats[1]))
    across, [turn] = step(d, Place("ann", ((7, 6, "C"), (7, 7, "A"), (7, 8, "T"))), T0, LEX)
    assert (turn.at, turn.words) == ("8G", ("CAT",))
    _, [turn] = step(d, Place("ann", ((6, 7, "C"), (7, 7, "A"), (8, 7, "T"))), T0, LEX)
    assert turn.at == "H7"
    # A tile that extends a word names the whole word's start, not the new tile.
    bob = replace(across.seats[1], rack="SEEDERS")
    _, [turn] = step(
        replace(across, seats=(across.seats[0], bob)), Place("bob", ((7, 9, "S"),)), T0, LEX
    )
    assert (turn.at, turn.words) == ("8G", ("CATS",))
