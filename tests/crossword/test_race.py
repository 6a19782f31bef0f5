"""Race: own boards, Done, the check, time limits and ranking."""

import pytest
from crossing.crossword import race as R
from crossing.crossword.commands import (
    Away,
    Back,
    Clear,
    Done,
    End,
    Join,
    Leave,
    Pause,
    Refused,
    Resume,
    TakeBack,
    Tick,
    Type,
    Undo,
)
from crossing.crossword.events import Changed, Checked

from tests.crossword.helpers import run, type_board
from tests.crossword.puzzles import MINI, TINY

T0 = 1_000_000
SEC = 1000
MIN = 60 * SEC


def solo():
    return R.start_race(MINI, ["ann"], T0)


def duo():
    return R.start_race(MINI, ["ann", "bob"], T0)


def refused(state, command, now, code):
    with pytest.raises(Refused) as caught:
        R.step(state, command, now)
    assert caught.value.code == code
    return str(caught.value)


def test_typing_and_clearing_change_only_that_players_board():
    race, events = run(R, duo(), [Type("ann", 2, "s"), Type("ann", 3, "I")], T0)
    assert race.players["ann"].letters[2:4] == "SI"
    assert race.players["bob"].letters[2:4] == ".."
    assert events == [Changed("ann", 2, "S"), Changed("ann", 3, "I")]
    race, _ = R.step(race, Clear("ann", 2), T0)
    assert race.players["ann"].letters[2] == "."


def test_undo_takes_back_one_change_at_a_time_and_names_its_square():
    race, _ = run(R, solo(), [Type("ann", 2, "S"), Type("ann", 3, "X"), Clear("ann", 2)], T0)
    race, events = R.step(race, Undo("ann"), T0)  # the clear comes back
    assert events == [Changed("ann", 2, "S", undo=True)]
    race, events = R.step(race, Undo("ann"), T0)  # then the letter typed
    assert events == [Changed("ann", 3, ".", undo=True)]
    race, events = R.step(race, Undo("ann"), T0)
    assert events == [Changed("ann", 2, ".", undo=True)]
    assert "nothing of yours to undo" in refused(race, Undo("ann"), T0, "nothing-to-undo")


def test_undo_works_the_same_for_a_right_letter():
    race, _ = R.step(solo(), Type("ann", 2, MINI.solution[2]), T0)
    race, _ = R.step(race, Undo("ann"), T0)
    assert race.players["ann"].letters[2] == "."


def test_bad_input_is_refused_and_changes_nothing():
    race = solo()
    refused(race, Type("ann", 0, "A"), T0, "bad-square")  # a block
    refused(race, Type("ann", 99, "A"), T0, "bad-square")
    refused(race, Type("ann", 2, "ab"), T0, "bad-letter")
    refused(race, Type("ann", 2, "é"), T0, "bad-letter")
    refused(race, Type("zed", 2, "A"), T0, "not-a-player")
    assert race == solo()


def test_done_stops_the_clock_and_taking_it_back_restarts_it():
    race = duo()
    race, events = R.step(race, Done("ann"), T0 + 10 * SEC)
    assert events[-1].time_ms == 10 * SEC
    assert race.time_of("ann", T0 + 50 * SEC) == 10 * SEC
    race, _ = R.step(race, TakeBack("ann"), T0 + 50 * SEC)
    assert race.time_of("ann", T0 + 60 * SEC) == 20 * SEC
    refused(race, TakeBack("ann"), T0, "not-done")


def test_while_done_the_keyboard_and_undo_are_off():
    race, _ = run(R, duo(), [Type("ann", 2, "S"), Done("ann")], T0)
    assert "keyboard is off" in refused(race, Type("ann", 3, "I"), T0, "done")
    refused(race, Clear("ann", 2), T0, "done")
    assert "Undo is off" in refused(race, Undo("ann"), T0, "done")
    refused(race, Done("ann"), T0, "already-done")


def test_check_runs_when_every_player_still_in_is_done():
    race, _ = run(R, duo(), [*type_board(MINI, "ann"), Done("ann")], T0 + 30 * SEC)
    assert not race.over
    race, events = R.step(race, Done("bob"), T0 + 40 * SEC)
    assert race.over and race.result.reason == "done"
    assert isinstance(events[-1], Checked)
    refused(race, Type("ann", 2, "S"), T0 + 50 * SEC, "over")


def test_a_player_who_left_is_not_waited_for():
    race, _ = run(R, duo(), [Leave("bob"), Done("ann")], T0)
    assert race.over and race.result.reason == "done"
    assert {r.player for r in race.result.standings} == {"ann", "bob"}


def test_an_away_player_is_waited_for():
    race, _ = run(R, duo(), [Away("bob"), Done("ann")], T0)
    assert not race.over


def test_host_end_checks_the_boards_as_they_stand():
    race, _ = run(R, duo(), [Type("ann", 2, "S"), End()], T0 + 5 * SEC)
    assert race.result.reason == "end"
    ann = race.result.of("ann")
    assert ann.right == 1 and not ann.perfect
    assert ann.time_ms == 5 * SEC


def test_time_limit_with_more_than_one_racer():
    race, limit_min = duo(), 5  # a Mini
    assert race.limit_ms == limit_min * MIN
    assert race.due_at() == T0 + limit_min * MIN
    race, events = R.step(race, Tick(), T0 + limit_min * MIN - 1)
    assert not race.over and events == []
    race, events = R.step(race, Tick(), T0 + limit_min * MIN)
    assert race.result.reason == "limit"
    assert [r.time_ms for r in race.result.standings] == [limit_min * MIN] * 2


def test_limits_by_size():
    from crossing.crossword.sizes import Size

    assert [s.race_limit_ms // MIN for s in Size] == [5, 10, 20, 30]
    assert [s.width for s in Size] == [5, 7, 9, 11]


def test_solo_race_has_no_limit_and_other_sizes_none_either():
    race, _ = R.step(solo(), Tick(), T0 + 10 * 60 * MIN)
    assert race.limit_ms is None and race.due_at() is None and not race.over
    assert R.start_race(TINY, ["a", "b"], T0).limit_ms is None  # 3x3 is no game size


def test_the_limit_applied_late_gives_the_result_it_would_have_had_on_time():
    race, _ = run(R, duo(), [*type_board(MINI, "ann"), Done("ann")], T0 + 20 * SEC)
    on_time, _ = R.step(race, Tick(), T0 + 5 * MIN)
    late, _ = R.step(race, Tick(), T0 + 5 * MIN + 47 * SEC)
    assert late == on_time
    assert late.result.of("bob").time_ms == 5 * MIN
    assert late.result.of("ann").time_ms == 20 * SEC


def test_a_command_after_the_limit_is_refused_even_if_no_tick_came():
    race = duo()
    refused(race, Type("ann", 2, "S"), T0 + 6 * MIN, "over")


def test_pause_stops_every_clock_and_the_limit():
    race, _ = R.step(duo(), Pause(), T0 + 1 * MIN)
    assert race.due_at() is None
    refused(race, Type("ann", 2, "S"), T0 + 2 * MIN, "paused")
    refused(race, Pause(), T0, "paused")
    race, _ = R.step(race, Resume(), T0 + 10 * MIN)
    assert race.time_of("ann", T0 + 10 * MIN) == 1 * MIN
    assert race.due_at() == T0 + 14 * MIN
    refused(race, Resume(), T0, "not-paused")


def test_solo_clock_counts_only_time_the_player_is_there():
    race, _ = R.step(solo(), Away("ann"), T0 + 2 * MIN)
    race, _ = R.step(race, Back("ann"), T0 + 500 * MIN)
    assert race.time_of("ann", T0 + 501 * MIN) == 3 * MIN
    # closing it and coming back later (leave, then join again) waits the same way
    race, _ = R.step(race, Leave("ann"), T0 + 501 * MIN)
    assert not race.over
    race, _ = R.step(race, Join("ann"), T0 + 900 * MIN)
    assert race.time_of("ann", T0 + 900 * MIN) == 3 * MIN


def test_with_others_a_dropped_racers_clock_keeps_running_and_letters_stay():
    race, _ = run(R, duo(), [Type("bob", 2, "S"), Away("bob")], T0)
    race, _ = R.step(race, Back("bob"), T0 + 2 * MIN)
    assert race.time_of("bob", T0 + 2 * MIN) == 2 * MIN
    assert race.players["bob"].letters[2] == "S"


def test_a_late_joiner_plays_the_same_puzzle_on_the_same_clock():
    race, _ = R.step(duo(), Join("cat"), T0 + 3 * MIN)
    assert race.players["cat"].letters == race.players["bob"].letters
    assert race.time_of("cat", T0 + 4 * MIN) == 4 * MIN
    assert race.due_at() == T0 + 5 * MIN


def test_ranking_perfect_first_then_right_squares_then_time():
    ann, bob, cat, dan = "ann", "bob", "cat", "dan"
    race = R.start_race(MINI, [ann, bob, cat, dan], T0)
    whites = MINI.white_squares
    race, _ = run(R, race, [*type_board(MINI, ann), Done(ann)], T0 + 90 * SEC)  # perfect, slow
    race, _ = run(R, race, [*type_board(MINI, bob, wrong={whites[0]}), Done(bob)], T0 + 10 * SEC)
    race, _ = run(R, race, [*type_board(MINI, cat, wrong=set(whites[:2])), Done(cat)], T0 + 5 * SEC)
    race, _ = run(R, race, [*type_board(MINI, dan), Done(dan)], T0 + 60 * SEC)  # perfect, fast
    order = [(r.player, r.place) for r in race.result.standings]
    assert order == [(dan, 1), (ann, 2), (bob, 3), (cat, 4)]


def test_equal_results_share_a_place():
    race, _ = run(R, duo(), [Done("ann"), Done("bob")], T0 + SEC)
    assert [r.place for r in race.result.standings] == [1, 1]


def test_result_lists_every_wrong_or_empty_square_with_its_right_letter():
    whites = MINI.white_squares
    commands = [*type_board(MINI, "ann", wrong={whites[0]}), Clear("ann", whites[1]), End()]
    race, _ = run(R, duo(), commands, T0)
    misses = race.result.of("ann").misses
    assert [(m.square, m.answer, m.letter) for m in misses] == [
        (whites[0], MINI.solution[whites[0]], "Z"),
        (whites[1], MINI.solution[whites[1]], "."),
    ]
    assert race.result.of("ann").right == len(whites) - 2
    assert len(race.result.of("bob").misses) == len(whites)


def test_step_never_changes_the_state_it_was_given():
    race = duo()
    before = repr(race)
    run(R, race, [Type("ann", 2, "S"), Done("bob"), Pause()], T0)
    assert repr(race) == before


def test_a_racers_undo_reaches_back_a_bounded_depth():
    from crossing.crossword.seating import UNDO_DEPTH

    race = solo()
    for i in range(UNDO_DEPTH + 10):
        race, _ = R.step(race, Type("ann", 2, "AB"[i % 2]), T0)
    assert len(race.players["ann"].history) == UNDO_DEPTH
    for _ in range(UNDO_DEPTH):
        race, _ = R.step(race, Undo("ann"), T0)
    refused(race, Undo("ann"), T0, "nothing-to-undo")
