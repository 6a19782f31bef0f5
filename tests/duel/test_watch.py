"""Watching a Duel on a screen: the board, clocks, scores, turn and moves, live, never a
rack or the bag's order; a finished game looked back through from its stored record."""

import json

from crossing.duel.game import RULES
from crossing.rooms.storage import load_match
from crossing.tiles.board import Board

from tests.duel.phones import errors

MIN = 60_000


def start_game(phone):
    hana, ann = phone(), phone()
    hana.send("duel_lobby")
    hana.send("duel_seek", limit=5 * MIN, name="Hana")
    assert not errors(ann.send("duel_accept", seek=hana.lobby["mine"]["id"], name="Ann"))
    hana.take()
    return hana, ann


def play_some(hana, ann, turns):
    for _ in range(turns):
        mover = hana if hana.my_turn else ann
        assert not errors(mover.send("duel_play", tiles=mover.best_play()))
        (ann if mover is hana else hana).take()


def test_a_screen_follows_a_duel_live_and_never_sees_a_rack_or_the_bag(service, phone):
    hana, ann = start_game(phone)
    tv = phone()
    assert not errors(tv.send("duel_watch", game=hana.game["id"]))
    assert tv.game["id"] == hana.game["id"]
    assert tv.game["you"] is None and tv.game["rack"] == ""
    assert [s["name"] for s in tv.game["seats"]] == [s["name"] for s in hana.game["seats"]]
    assert all(s["time_left"] == 5 * MIN for s in tv.game["seats"])
    assert tv.game["turn"] == hana.game["turn"]
    play_some(hana, ann, 4)
    tv.take()
    assert tv.game["moves"] == hana.game["moves"] and len(tv.game["moves"]) == 4
    assert tv.game["moves"][-1]["at"] and tv.game["moves"][-1]["words"]
    assert tv.game["board"] == hana.game["board"]
    assert [s["score"] for s in tv.game["seats"]] == [s["score"] for s in hana.game["seats"]]
    # Nothing the screen was ever sent holds a rack or the bag's order.
    stored, _ = service.store.load_doc("game", hana.game["id"])
    duel = load_match(stored).duel
    told = [m for m in tv.inbox if m["type"] == "duel"]
    assert len(told) >= 5  # the game when it started watching, then each play
    for message in told:
        assert message["game"]["rack"] == "" and message["game"]["you"] is None
        assert isinstance(message["game"]["bag"], int)
        text = json.dumps(message)
        for secret in (duel.bag, duel.bag[:7], duel.seats[0].rack, duel.seats[1].rack):
            assert secret not in text
    # Watching again (a reload) is one screen, answered with the game.
    tv.send("duel_watch", game=hana.game["id"])
    assert load_match(service.store.load_doc("game", hana.game["id"])[0]).watchers == (
        tv.connection,
    )
    tv.send("snapshot")
    assert tv.inbox[-1]["type"] == "duel" and tv.inbox[-1]["game"]["rack"] == ""


def test_a_player_watching_their_own_game_on_a_screen_shows_no_rack(phone):
    hana, _ = start_game(phone)
    tv = type(hana)(hana.service, "tv")
    tv.send("hello", player=hana.player, token=hana.token)
    tv.send("duel_watch", game=hana.game["id"])
    tv.send("snapshot")
    assert tv.game["rack"] == "" and tv.game["you"] is None


def test_a_finished_game_replays_move_by_move_from_its_record(phone):
    hana, ann = start_game(phone)
    play_some(hana, ann, 5)
    hana.send("duel_resign")
    tv = phone()
    tv.send("duel_watch", game=hana.game["id"])
    game = tv.game
    assert game["result"]["reason"] == "resigned"
    # Folding the record's plays rebuilds every position, and the last is the game's end.
    board, scores = Board.empty(), [0, 0]
    for move in game["moves"]:
        if move["kind"] == "play":
            board = board.with_tiles((r, c, letter) for r, c, letter in move["tiles"])
        scores[move["seat"]] += move["score"]
    assert list(board.rows) == game["board"]
    assert scores == game["result"]["scores"]
    assert game["rules"]["layout"] == list(RULES.layout)


def test_a_code_that_is_no_duel_is_refused_and_nothing_changes(phone):
    tv = phone()
    [error] = errors(tv.send("duel_watch", game="g-nothing-here"))
    assert error["code"] == "no-game"
    assert "no Duel" in error["message"]
    assert errors(tv.send("duel_watch", game="bad code!"))
