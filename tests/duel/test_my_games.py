"""My games: a signed-in player's finished Duel games, newest first, each with how it
ended and its rating change, and kept long enough to be opened and replayed."""

from crossing.aws import table
from crossing.rooms.duel_documents import GAME_KEPT_MS, MY_GAMES

from tests.duel.phones import errors
from tests.duel.test_ratings import established, play_out, registered

DAY = 24 * 3600_000


def my_games(p) -> dict:
    answer = p.send("duel_games")
    assert not errors(answer)
    return next(m for m in answer if m["type"] == "duel_games")


def test_a_finished_game_is_on_both_players_lists_with_its_result(service, phone):
    ann, bob = established(service, phone, "Ann"), established(service, phone, "Bob")
    play_out(ann, bob)  # Bob resigns after a skip each
    game = ann.game
    [mine] = my_games(ann)["games"]
    assert mine["id"] == game["id"] and mine["you"] == game["you"]
    assert mine["opponent"] == {"name": "Bob", "bot": None, "rated": True}
    assert (mine["outcome"], mine["reason"], mine["moves"]) == ("won", "resigned", 3)
    assert (mine["rating"]["before"], mine["rating"]["after"]) == (1000, 1016)
    [theirs] = my_games(bob)["games"]
    assert theirs["outcome"] == "lost" and theirs["opponent"]["name"] == "Ann"


def test_a_bot_game_is_listed_newest_first_and_a_guest_has_no_list(service, clock, phone):
    ann, bob = registered(phone, "Ann"), registered(phone, "Bob")
    play_out(ann, bob)
    clock.now += 60_000
    assert not errors(ann.send("duel_bot", level="easy", limit=None))
    assert not errors(ann.send("duel_resign"))
    games = my_games(ann)["games"]
    assert [g["opponent"]["bot"] for g in games] == ["easy", None]
    assert games[0]["outcome"] == "lost" and games[0]["aborted"] is True
    assert games[0]["rating"] is None
    guest = phone()
    assert my_games(guest)["games"] == []


def test_a_finished_game_can_be_opened_for_months_not_a_week(service, clock, phone):
    ann, bob = registered(phone, "Ann"), registered(phone, "Bob")
    play_out(ann, bob)
    [listed] = my_games(ann)["games"]
    assert listed["kept_until"] >= clock.now + GAME_KEPT_MS
    kept = service.store.expires_at[table.doc_key("game", listed["id"])]
    assert kept * 1000 >= clock.now + 89 * DAY  # the store's TTL, in seconds
    # Opened from the list (say a month later), the whole game comes back, moves and all.
    clock.now += 30 * DAY
    again = type(ann)(service, "later")
    again.send("hello", refresh=ann.account["refresh"])
    assert not errors(again.send("duel_open", game=listed["id"]))
    assert again.game["result"]["reason"] == "resigned"
    assert [m["kind"] for m in again.game["moves"]] == ["skip", "skip", "resign"]


def test_a_retried_settle_lists_a_game_once_and_the_list_is_bounded(service, clock, phone):
    from crossing.rooms.storage import load_match

    ann = registered(phone, "Ann")
    for _ in range(MY_GAMES + 2):
        clock.now += 60_000
        assert not errors(ann.send("duel_bot", level="easy", limit=None))
        assert not errors(ann.send("duel_resign"))
    game = ann.game["id"]
    stored, _ = service.store.load_doc("game", game)
    service.duel.record_ratings(game, load_match(stored))  # a retry after a failure, say
    games = my_games(ann)["games"]
    assert len(games) == MY_GAMES
    assert games[0]["id"] == game and sum(g["id"] == game for g in games) == 1
