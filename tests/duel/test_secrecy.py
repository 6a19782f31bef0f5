"""Duel secrecy, as a property: what a player or a watch screen is sent does not depend on
what they may not know (hypothesis builds the games).

After every move of a generated game, the match is copied with hidden state changed:
- the bag's order (another shuffle of the same tiles);
- the opponent's rack (their tiles traded with the bag's: the same count on each side),
  and for a watch screen both racks;
- the seed, from which the bot picks its plays and its pauses and a swapped tile finds its
  place in the bag: what the bot will do next.
Every message the viewer gets (``protocol.DuelMessage``, allow-list checked) must be the
same for the copy as for the game itself.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from crossing.duel import bots
from crossing.duel import game as G
from crossing.duel.lobby import TIME_LIMITS_MS
from crossing.duel.match import Match, Player, advance, start_match, step
from crossing.duel.views import view
from crossing.game_files import default_lexicon
from crossing.refusals import Refused
from crossing.rooms import protocol as P
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from tests.duel.phones import duel_phone_maker
from tests.rooms.fakes import Clock, make_service

LEX = default_lexicon()
T0 = 5_000_000
MIN = 60_000
ANN = Player("ann", "Ann", 1000, rated=True)
BOB = Player("bob", "Bob", 1100, rated=True)
BOT = Player("bot:medium", "Medium bot", 1000, bot="medium")


def sent(match: Match, viewer: str | None, now: int) -> dict:
    """What the viewer's connection is sent: the view, through its message's allow-list."""
    return P.DuelMessage(version=1, game=view(match, viewer, now)).model_dump(mode="json")


def with_hidden_changed(match: Match, viewer: str | None, rng: random.Random) -> list[Match]:
    """Copies of ``match`` that differ from it only in what ``viewer`` may not know."""
    duel = match.duel
    you = match.seat_of(viewer) if viewer is not None else None
    copies = []
    bag = list(duel.bag)
    rng.shuffle(bag)
    copies.append(replace(duel, bag="".join(bag)))
    traded = duel
    for i, seat in enumerate(duel.seats):
        if i == you:
            continue
        pool = list(seat.rack + traded.bag)
        rng.shuffle(pool)
        rack, rest = pool[: len(seat.rack)], pool[len(seat.rack) :]
        traded = replace(
            traded,
            bag="".join(rest),
            seats=G.with_seat(traded.seats, i, replace(seat, rack="".join(sorted(rack)))),
        )
    copies.append(traded)
    copies.append(replace(duel, seed=duel.seed + rng.randint(1, 1000)))
    copies.append(replace(traded, seed=duel.seed + 1))  # all of it at once
    for copy in copies:  # the copies are real games: the same 98 tiles in play
        assert copy.tiles_in_play() == duel.tiles_in_play()
    return [replace(match, duel=copy) for copy in copies]


moves = st.lists(
    st.tuples(
        # a human's move: a play as a bot of that level would make it, a swap, a skip,
        # resigning, or no move at all (time passes: the bot's move and flags fall due)
        st.sampled_from(["easy", "medium", "hard", "hard", "swap", "skip", "resign", "wait"]),
        st.integers(min_value=0, max_value=90_000),  # ms since the last move
    ),
    max_size=14,
)


def played(opponent: Player, seed: int, limit: int | None, script, rng: random.Random):
    """Yield (match, now) after the start and after each move of ``script``."""
    now = T0
    match = start_match("g-1", (ANN, opponent), now, seed=seed, limit_ms=limit)
    yield match, now
    for kind, wait_ms in script:
        now += wait_ms
        match, _ = advance(match, now, LEX)
        if match.over:
            return
        mover = match.duel.to_move
        if kind != "wait" and mover in (ANN.id, BOB.id):
            rack = match.duel.seats[match.duel.turn].rack
            command = {
                "swap": G.Swap(mover, rng.choice(rack)),
                "skip": G.Skip(mover),
                "resign": G.Resign(mover),
            }.get(kind) or bots.choose(match.duel, kind, LEX)
            try:
                match, _ = step(match, command, now, LEX)
            except Refused:
                continue  # a swap with the bag empty: refused, nothing changed
        yield match, now


@settings(max_examples=60, deadline=None)
@given(
    opponent=st.sampled_from([BOB, BOT]),
    viewer=st.sampled_from([ANN.id, "opponent", None]),
    seed=st.integers(min_value=0, max_value=10_000),
    limit=st.sampled_from([None, 3 * MIN, 10 * MIN]),
    script=moves,
    rng=st.randoms(use_true_random=False),
)
def test_a_duel_view_does_not_depend_on_the_other_rack_the_bag_or_the_bots_plans(
    opponent, viewer, seed, limit, script, rng
):
    viewer = opponent.id if viewer == "opponent" else viewer
    for match, now in played(opponent, seed, limit, script, rng):
        shown = sent(match, viewer, now)
        for copy in with_hidden_changed(match, viewer, rng):
            assert sent(copy, viewer, now) == shown


def test_the_property_sees_a_leak():
    """The comparison is not blind: a view that let the opponent's rack or the bag's next
    tiles out differs between the game and its copies."""
    match = start_match("g-1", (ANN, BOB), T0, seed=7, limit_ms=None)
    rng = random.Random(1)

    def leaky(m: Match, leak: str) -> dict:
        other = m.duel.seats[1 - m.seat_of(ANN.id)]
        return view(m, ANN.id, T0) | {"leak": other.rack if leak == "rack" else m.duel.bag}

    copies = with_hidden_changed(match, ANN.id, rng)
    for leak in ("rack", "bag"):
        assert any(leaky(copy, leak) != leaky(match, leak) for copy in copies), leak


def test_each_phone_counts_the_other_rack_as_it_is_once_the_bag_runs_out():
    """With the bag empty the racks shrink apart: the count a phone shows for each seat
    is that seat's own rack, whoever is to move."""
    now = T0
    match = start_match("g-1", (ANN, BOB), now, seed=7, limit_ms=None)
    racks = [7, 7]
    while not match.over and (match.duel.bag or racks[0] == racks[1]):
        now += 1000
        match, _ = step(match, bots.choose(match.duel, "hard", LEX), now, LEX)
        racks = [len(seat.rack) for seat in match.duel.seats]
    assert not match.over and racks[0] != racks[1]
    for viewer in (ANN.id, BOB.id, None):
        assert [seat["rack_count"] for seat in sent(match, viewer, now)["game"]["seats"]] == racks


def test_a_field_off_the_allow_list_never_leaves():
    """Secrecy by structure: a Duel or lobby message carrying a field the allow-list of
    ``view_models`` does not name is never built, at any depth."""
    match = start_match("g-1", (ANN, BOB), T0, seed=7, limit_ms=None)
    game = view(match, ANN.id, T0)
    with pytest.raises(ValidationError, match="their_rack"):
        P.DuelMessage(version=1, game=game | {"their_rack": match.duel.seats[1].rack})
    seats = [game["seats"][0] | {"rack": match.duel.seats[0].rack}, game["seats"][1]]
    with pytest.raises(ValidationError, match="rack"):
        P.DuelMessage(version=1, game=game | {"seats": seats})
    seek = {
        "id": "s-1",
        "name": "Bob",
        "rating": 1100,
        "rated": True,
        "will_rate": True,
        "limit": None,
        "expires_at": T0,
        "yours": False,
    }
    assert P.LobbyMessage(seeks=[seek], mine=None, now=T0).seeks == [seek]
    with pytest.raises(ValidationError, match="token"):  # a private link is its owner's
        P.LobbyMessage(seeks=[seek | {"token": "secret"}], mine=None, now=T0)


def private_games_made(public, private) -> tuple[dict, list[dict], dict]:
    """A phone watches the lobby while others make public games, then private ones: the
    lobby it holds before the private ones, what it is sent while they are made, and the
    lobby it holds after."""
    phone = duel_phone_maker(make_service(Clock()))
    viewer = phone()
    viewer.send("duel_lobby")
    for limit in public:
        phone().send("duel_seek", limit=limit, name="Pia")
    viewer.take()
    before = viewer.lobby
    for limit in private:
        phone().send("duel_seek", limit=limit, private=True, name="Fran")
    return before, viewer.take(), viewer.lobby


limits = st.lists(st.sampled_from(TIME_LIMITS_MS), max_size=3)


@settings(max_examples=20, deadline=None)
@given(public=limits, private=limits.filter(bool))
def test_the_lobby_a_phone_holds_does_not_change_when_others_make_private_games(public, private):
    """Private games (Play With Friend) are their owners' and their link's: the lobby a
    watching phone holds is the same before and after others make some."""
    before, _, after = private_games_made(public, private)
    assert after == before


def test_a_private_game_sends_the_lobby_watchers_nothing():
    _, sent_meanwhile, _ = private_games_made([5 * MIN], [3 * MIN])
    assert sent_meanwhile == []
