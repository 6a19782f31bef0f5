"""Registered players: signing up and in, a rating that follows the account to another
device, Elo changes after a game written exactly once, guests who stay at 1000, and
provisional ratings that nobody can farm."""

import json

from crossing.duel.elo import PROVISIONAL_GAMES
from crossing.rooms.duel_desk import is_account
from crossing.rooms.storage import load_match

from tests.duel.phones import errors

MIN = 60_000
PASSWORD = "correct horse battery"


def signed(messages):
    return next(m for m in messages if m["type"] == "signed_in")


def registered(phone, name):
    """A new account: its rating is provisional."""
    p = phone()
    p.account = signed(p.send("sign_up", name=name, password=PASSWORD))
    return p


def established(service, phone, name, rating=1000):
    """An account past its provisional games (as if it had played them)."""
    p = registered(phone, name)
    doc = {"rating": rating, "games": {}, "played": PROVISIONAL_GAMES}
    service.store.save_doc("rating", p.account["player"], doc, None, None)
    return p


def account_now(service, p):
    """The account as another device is told of it on hello."""
    tablet = type(p)(service, f"tablet-{p.account['name']}")
    tablet.send("hello", refresh=p.account["refresh"])
    return tablet.welcome["account"]


def play_out(winner, loser, moves=True):
    """Both in the lobby, the winner's game challenged by the loser, who resigns: after
    each has made a move (a skip), else before (an aborted game)."""
    winner.send("duel_lobby")
    sent = winner.send("duel_seek", limit=5 * MIN)
    assert winner.lobby["mine"], errors(sent)
    seek = winner.lobby["mine"]["id"]
    assert not errors(loser.send("duel_accept", seek=seek))
    winner.take()
    if moves:
        first, second = (winner, loser) if winner.my_turn else (loser, winner)
        assert not errors(first.send("duel_skip"))
        second.take()
        assert not errors(second.send("duel_skip"))
    assert not errors(loser.send("duel_resign"))
    winner.take()
    return winner.game["result"]


def test_signing_up_gives_an_account_player_with_a_rating_of_1000(phone):
    ann = registered(phone, "Ann")
    assert is_account(ann.account["player"])
    assert (ann.account["name"], ann.account["rating"]) == ("Ann", 1000)
    assert ann.account["refresh"]
    again = phone()
    assert errors(again.send("sign_up", name="ann", password=PASSWORD))[0]["code"] == "name-taken"


def test_a_wrong_password_is_refused_and_the_connection_stays_a_guest(service, phone):
    registered(phone, "Ann")
    bob = phone()
    guest = bob.player
    [error] = errors(bob.send("sign_in", name="Ann", password="not the password"))
    assert error["code"] == "wrong-password"
    assert service.store.get_connection(bob.connection)[1] == guest


def test_the_account_follows_the_player_to_another_device(service, phone):
    ann = registered(phone, "Ann")
    tablet = type(ann)(service, "tablet")
    tablet.send("hello", refresh=ann.account["refresh"])
    assert tablet.welcome["player"] == ann.account["player"]
    assert tablet.welcome["account"] == {
        "name": "Ann",
        "rating": 1000,
        "games": 0,
        "provisional": True,
    }
    laptop = phone()
    assert (
        signed(laptop.send("sign_in", name="ANN", password=PASSWORD))["player"]
        == (ann.account["player"])
    )


def test_a_refresh_token_no_longer_accepted_falls_back_to_the_guest(service, phone):
    ann = registered(phone, "Ann")
    service.accounts.revoke(ann.account["refresh"])
    again = type(ann)(service, "again")
    again.send("hello", refresh=ann.account["refresh"])
    assert again.welcome["account"] is None and not is_account(again.welcome["player"])


def test_the_winner_gains_what_the_loser_gives_and_it_shows_everywhere(service, phone):
    ann, bob = established(service, phone, "Ann"), established(service, phone, "Bob")
    result = play_out(ann, bob)
    winner_seat = result["winner"]
    assert ann.game["you"] == winner_seat
    ratings = result["ratings"]
    games = PROVISIONAL_GAMES + 1
    assert ratings[winner_seat] == {
        "before": 1000,
        "after": 1016,
        "games": games,
        "provisional": False,
    }
    assert ratings[1 - winner_seat] == {
        "before": 1000,
        "after": 984,
        "games": games,
        "provisional": False,
    }
    # The new rating is what the lobby and another device show from now on.
    cat = phone()
    cat.send("duel_lobby")
    ann.send("duel_seek", limit=None)
    cat.take()
    assert cat.lobby["seeks"][0]["rating"] == 1016
    tablet = type(ann)(service, "tablet")
    tablet.send("hello", refresh=bob.account["refresh"])
    assert tablet.welcome["account"]["rating"] == 984


def test_beating_a_higher_rated_player_moves_you_more(service, phone):
    ann, bob, cat = (established(service, phone, n) for n in ("Ann", "Bob", "Cat"))
    play_out(bob, cat)  # Bob 1016, Cat 984
    up = play_out(ann, bob)["ratings"]
    gained = [r["after"] - r["before"] for r in up if r["after"] > r["before"]]
    assert gained == [17]  # more than the 16 of beating an equal


def test_a_game_against_a_guest_is_rated_for_neither(phone):
    """The issue's farm: an account beat a guest who resigned and gained 16."""
    ann, guest = registered(phone, "Ann"), phone()
    result = play_out(ann, guest)
    seat = guest.game["you"]
    assert guest.game["seats"][seat]["rating"] == 1000
    assert guest.game["seats"][seat]["rated"] is False
    assert guest.game["rated"] is False and ann.game["rated"] is False
    assert result["ratings"] == [None, None]
    again = phone()
    again.send("hello", refresh=ann.account["refresh"])
    assert again.welcome["account"]["rating"] == 1000


def test_a_game_resigned_before_each_player_has_moved_is_aborted_and_not_rated(service, phone):
    ann, bob = registered(phone, "Ann"), registered(phone, "Bob")
    result = play_out(ann, bob, moves=False)
    assert result["aborted"] is True and result["ratings"] == [None, None]
    assert ann.game["rated"] is True  # it would have counted, had both moved
    # One move by one player is not enough either.
    ann.send("duel_lobby")
    ann.send("duel_seek", limit=5 * MIN)
    bob.send("duel_accept", seek=ann.lobby["mine"]["id"])
    ann.take()
    mover, other = (ann, bob) if ann.my_turn else (bob, ann)
    mover.send("duel_skip")
    other.send("duel_resign")
    assert other.game["result"]["aborted"] is True
    assert other.game["result"]["ratings"] == [None, None]
    tablet = type(ann)(service, "tablet")
    tablet.send("hello", refresh=ann.account["refresh"])
    assert tablet.welcome["account"]["rating"] == 1000


def test_a_game_where_both_moved_is_not_aborted(service, phone):
    ann, bob = established(service, phone, "Ann"), established(service, phone, "Bob")
    result = play_out(ann, bob)
    assert result["aborted"] is False
    assert sorted(r["after"] for r in result["ratings"]) == [984, 1016]


def test_the_lobby_says_which_games_will_be_rated_for_whoever_looks(phone):
    ann, bob, guest = registered(phone, "Ann"), registered(phone, "Bob"), phone()
    for p in (ann, bob, guest):
        p.send("duel_lobby")
    ann.send("duel_seek", limit=5 * MIN)
    guest.send("duel_seek", limit=3 * MIN)
    bob.take()
    guest.take()
    by_bob = {s["name"]: s["will_rate"] for s in bob.lobby["seeks"]}
    assert by_bob == {"Ann": True, "Guest": False}
    by_guest = {s["name"]: s["will_rate"] for s in guest.lobby["seeks"]}
    assert by_guest == {"Ann": False, "Guest": False}


def test_a_guest_who_signs_up_while_waiting_keeps_the_game_and_it_is_rated(service, phone):
    guest, bob = phone(), established(service, phone, "Bob")
    guest.send("duel_lobby")
    guest.send("duel_seek", limit=5 * MIN, private=True, name="Gus")
    link = guest.lobby["mine"]
    played_as_guest = guest.player
    guest.account = signed(guest.send("sign_up", name="Gus", password=PASSWORD))
    guest.send("duel_lobby")  # the page does this after signing in
    assert guest.lobby["mine"]["id"] == link["id"]  # the same game, the same link
    assert not errors(bob.send("duel_accept", seek=link["id"], token=link["token"]))
    guest.take()
    seat = guest.game["you"]
    assert guest.game["seats"][seat]["player"] == guest.account["player"] != played_as_guest
    assert guest.game["seats"][seat]["rated"] is True and guest.game["rated"] is True
    first, second = (guest, bob) if guest.my_turn else (bob, guest)
    first.send("duel_skip")
    second.take()
    second.send("duel_skip")
    bob.send("duel_resign")
    guest.take()
    mine = guest.game["result"]["ratings"][seat]
    assert (mine["before"], mine["after"], mine["games"], mine["provisional"]) == (
        1000,
        1016,
        1,
        True,
    )


def test_a_rating_change_is_written_once_however_often_it_is_retried(service, phone):
    ann, bob = established(service, phone, "Ann"), established(service, phone, "Bob")
    play_out(ann, bob)
    game = ann.game["id"]
    stored, _ = service.store.load_doc("game", game)
    match = load_match(stored)
    service.duel._settle(game, match)  # a retry after a failure, say
    service.timer(game)  # and the backstop firing again
    assert account_now(service, ann)["rating"] == 1016
    assert account_now(service, ann)["games"] == PROVISIONAL_GAMES + 1  # counted once too


def test_a_password_is_never_kept(service, phone):
    registered(phone, "Ann")
    kept = json.dumps(
        [list(service.store.docs.items()), service.store.profiles, service.store.connections],
        default=str,
    )
    assert PASSWORD not in kept
    assert all(PASSWORD not in json.dumps(m) for m in service.connections.log)


# --- provisional ratings ----------------------------------------------------------------------


def test_throwaway_accounts_cannot_farm_a_rating(service, phone):
    """The issue's farm: three fresh sign-ups each skipped once and resigned, and the
    account went 1001 -> 1017 -> 1032 -> 1047. A provisional opponent moves no rating."""
    ann = established(service, phone, "Ann", rating=1001)
    for n in range(3):
        throwaway = registered(phone, f"Throwaway{n}")
        result = play_out(ann, throwaway)
        mine = result["ratings"][ann.game["you"]]
        assert (mine["before"], mine["after"], mine["provisional"]) == (1001, 1001, False)
        assert ann.game["seats"][1 - ann.game["you"]]["provisional"] is True
    assert account_now(service, ann) == {
        "name": "Ann",
        "rating": 1001,
        "games": PROVISIONAL_GAMES + 3,
        "provisional": False,
    }


def test_a_new_account_farming_other_new_accounts_gains_nothing_either(service, phone):
    ann = registered(phone, "Ann")
    for n in range(3):
        play_out(ann, registered(phone, f"Throwaway{n}"))
    assert account_now(service, ann) == {
        "name": "Ann",
        "rating": 1000,
        "games": 3,
        "provisional": True,
    }


def test_a_newcomer_against_an_established_player_moves_only_the_newcomer(service, phone):
    old, new = established(service, phone, "Old", rating=1200), registered(phone, "New")
    result = play_out(new, old)
    newcomer, old_hand = result["ratings"][new.game["you"]], result["ratings"][old.game["you"]]
    assert newcomer["after"] == 1000 + 24 and newcomer["provisional"]  # Elo: an upset
    assert (old_hand["before"], old_hand["after"]) == (1200, 1200)


def test_a_rating_is_provisional_until_its_tenth_rated_game_and_shows_so(service, clock, phone):
    ann, bob = registered(phone, "Ann"), registered(phone, "Bob")
    seen = []
    for _ in range(PROVISIONAL_GAMES):
        clock.now += 60_000  # at a person's pace
        play_out(ann, bob)
        seen.append(account_now(service, ann)["provisional"])
    assert seen == [True] * (PROVISIONAL_GAMES - 1) + [False]
    # Aborted games do not count.
    clock.now += 60_000
    play_out(ann, bob, moves=False)
    assert account_now(service, ann)["games"] == PROVISIONAL_GAMES
    # The lobby shows it beside the rating.
    cat = registered(phone, "Cat")
    cat.send("duel_lobby")
    ann.send("duel_seek", limit=None)
    bob.send("duel_lobby")
    cat.take()
    assert {s["name"]: s["provisional"] for s in cat.lobby["seeks"]} == {"Ann": False}
