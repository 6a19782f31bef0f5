"""The Duel lobby: waiting games, Challenge, private links, expiry."""

import pytest
from crossing.crossword.commands import Refused
from crossing.duel import lobby as L

T0 = 1_000
EMPTY = L.Lobby({})


def test_a_created_game_waits_in_the_list_until_challenged():
    lobby, _ = L.create(EMPTY, "s1", "ann", "Ann", 5 * L.MINUTE, T0)
    assert [s.id for s in lobby.waiting(T0)] == ["s1"]
    lobby, accepted = L.accept(lobby, "s1", "bob", T0 + 1000)
    assert (accepted.seek.owner, accepted.challenger) == ("ann", "bob")
    assert lobby.waiting(T0 + 1000) == []


def test_time_limits_are_the_offered_ones_or_unlimited():
    L.create(EMPTY, "s1", "ann", "Ann", None, T0)
    with pytest.raises(Refused) as caught:
        L.create(EMPTY, "s1", "ann", "Ann", 7 * L.MINUTE, T0)
    assert caught.value.code == "bad-limit"


def test_a_private_game_is_not_listed_and_needs_its_link():
    lobby, _ = L.create(EMPTY, "s2", "ann", "Ann", None, T0, private_token="t0k3n")
    assert lobby.waiting(T0) == []
    with pytest.raises(Refused):
        L.accept(lobby, "s2", "eve", T0)  # no token: as if it did not exist
    with pytest.raises(Refused):
        L.accept(lobby, "s2", "eve", T0, token="guess")
    _, accepted = L.accept(lobby, "s2", "bob", T0, token="t0k3n")
    assert accepted.challenger == "bob"


def test_nobody_accepts_their_own_game_or_waits_twice():
    lobby, _ = L.create(EMPTY, "s1", "ann", "Ann", None, T0)
    with pytest.raises(Refused) as own:
        L.accept(lobby, "s1", "ann", T0)
    assert own.value.code == "own-seek"
    with pytest.raises(Refused) as twice:
        L.create(lobby, "s2", "ann", "Ann", None, T0)
    assert twice.value.code == "already-waiting"


def test_waiting_games_expire():
    lobby, _ = L.create(EMPTY, "s1", "ann", "Ann", None, T0)
    later = T0 + L.SEEK_TTL_MS
    assert lobby.waiting(later) == []
    with pytest.raises(Refused):
        L.accept(lobby, "s1", "bob", later)
    assert L.expire(lobby, later).seeks == {}


def test_the_owner_can_cancel():
    lobby, _ = L.create(EMPTY, "s1", "ann", "Ann", None, T0)
    assert L.cancel(lobby, "s1", "ann").seeks == {}
    with pytest.raises(Refused):
        L.cancel(lobby, "s1", "bob")


def test_a_game_will_be_rated_only_when_both_players_are_registered():
    _, seek = L.create(L.Lobby({}), "s-1", "acct.ann", "Ann", 5 * L.MINUTE, T0, rated=True)
    assert L.will_be_rated(seek, challenger_rated=True)
    assert not L.will_be_rated(seek, challenger_rated=False)
    _, guest_seek = L.create(L.Lobby({}), "s-2", "guest", "Gus", 5 * L.MINUTE, T0)
    assert not L.will_be_rated(guest_seek, challenger_rated=True)


def test_a_guest_who_signs_up_keeps_their_waiting_game_as_the_account():
    lobby, _ = L.create(L.Lobby({}), "s-1", "guest", "Gus", 5 * L.MINUTE, T0, "tok")
    after = L.hand_over(lobby, "guest", "acct.gus", "Gus", 1000)
    mine = L.mine(after, "acct.gus", T0)
    assert (mine.id, mine.private_token, mine.rated) == ("s-1", "tok", True)
    assert L.mine(after, "guest", T0) is None
    # An account with a game waiting already keeps that one: one game at a time.
    lobby, _ = L.create(lobby, "s-2", "acct.gus", "Gus", 5 * L.MINUTE, T0)
    after = L.hand_over(lobby, "guest", "acct.gus", "Gus", 1000)
    assert set(after.seeks) == {"s-2"}
