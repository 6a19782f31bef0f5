"""Together: one shared board, earning words, credit, undo and the check."""

import pytest
from crossing.crossword import together as G
from crossing.crossword.commands import (
    Clear,
    Done,
    End,
    Leave,
    Pause,
    Refused,
    Resume,
    TakeBack,
    Type,
    Undo,
)

from tests.crossword.helpers import run, type_answer
from tests.crossword.puzzles import MINI

T0 = 5_000_000
SEC = 1000


def game(players=("ann", "bob", "cat")):
    return G.start_together(MINI, players, T0)


def refused(state, command, code):
    with pytest.raises(Refused) as caught:
        G.step(state, command, T0)
    assert caught.value.code == code
    return str(caught.value)


def sq(slot_id, i):
    return MINI.grid.slot(slot_id).squares[i]


def test_anyone_types_anywhere_and_the_later_letter_stays_with_its_writer():
    g, _ = run(G, game(), [Type("ann", 2, "Q"), Type("bob", 2, "S")], T0)
    assert g.board[2].letter == "S" and g.board[2].writer == "bob"


def test_the_letter_that_finishes_a_word_right_earns_it():
    g, _ = run(G, game(), type_answer(MINI, "ann", "1a")[:2], T0)
    g, _ = run(G, g, type_answer(MINI, "bob", "1a")[2:], T0 + SEC)
    assert g.earned["1a"].player == "bob"
    assert g.credit() == {"bob": 3}


def test_wrong_letters_earn_nothing():
    g, _ = run(G, game(), type_answer(MINI, "ann", "1a", "SIT"), T0)
    assert g.earned == {} and g.credit() == {}


def test_earning_gives_only_squares_not_already_earned_through_a_crossing_word():
    g, _ = run(G, game(), type_answer(MINI, "ann", "1a"), T0)  # SIR: 3 squares
    g, _ = run(G, g, type_answer(MINI, "bob", "1d"), T0 + SEC)  # SIDES shares the S
    assert g.earned["1d"].player == "bob"
    assert g.credit() == {"ann": 3, "bob": 4}


def test_a_word_whose_squares_were_all_earned_gives_nothing():
    # Earn every across word; then the last letter of a down word adds no squares.
    commands = [
        c for slot in ("1a", "4a", "6a", "7a", "8a") for c in type_answer(MINI, "ann", slot)
    ]
    g, _ = run(G, game(), commands, T0)
    assert set(g.earned) == {s.id for s in MINI.slots}  # the downs finished along the way
    assert all(e.player == "ann" for e in g.earned.values())
    assert g.credit() == {"ann": len(MINI.white_squares)}


def test_one_letter_finishing_an_across_and_a_down_word_earns_both():
    corner = sq("7a", 4)  # T of TREAT is also the T of REST (3d)
    assert corner == sq("3d", 3)
    commands = [
        c
        for c in type_answer(MINI, "ann", "7a") + type_answer(MINI, "ann", "3d")
        if c.square != corner
    ]
    g, _ = run(G, game(), commands, T0)
    assert "7a" not in g.earned and "3d" not in g.earned
    g, _ = G.step(g, Type("bob", corner, "T"), T0 + SEC)
    assert g.earned["7a"].player == "bob" and g.earned["3d"].player == "bob"
    assert g.credit()["bob"] == 5 + 4 - 1


def test_credit_never_moves_when_a_word_is_broken_and_mended():
    g, _ = run(G, game(), type_answer(MINI, "ann", "1a"), T0)
    g, _ = G.step(g, Type("bob", 3, "X"), T0 + SEC)  # broken
    g, _ = G.step(g, Type("cat", 3, "I"), T0 + 2 * SEC)  # mended by someone else
    assert g.earned["1a"].player == "ann"
    assert g.credit() == {"ann": 3}


def test_undo_takes_back_only_your_own_letters_and_skips_overwritten_ones():
    g, _ = run(G, game(), [Type("ann", 2, "S"), Type("ann", 3, "I"), Type("bob", 3, "Q")], T0)
    g, events = G.step(g, Undo("ann"), T0)  # the I was written over by bob: skipped
    assert events[0].square == 2 and events[0].undo
    assert g.board[2].letter == "." and g.board[3].letter == "Q"
    assert "nothing of yours" in refused(g, Undo("ann"), "nothing-to-undo")


def test_undo_of_a_letter_typed_over_someone_elses_brings_theirs_back():
    g, _ = run(G, game(), [Type("bob", 2, "S"), Type("ann", 2, "Q"), Undo("ann")], T0)
    assert g.board[2].letter == "S" and g.board[2].writer == "bob"


def test_undo_of_a_clear():
    g, _ = run(G, game(), [Type("bob", 2, "S"), Clear("ann", 2)], T0)
    assert g.board[2].letter == "."
    g, _ = G.step(g, Undo("ann"), T0)
    assert g.board[2].letter == "S" and g.board[2].writer == "bob"


def test_undo_that_puts_a_word_right_for_the_first_time_earns_it_for_the_undoer():
    # ann's I sits in SIR's middle; bob writes X over it; ann fills S and R: SXR.
    commands = [Type("ann", 3, "I"), Type("bob", 3, "X"), Type("ann", 2, "S"), Type("ann", 4, "R")]
    g, _ = run(G, game(("ann", "bob")), commands, T0)
    assert "1a" not in g.earned
    g, _ = G.step(g, Undo("bob"), T0)  # ann's I comes back: SIR is right
    assert g.board[3].letter == "I" and g.board[3].writer == "ann"
    assert g.earned["1a"].player == "bob"


def test_undo_after_earning_leaves_the_credit_where_it_is():
    g, _ = run(G, game(("ann", "bob")), [*type_answer(MINI, "ann", "1a"), Undo("ann")], T0)
    assert g.board[sq("1a", 2)].letter == "."
    assert g.earned["1a"].player == "ann"


def test_done_turns_off_typing_and_undo_and_check_runs_when_all_are_done():
    g, _ = run(G, game(("ann", "bob")), [Type("ann", 2, "S"), Done("ann")], T0)
    refused(g, Type("ann", 3, "I"), "done")
    assert "Undo is off" in refused(g, Undo("ann"), "done")
    g, _ = G.step(g, TakeBack("ann"), T0)
    g, _ = run(G, g, [Done("ann"), Done("bob")], T0)
    assert g.over and g.result.reason == "done"


def test_only_words_still_right_count_at_the_check():
    g, _ = run(G, game(), type_answer(MINI, "ann", "4a"), T0)  # ASIDE
    g, _ = G.step(g, Type("bob", sq("4a", 0), "X"), T0 + SEC)  # ASIDE broken at the A
    g, _ = G.step(g, End(), T0 + 2 * SEC)
    ann = next(s for s in g.result.standings if s.player == "ann")
    assert ann.squares == 0 and ann.words == ()


def test_a_square_of_a_broken_word_goes_to_a_right_crossing_word():
    g, _ = run(G, game(), type_answer(MINI, "ann", "1a"), T0)  # SIR, owns the S of SIDES
    g, _ = run(G, g, type_answer(MINI, "bob", "1d"), T0 + SEC)  # SIDES: 4 new squares
    g, _ = G.step(g, Type("cat", sq("1a", 2), "X"), T0 + 2 * SEC)  # SIR broken at the R
    g, _ = G.step(g, End(), T0 + 3 * SEC)
    owners = g.result.owners
    assert owners[sq("1a", 0)] == "bob"  # the shared S moves to the right crossing word
    assert sq("1a", 1) not in owners and sq("1a", 2) not in owners
    standings = {s.player: s.squares for s in g.result.standings}
    assert standings == {"bob": 5, "ann": 0, "cat": 0}
    assert g.result.standings[0].player == "bob"


def test_a_square_whose_word_and_crossing_word_are_both_wrong_goes_to_nobody():
    g, _ = run(G, game(), type_answer(MINI, "ann", "1a"), T0)  # SIR, owns the S of SIDES
    g, _ = run(G, g, type_answer(MINI, "bob", "1d"), T0 + SEC)  # SIDES, earned but...
    g, _ = G.step(g, Type("cat", sq("1a", 2), "X"), T0 + 2 * SEC)  # SIR broken at the R
    g, _ = G.step(g, Type("cat", sq("1d", 2), "X"), T0 + 3 * SEC)  # ...broken at the D
    g, _ = G.step(g, End(), T0 + 4 * SEC)
    assert sq("1a", 0) not in g.result.owners  # the shared S: neither word is right
    assert {s.player: s.squares for s in g.result.standings} == {"ann": 0, "bob": 0, "cat": 0}


def test_most_squares_wins_and_results_mark_wrong_squares():
    g, _ = run(G, game(), type_answer(MINI, "ann", "4a") + type_answer(MINI, "bob", "1a"), T0)
    g, _ = G.step(g, End(), T0)
    assert [(s.player, s.place, s.squares) for s in g.result.standings] == [
        ("ann", 1, 5),
        ("bob", 2, 3),
        ("cat", 3, 0),
    ]
    assert len(g.result.misses) == len(MINI.white_squares) - 8


def test_tie_goes_to_squares_earned_sooner_on_average_then_first_word():
    # ann: SIR (3) at 1 s; bob: ITS (3) at 2 s. Same squares, ann sooner on average.
    g, _ = run(G, game(("ann", "bob")), type_answer(MINI, "ann", "1a"), T0 + SEC)
    g, _ = run(G, g, type_answer(MINI, "bob", "8a"), T0 + 2 * SEC)
    g, _ = G.step(g, End(), T0 + 3 * SEC)
    assert [(s.player, s.place) for s in g.result.standings] == [("ann", 1), ("bob", 2)]


def test_a_tie_goes_to_sooner_on_average_even_against_an_earlier_first_word():
    # Disjoint across words, row 6a left empty so no down word finishes along the way.
    # ann: SIR (3) at 1 s, TREAT (5) at 10 s: first word first, but late on average.
    # bob: ASIDE (5) at 2 s, ITS (3) at 3 s: 8 squares as well, sooner on average.
    g = game(("ann", "bob"))
    for at, player, slot in [
        (1, "ann", "1a"),
        (2, "bob", "4a"),
        (3, "bob", "8a"),
        (10, "ann", "7a"),
    ]:
        g, _ = run(G, g, type_answer(MINI, player, slot), T0 + at * SEC)
    g, _ = G.step(g, End(), T0 + 11 * SEC)
    ann, bob = sorted(g.result.standings, key=lambda s: s.player)
    assert ann.squares == bob.squares == 8
    assert ann.first_word_ms < bob.first_word_ms and bob.average_ms < ann.average_ms
    assert [(s.player, s.place) for s in g.result.standings] == [("bob", 1), ("ann", 2)]


def test_in_a_tie_a_square_passed_to_a_crossing_word_counts_from_when_that_word_was_earned():
    # ann's SIR (0 s) is broken at the check, so its S passes to bob's SIDES (10 s): bob
    # holds 5 squares all earned at 10 s. cat holds ANTI (8 s) and the T of ITS (11 s):
    # 5 squares, 8.6 s on average. Counted from SIR instead, bob's S would make him 8 s.
    g = game()
    for at, player, slot in [(0, "ann", "1a"), (8, "cat", "4d"), (10, "bob", "1d")]:
        g, _ = run(G, g, type_answer(MINI, player, slot), T0 + at * SEC)
    g, _ = run(G, g, type_answer(MINI, "cat", "8a"), T0 + 11 * SEC)
    g, _ = G.step(g, Type("cat", sq("1a", 2), "X"), T0 + 12 * SEC)  # SIR broken at the R
    g, _ = G.step(g, End(), T0 + 13 * SEC)
    assert g.result.owners[sq("1a", 0)] == "bob"
    assert [(s.player, s.place, s.squares) for s in g.result.standings] == [
        ("cat", 1, 5),
        ("bob", 2, 5),
        ("ann", 3, 0),
    ]


def test_tie_on_average_is_broken_by_first_word():
    from crossing.crossword.together import Standing, rank

    a = Standing("ann", 0, 6, ("1a", "8a"), 2000.0, 500)
    b = Standing("bob", 0, 6, ("4a",), 2000.0, 900)
    c = Standing("cat", 0, 6, ("6a",), 2000.0, 900)
    assert [(s.player, s.place) for s in rank([c, b, a])] == [("ann", 1), ("bob", 2), ("cat", 2)]


def test_earning_times_exclude_pauses():
    g, _ = G.step(game(), Pause(), T0 + SEC)
    g, _ = G.step(g, Resume(), T0 + 100 * SEC)
    g, _ = run(G, g, type_answer(MINI, "ann", "1a"), T0 + 101 * SEC)
    assert g.earned["1a"].at_ms == 2 * SEC


def test_letters_stay_when_a_player_leaves():
    g, _ = run(G, game(("ann", "bob")), [Type("bob", 2, "S"), Leave("bob")], T0)
    assert g.board[2].letter == "S"
    g, _ = G.step(g, Done("ann"), T0)
    assert g.over  # bob is no longer waited for


def test_undo_reaches_back_a_bounded_depth_so_the_room_item_stays_small():
    from crossing.crossword.seating import UNDO_DEPTH

    g = game()
    letters = "AB"
    for i in range(UNDO_DEPTH + 50):  # flipping one square: every keystroke is a change
        g, _ = G.step(g, Type("ann", 2, letters[i % 2]), T0)
    assert len(g.players["ann"].history) == UNDO_DEPTH
    for _ in range(UNDO_DEPTH):
        g, events = G.step(g, Undo("ann"), T0)
        assert events[0].undo
    assert g.board[2].letter == letters[49 % 2]  # as it stood before the oldest kept change
    refused(g, Undo("ann"), "nothing-to-undo")
