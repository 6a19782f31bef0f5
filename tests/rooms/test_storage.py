"""A room as stored: the same JSON pydantic writes for it, however much of it was kept
from earlier writes (the puzzle and each player's seat are stored apart, once each)."""

import base64
import json
import random
import zlib

import pytest
from crossing.crossword.commands import Clear, Refused, Type, Undo
from crossing.crossword.seating import UNDO_DEPTH
from crossing.crossword.together import Write
from crossing.rooms import room as R
from crossing.rooms.storage import (
    CHUNK_EVERY,
    FORMAT,
    _board,
    _chunk_starts,
    _starts_chunk,
    adapter,
    dump_room,
    load_room,
)
from pydantic import TypeAdapter

from tests.crossword.puzzles import MINI
from tests.rooms.fakes import start_game

WHITES = list(MINI.white_squares)


def unpacked(packed: str) -> object:
    return json.loads(zlib.decompress(base64.b64decode(packed)))


def stored_json(room: R.Room) -> object:
    """The stored room put back together from its parts."""
    stored = dump_room(room)
    data = unpacked(stored["z"])
    if "seats" in stored:
        parts = stored["parts"]
        data["game"]["puzzle"] = unpacked(joined(stored["puzzle"], parts))
        data["game"]["players"] = {p: seat_json(seat, parts) for p, seat in stored["seats"].items()}
    if "board" in stored:
        data["game"]["board"] = unpacked(stored["board"])
    return data


def joined(text: str, parts: dict[str, str]) -> str:
    """A part named by ``@`` and its key, or the text itself."""
    return parts[text[1:]] if text.startswith("@") else text


def seat_json(stored: str | dict, parts: dict[str, str]) -> object:
    if isinstance(stored, str):
        return unpacked(stored)
    seat = unpacked(stored["seat"])  # a long undo history, in chunks
    seat["history"] = [
        entry for chunk in stored["history"] for entry in unpacked(joined(chunk, parts))
    ]
    return seat


def pydantic_json(room: R.Room) -> object:
    return json.loads(adapter("room").dump_json(room))


@pytest.mark.parametrize("mode", ["race", "together"])
def test_a_room_is_stored_as_pydantic_writes_it_after_every_letter(service, phone, clock, mode):
    host, (ann,), code = start_game(phone, mode=mode)
    room = load_room(service.store.load_room(code)[0])
    assert stored_json(room) == pydantic_json(room)
    for i, square in enumerate(WHITES[:6]):
        player = (host if i % 2 else ann).player
        clock.now += 700
        room, _ = R.step(room, R.Play(player, Type(player, square, "ABCDEF"[i])), clock.now)
        # One seat is new at each step, the other is the same object as before: both
        # must be as they are now, not as they were first stored.
        assert stored_json(room) == pydantic_json(room)
        assert load_room(dump_room(room)) == room


@pytest.mark.parametrize("mode", ["race", "together"])
def test_a_long_undo_history_is_stored_in_chunks_as_pydantic_writes_it(service, phone, clock, mode):
    host, (ann,), code = start_game(phone, mode=mode)
    room = load_room(service.store.load_room(code)[0])
    rng = random.Random(5)
    chunked = False
    parts: set[str] = set()
    was_long: set[str] = set()
    # Past the undo depth, so the oldest entries are dropped as new ones come, with undos
    # and clears taking entries off the end.
    for step in range(4 * UNDO_DEPTH):
        player = rng.choice((host, ann)).player
        square = rng.choice(WHITES)
        command = rng.choice(
            [Type(player, square, rng.choice("ABCDEFGHIJ"))] * 14
            + [Undo(player), Clear(player, square)]
        )
        clock.now += 150  # within a Mini race's limit
        try:
            room, _ = R.step(room, R.Play(player, command), clock.now)
        except Refused:
            continue
        stored = dump_room(room)  # at every step: what is kept must follow every change
        chunked |= any(isinstance(seat, dict) for seat in stored["seats"].values())
        # A store keeps each part once: a step adds at most the chunk it finished and
        # the oldest one cut shorter, so a letter does not rewrite the history (but a
        # seat whose history has just grown long is chunked all at once).
        long = {p for p, seat in stored["seats"].items() if isinstance(seat, dict)}
        if long == was_long:
            assert len(stored["parts"].keys() - parts) <= 2
        parts, was_long = set(stored["parts"]), long
        for seat in room.game.players.values():  # found from the step before, as if anew
            history = seat.history
            if len(history) > 2 * CHUNK_EVERY:
                anew = tuple(at for at in range(1, len(history)) if _starts_chunk(history[at]))
                assert _chunk_starts(history) == anew
        if step % 3 == 0:
            assert stored_json(room) == pydantic_json(room)
    assert chunked
    assert load_room(dump_room(room)) == room
    assert max(len(seat.history) for seat in room.game.players.values()) == UNDO_DEPTH


def test_a_room_in_its_lobby_is_stored_as_pydantic_writes_it(service, phone):
    host = phone()
    host.send("host", name="Hana")
    room = load_room(service.store.load_room(host.room["code"])[0])
    assert room.game is None
    assert stored_json(room) == pydantic_json(room)


def test_a_room_stored_whole_before_it_was_stored_in_parts_still_loads(service, phone, clock):
    _, (ann,), code = start_game(phone, mode="together")
    room = load_room(service.store.load_room(code)[0])
    room, _ = R.step(room, R.Play(ann.player, Type(ann.player, WHITES[0], "A")), clock.now)
    whole = zlib.compress(adapter("room").dump_json(room))
    stored = {"format": FORMAT, "kind": "room", "z": base64.b64encode(whole).decode()}
    assert load_room(stored) == room


def test_a_together_room_stored_with_its_board_inside_still_loads(service, phone, clock):
    _, (ann,), code = start_game(phone, mode="together")
    room = load_room(service.store.load_room(code)[0])
    room, _ = R.step(room, R.Play(ann.player, Type(ann.player, WHITES[0], "A")), clock.now)
    stored = dump_room(room)
    # As format 4 stored it: the board inside the rest of the room.
    rest = unpacked(stored.pop("z"))
    rest["game"]["board"] = unpacked(stored.pop("board"))
    stored["z"] = base64.b64encode(zlib.compress(json.dumps(rest).encode())).decode()
    stored["format"] = 4
    assert load_room(stored) == room


def test_a_board_whose_squares_hold_braces_is_still_stored_as_pydantic_writes_it():
    odd = 'x"},{"y'  # not a player id the service makes, but nothing here may assume that
    board = (Write("A", odd, 1), Write(), Write("B", "p2", 2))
    whole = TypeAdapter(tuple[Write, ...])
    assert _board(board) == whole.dump_json(board)
    board = (*board[:1], Write("C", odd, 3), *board[2:])  # one square new
    assert _board(board) == whole.dump_json(board)
