"""Rooms: lobby to results, presence and grace, host hand-over, saves (pure, no AWS)."""

import pytest
from crossing.crossword.commands import Done, End, Pause, Refused, Resume, TakeBack, Type
from crossing.crossword.race import Race
from crossing.crossword.together import Together
from crossing.rooms import room as R
from crossing.rooms.views import view

from tests.crossword.helpers import type_answer, type_board
from tests.crossword.puzzles import MINI

T0 = 10_000_000
SEC = 1000
MIN = 60 * SEC


def act(room, *actions, now=T0):
    notes = []
    for action in actions:
        room, more = R.step(room, action, now)
        notes += more
    return room, notes


def keeps(notes):
    return [(n.player, n.kind, n.game is not None) for n in notes if isinstance(n, R.Keep)]


def refused(room, action, code, now=T0):
    with pytest.raises(Refused) as caught:
        R.step(room, action, now)
    assert caught.value.code == code
    return str(caught.value)


def lobby(*guests, solo=False):
    room = R.new_room("QWERTY", "host", "Hana", solo=solo)
    room, _ = act(room, R.Connect("host", "c-host"))
    for g in guests:
        room, _ = act(room, R.JoinRoom(g, g.title()), R.Connect(g, f"c-{g}"))
    return room


def playing(*guests, mode="race", bots=()):
    room = lobby(*guests)
    for level in bots:
        room, _ = act(room, R.AddBot("host", level))
    room, _ = act(
        room, R.ToGame("host"), R.Choose("host", mode, "mini"), R.Start("host", puzzle=MINI)
    )
    return room


def test_host_join_and_lobby_names_and_colors():
    room = lobby("ann", "bob")
    assert [m.name for m in room.humans] == ["Hana", "Ann", "Bob"]
    assert len({m.color for m in room.humans}) == 3
    assert room.phase is R.Phase.LOBBY
    refused(room, R.JoinRoom("cat", "   "), "bad-name")
    refused(room, R.JoinRoom("cat", "x" * 40), "bad-name")


def test_solo_room_takes_nobody_else():
    assert "one player" in refused(lobby(solo=True), R.JoinRoom("ann", "Ann"), "solo")


def test_a_room_holds_eight():
    room = lobby(*[f"p{i}" for i in range(7)])
    refused(room, R.JoinRoom("late", "Late"), "full")
    refused(room, R.AddBot("host", "easy"), "full")


def test_bots_are_seats_with_a_level_added_and_removed_by_the_host():
    room, _ = act(lobby("ann"), R.AddBot("host", "hard"), R.AddBot("host", "easy"))
    assert [(b.player, b.bot) for b in room.bots] == [("bot1", "hard"), ("bot2", "easy")]
    refused(room, R.AddBot("ann", "easy"), "not-host")
    refused(room, R.AddBot("host", "genius"), "bad-level")
    room, _ = act(room, R.RemoveBot("host", "bot1"))
    assert [b.player for b in room.bots] == ["bot2"]
    refused(room, R.RemoveBot("host", "ann"), "not-a-bot")


def test_everyone_gathers_then_the_host_picks_mode_and_size_and_starts():
    room = lobby("ann")
    refused(room, R.ToGame("ann"), "not-host")
    room, _ = act(room, R.AddBot("host", "medium"), R.ToGame("host"))
    assert room.phase is R.Phase.TABLE
    assert all(m.on_game_screen for m in room.members.values())
    refused(room, R.Choose("ann", "together", "midi"), "not-host")
    refused(room, R.Start("ann", puzzle=MINI), "not-host")
    room, _ = act(room, R.Choose("host", "together", "mini"), R.Start("host", puzzle=MINI))
    assert room.phase is R.Phase.PLAYING
    assert isinstance(room.game, Together)
    assert set(room.game.players) == {"host", "ann", "bot1"}  # bots included


def test_only_players_on_the_game_screen_get_the_puzzle():
    room, _ = act(lobby("ann"), R.ToGame("host"), R.ToLobby("ann"), R.Start("host", puzzle=MINI))
    assert set(room.game.players) == {"host"}


def test_a_late_joiner_plays_the_same_puzzle_on_the_same_clock():
    room = playing("ann")
    room, _ = act(room, R.JoinRoom("cat", "Cat"), R.Connect("cat", "c-cat"), now=T0 + MIN)
    assert "cat" not in room.game.players  # still in the lobby
    room, _ = act(room, R.ToGame("cat"), now=T0 + MIN)
    assert room.game.time_of("cat", T0 + 2 * MIN) == 2 * MIN
    assert room.game.puzzle == MINI


def test_a_dropped_phone_is_waited_for_two_minutes_then_the_check_goes_ahead():
    room = playing("ann")
    room, _ = act(room, R.Disconnect("c-ann"), now=T0 + 10 * SEC)
    assert room.waiting_for(T0 + 11 * SEC) == ["ann"]
    solve = [R.Play("host", c) for c in type_board(MINI, "host")]
    room, _ = act(room, *solve, R.Play("host", Done("host")), now=T0 + 20 * SEC)
    assert room.phase is R.Phase.PLAYING  # ann is still waited for
    assert room.due_at() == T0 + 10 * SEC + R.GRACE_MS
    room, _ = R.advance(room, T0 + 10 * SEC + R.GRACE_MS)
    assert room.phase is R.Phase.RESULTS
    assert room.game.result.reason == "done"


def test_coming_back_within_grace_keeps_letters_and_the_clock_kept_running():
    room = playing("ann")
    room, _ = act(room, R.Play("ann", Type("ann", 2, "S")), R.Disconnect("c-ann"))
    room, _ = act(room, R.Connect("ann", "c-ann2"), now=T0 + MIN)
    assert room.waiting_for(T0 + MIN) == []
    assert room.game.players["ann"].letters[2] == "S"
    assert room.game.time_of("ann", T0 + MIN) == MIN


def test_coming_back_after_grace_rejoins_the_race():
    room = playing("ann", "bob")
    room, _ = act(room, R.Disconnect("c-ann"))
    room, _ = R.advance(room, T0 + R.GRACE_MS)
    assert room.game.players["ann"].gone
    room, _ = act(room, R.Connect("ann", "c-ann2"), now=T0 + 3 * MIN)
    assert not room.game.players["ann"].gone


def test_a_player_back_in_the_lobby_is_not_waited_for():
    room = playing("ann")
    room, _ = act(room, R.ToLobby("ann"), R.Play("host", Done("host")))
    assert room.phase is R.Phase.RESULTS


def test_a_host_who_reloads_or_drops_within_the_grace_stays_the_host():
    room = playing("ann")
    room, _ = act(room, R.Disconnect("c-host"))
    assert room.host == "host"
    room, _ = R.advance(room, T0 + R.GRACE_MS - 1)
    assert room.host == "host"
    room, _ = act(room, R.Connect("host", "c-host-2"), now=T0 + R.GRACE_MS - 1)
    room, _ = R.advance(room, T0 + 4 * MIN)
    assert room.host == "host"
    room, _ = act(room, R.Play("host", Pause()), now=T0 + 4 * MIN)
    assert room.game.paused


def test_the_host_gone_past_the_grace_hands_the_room_to_another_phone_and_play_goes_on():
    room = playing("ann", "bob")
    room, _ = act(room, R.Disconnect("c-host"))
    assert room.due_at() == T0 + R.GRACE_MS
    room, _ = R.advance(room, T0 + R.GRACE_MS)
    assert room.host == "ann"
    assert room.phase is R.Phase.PLAYING
    room, _ = act(room, R.Play("ann", Pause()), now=T0 + R.GRACE_MS)
    assert room.game.paused
    refused(room, R.Play("host", Resume()), "not-host", now=T0 + R.GRACE_MS)


def test_every_phone_is_told_whose_host_role_passed_on_until_the_next_start():
    room = playing("ann", "bob")
    assert view(room, "ann", T0)["host_was"] is None
    room, _ = act(room, R.Disconnect("c-host"))
    room, _ = R.advance(room, T0 + R.GRACE_MS)
    for player in ("ann", "bob", "host", None):  # the new host, the others, the old, a TV
        shown = view(room, player, T0 + R.GRACE_MS)
        assert (shown["host"], shown["host_was"]) == ("ann", "host")
    later = T0 + R.GRACE_MS + MIN
    room, _ = act(room, R.Play("ann", End()), R.Choose("ann", "race", "mini"), now=later)
    assert view(room, "ann", later)["host_was"] == "host"  # still news at the next table
    room, _ = act(room, R.Start("ann", puzzle=MINI), now=later)
    assert view(room, "ann", later)["host_was"] is None  # a game started: old news


def test_a_host_gone_with_nobody_else_here_hands_over_to_whoever_comes_back():
    room = lobby("ann")
    room, _ = act(room, R.Disconnect("c-ann"), R.Disconnect("c-host"))
    assert room.due_at() is None  # nobody to hand over to: nothing falls due
    room, _ = act(room, R.Connect("ann", "c-ann-2"), now=T0 + 5 * MIN)
    assert room.host == "ann"


def test_pause_and_resume_are_the_hosts_and_stop_every_clock():
    room = playing("ann")
    refused(room, R.Play("ann", Pause()), "not-host")
    room, _ = act(room, R.Play("host", Pause()), now=T0 + MIN)
    room, _ = act(room, R.Play("host", Resume()), now=T0 + 10 * MIN)
    assert room.game.time_of("ann", T0 + 10 * MIN) == MIN
    assert room.due_at() == T0 + 14 * MIN  # the Mini's 5-minute limit moved with the pause


def test_time_limit_falls_due_through_the_room():
    room = playing("ann")
    room, _ = R.advance(room, T0 + 5 * MIN + 30 * SEC)
    assert room.phase is R.Phase.RESULTS
    assert room.game.result.reason == "limit"
    assert [r.time_ms for r in room.game.result.standings] == [5 * MIN, 5 * MIN]


def test_host_end_and_play_again_with_a_new_mode_and_size():
    room = playing("ann")
    refused(room, R.Play("ann", End()), "not-host")
    room, _ = act(room, R.Play("host", End()))
    assert room.phase is R.Phase.RESULTS
    refused(room, R.Play("ann", Type("ann", 2, "S")), "not-playing")
    room, _ = act(room, R.Choose("host", "together", "mini"), R.Start("host", puzzle=MINI))
    assert isinstance(room.game, Together)
    assert room.games_played == 2


def test_the_host_leaving_with_x_ends_the_game_for_everyone():
    room, _ = act(playing("ann"), R.Close("host"))
    assert room.phase is R.Phase.CLOSED
    assert room.game.result.reason == "end"
    refused(room, R.Play("ann", Type("ann", 2, "S")), "closed")


def test_a_guest_leaving_with_x_leaves_the_room_and_is_not_waited_for():
    room, _ = act(playing("ann"), R.Close("ann"), R.Play("host", Done("host")))
    assert room.phase is R.Phase.RESULTS
    assert [m.player for m in room.humans] == ["host"]


def test_a_solo_race_is_kept_when_put_down_and_picked_up_with_its_clock_waiting():
    room = lobby(solo=True)
    room, _ = act(room, R.ToGame("host"), R.Start("host", puzzle=MINI))
    room, _ = act(room, R.Play("host", Type("host", 2, "S")), now=T0 + MIN)
    room, notes = act(room, R.Disconnect("c-host"), now=T0 + 2 * MIN)
    [(player, kind, kept)] = keeps(notes)
    assert (player, kind, kept) == ("host", "race", True)
    saved = next(n.game for n in notes if isinstance(n, R.Keep))
    fresh = lobby(solo=True)
    fresh, _ = act(fresh, R.ToGame("host"), R.Start("host", saved=saved), now=T0 + 999 * MIN)
    race = fresh.game
    assert race.players["host"].letters[2] == "S"
    assert race.time_of("host", T0 + 1000 * MIN) == 3 * MIN  # two before, one after


def test_a_race_with_anyone_else_is_never_kept():
    _, notes = act(playing("ann"), R.Disconnect("c-host"))
    assert keeps(notes) == []
    _, notes = act(playing(bots=("easy",)), R.Disconnect("c-host"))
    assert keeps(notes) == []


def test_a_together_board_is_kept_for_its_host_and_forgotten_once_checked():
    room = playing("ann", mode="together")
    room, notes = act(room, R.Disconnect("c-ann"))
    assert keeps(notes) == [("host", "together", True)]
    room, notes = act(room, R.Play("host", Pause()))
    assert keeps(notes) == [("host", "together", True)]
    room, notes = act(room, R.Play("host", Resume()), R.Play("host", End()))
    assert keeps(notes) == [("host", "together", False)]


def test_the_hosts_x_keeps_the_together_board_though_the_game_ends():
    _, notes = act(playing("ann", mode="together"), R.Close("host"))
    assert keeps(notes) == [("host", "together", True)]


def test_a_new_puzzle_replaces_the_saved_one():
    room = lobby(solo=True)
    room, notes = act(room, R.ToGame("host"), R.Start("host", puzzle=MINI))
    assert keeps(notes) == [("host", "race", False)]


def test_picking_up_a_together_board_gives_returning_players_their_words():
    room = playing("ann", "bob", mode="together")
    commands = [R.Play("ann", c) for c in type_answer(MINI, "ann", "1a")]
    commands += [R.Play("bob", c) for c in type_answer(MINI, "bob", "8a")]
    room, _ = act(room, *commands)
    room, notes = act(room, R.Close("host"), now=T0 + MIN)
    saved = next(n.game for n in notes if isinstance(n, R.Keep))
    # Next time: the host and ann come back, bob does not, cat is new.
    again = lobby("ann", "cat")
    again, _ = act(
        again,
        R.ToGame("host"),
        R.Choose("host", "together", "mini"),
        R.Start("host", saved=saved),
        now=T0 + 60 * MIN,
    )
    game = again.game
    assert game.earned["1a"].player == "ann"
    assert game.earned["8a"].player == "bob"
    assert game.players["bob"].gone and not game.players["ann"].gone
    assert "cat" in game.players
    again, _ = act(again, R.Play("host", End()), now=T0 + 61 * MIN)
    squares = {s.player: s.squares for s in again.game.result.standings}
    assert squares["ann"] == 3 and squares["bob"] == 3  # absent bob's words still count


def test_race_done_and_take_back_through_the_room():
    room = playing("ann")
    room, _ = act(room, R.Play("ann", Done("ann")), R.Play("ann", TakeBack("ann")))
    assert not room.game.players["ann"].done
    assert isinstance(room.game, Race)
