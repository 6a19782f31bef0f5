"""``crossing serve`` killed with SIGKILL mid-game and started again on the same data
folder: every letter, move, rating and saved board a player saw acknowledged is there.

The server runs as its own process (the command a player types), on SQLite."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from tests.local.client import SocketPlayer, white_squares
from tests.local.served import Served

PASSWORD = "a long passphrase"
PACKS = Path(__file__).resolve().parents[2] / "tests" / "data" / "packs"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Served]:
    s = Served(tmp_path / "data", "--packs", str(PACKS))
    s.start()
    yield s
    s.stop()


def game(p: SocketPlayer) -> dict:
    return p.room.get("game") or {}


def restart(server: Served, *players: SocketPlayer) -> None:
    server.kill()
    for p in players:
        p.close()
    server.start()


def test_a_together_game_keeps_every_acknowledged_letter(server):
    hana, ann = server.player(), server.player()
    hana.act("host", name="Hana")
    ann.act("join", code=hana.room["code"], name="Ann")
    hana.act("to_game")
    hana.act("choose", mode="together", size="mini")
    hana.act("start")
    ann.until(lambda p: p.room.get("phase") == "playing")
    typed = {}
    for i, square in enumerate(white_squares(ann.room)[:9]):
        letter = "CROSSWORD"[i]
        by = ann if i % 2 else hana
        assert by.act("type", square=square, letter=letter)["type"] == "ack"
        typed[square] = (letter, by.player)
    code = hana.room["code"]
    who = [(p.player, p.token, p.seq) for p in (hana, ann)]

    restart(server, hana, ann)

    back = [server.player(seq, player=player, token=token) for player, token, seq in who]
    for p in back:
        assert p.welcome["room"] == code
        p.until(lambda p: game(p).get("board"))
        board, writers = game(p)["board"], game(p)["writers"]
        assert {sq: (board[sq], writers[sq]) for sq in typed} == typed
    # And play goes on from there.
    square = white_squares(back[0].room)[9]
    assert back[0].act("type", square=square, letter="Z")["type"] == "ack"
    back[1].until(lambda p: game(p)["board"][square] == "Z")


def test_a_solo_race_keeps_its_letters_and_its_saved_board(server):
    solo = server.player()
    solo.act("host", name="Solo")
    solo.act("to_game")
    solo.act("choose", mode="race", size="mini")
    solo.act("start")
    solo.until(lambda p: p.room.get("phase") == "playing")
    squares = white_squares(solo.room)
    for square in squares[:4]:
        assert solo.act("type", square=square, letter="E")["type"] == "ack"
    who = {"player": solo.player, "token": solo.token}

    restart(server, solo)

    solo = server.player(solo.seq, **who)
    solo.until(lambda p: game(p).get("board"))
    assert [game(solo)["board"][sq] for sq in squares[:5]] == ["E"] * 4 + ["."]
    solo.act("type", square=squares[4], letter="S")
    assert solo.act("pause")["type"] == "ack"
    # The save is written as the pause is applied; a new hello reads it back.
    assert server.player(solo.seq, **who).welcome["saved"]["race"] is True

    restart(server, solo)

    solo = server.player(solo.seq + 1, **who)
    assert solo.welcome["saved"]["race"] is True
    if solo.welcome["room"] is None:  # paused out of the room: host one to pick it up in
        solo.act("host", name="Solo")
    assert solo.act("pick_up")["type"] == "ack", solo.errors
    solo.until(lambda p: game(p).get("board") and p.room.get("phase") == "playing")
    assert [game(solo)["board"][sq] for sq in squares[:5]] == ["E"] * 4 + ["S"]


def test_a_signed_in_duel_keeps_its_moves_and_its_ratings(server):
    ann, bob = server.player(), server.player()
    ann.act("sign_up", name="Ann", password=PASSWORD)
    bob.act("sign_up", name="Bob", password=PASSWORD)
    refresh = {"ann": ann.signed_in["refresh"], "bob": bob.signed_in["refresh"]}
    ann.act("duel_lobby")
    ann.act("duel_seek", limit=None, private=True)
    mine = ann.lobby["mine"]
    assert bob.duel_act("duel_accept", seek=mine["id"], token=mine["token"])["type"] == "ack"
    ann.until(lambda p: p.duel.get("turn") is not None)
    first, second = (ann, bob) if ann.duel["turn"] == ann.duel["you"] else (bob, ann)
    assert first.duel_act("duel_skip")["type"] == "ack"
    second.until(lambda p: len(p.duel["moves"]) == 1)
    assert second.duel_act("duel_skip")["type"] == "ack"
    game_id, seq = ann.duel["id"], max(ann.seq, bob.seq)

    restart(server, ann, bob)

    ann = server.player(seq, refresh=refresh["ann"])
    assert ann.welcome["account"] == {
        "name": "Ann",
        "rating": 1000,
        "games": 0,
        "provisional": True,
    }
    assert ann.welcome["duel"] == game_id
    ann.duel_act("duel_open", game=game_id)
    assert [m["kind"] for m in ann.duel["moves"]] == ["skip", "skip"]
    assert ann.duel_act("duel_resign")["type"] == "ack"
    you = ann.duel["you"]
    ann.until(lambda p: ((p.duel.get("result") or {}).get("ratings") or [None, None])[you])
    # Two new accounts: the game counts for both, a provisional opponent moves neither.
    mine = ann.duel["result"]["ratings"][you]
    assert (mine["before"], mine["after"], mine["games"]) == (1000, 1000, 1)

    restart(server, ann)

    ann, bob = (server.player(refresh=refresh[who]) for who in ("ann", "bob"))
    for p, name in ((ann, "Ann"), (bob, "Bob")):
        assert p.welcome["account"] == {
            "name": name,
            "rating": 1000,
            "games": 1,
            "provisional": True,
        }


AWAY_S = 6


@pytest.mark.parametrize("how", ["killed", "stopped"])
def test_a_restart_is_a_pause_on_the_duel_clocks_never_time_charged(server, how):
    """A timed Duel between two guests; the server goes away for AWAY_S seconds (killed
    with SIGKILL, or stopped as an operator would) and comes back: the player to move
    has lost to the restart at most the server's last second and the reconnect."""
    ann, bob = server.player(), server.player()
    ann.act("duel_lobby")
    ann.act("duel_seek", limit=180_000, private=True, name="Ann")
    mine = ann.lobby["mine"]
    assert bob.duel_act("duel_accept", seek=mine["id"], token=mine["token"])["type"] == "ack"
    ann.until(lambda p: p.duel.get("turn") is not None)
    mover = ann if ann.duel["turn"] == ann.duel["you"] else bob
    seat = mover.duel["turn"]
    left = mover.duel["seats"][seat]["time_left"]
    read_at = time.monotonic()
    game_id, who = mover.duel["id"], (mover.seq, mover.player, mover.token)

    if how == "killed":
        server.kill()
    else:
        server.stop()
    for p in (ann, bob):
        p.close()
    time.sleep(AWAY_S)
    server.start()

    back = server.player(who[0], player=who[1], token=who[2])
    back.duel_act("duel_open", game=game_id)
    later = back.duel["seats"][seat]
    passed_ms = (time.monotonic() - read_at) * 1000
    charged = left - later["time_left"]
    assert later["running"] and back.duel["turn"] == seat
    assert passed_ms > AWAY_S * 1000
    assert charged <= 2_500, f"{charged} ms of {passed_ms:.0f} ms charged to the player to move"


def test_sigterm_sends_every_socket_a_close_frame_and_exits_cleanly(server):
    hana, ann = server.player(), server.player()
    hana.act("host", name="Hana")
    ann.act("join", code=hana.room["code"], name="Ann")
    started = time.monotonic()
    assert server.stop() == 0
    # Nothing but the goodbye: no traceback, no metric blobs (metrics are off locally).
    assert server.output.strip().endswith("Stopping."), server.output
    for p in (hana, ann):
        close = closing_frame(p)
        assert close is not None, "a close frame, not a dropped line"
        assert close.code == 1012  # service restart: the client reconnects
    assert time.monotonic() - started < 10


def closing_frame(p: SocketPlayer):
    """Read what is left until the socket ends: the close frame the server sent, if any."""
    while True:
        try:
            p.read(timeout=5)
        except ConnectionClosed as closed:
            return closed.rcvd
