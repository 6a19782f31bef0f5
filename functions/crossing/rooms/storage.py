"""Room state, saved games and Duel matches to and from what the store keeps.

pydantic walks the dataclasses both ways. The JSON is zlib-compressed because
undo history repeats itself: measured on an 11x11 Together room with 8 players
and 2,338 undo entries, 216 KB of JSON stores as 34 KB at level 6 (DynamoDB's
item limit is 400 KB); level 1, used now, was 1.2x that size on a Midi room of six
after 400 letters, in a third of the time.
"""

from __future__ import annotations

import base64
import json
import threading
import zlib
from typing import Any

from pydantic import TypeAdapter

from crossing.crossword.race import Race
from crossing.crossword.together import Together
from crossing.duel.match import Match
from crossing.rooms.room import Room

FORMAT = 1
ROOM_PARTS = 2  # a room in play: its puzzle and each seat compressed apart
_ADAPTERS: dict[str, TypeAdapter[Any]] = {
    "room": TypeAdapter(Room),
    "race": TypeAdapter(Race),
    "together": TypeAdapter(Together),
    "match": TypeAdapter(Match),
}


PARTS_KEPT = 4096  # players' seats and puzzles whose stored form is kept, the latest made
_parts: dict[int, tuple[Any, str]] = {}
_parts_lock = threading.Lock()
_part_adapters: dict[type, TypeAdapter[Any]] = {}


def _pack(kind: str, value: Any) -> dict[str, Any]:
    if kind == "room" and value.game is not None:
        return _room_parts(value)
    # pydantic writes the JSON itself (compact, as json.dumps with these separators
    # would), in two thirds of the time of dumping to Python and then to text.
    return {"format": FORMAT, "kind": kind, "z": _squeeze(_ADAPTERS[kind].dump_json(value))}


def _squeeze(raw: bytes) -> str:
    # Level 1: a third of level 6's time for about a fifth more bytes, and a room is
    # written at every keystroke.
    return base64.b64encode(zlib.compress(raw, 1)).decode()


def _unsqueeze(packed: str) -> Any:
    return json.loads(zlib.decompress(base64.b64decode(packed)))


def _room_parts(room: Room) -> dict[str, Any]:
    """A room in play, stored in parts: the puzzle, each player's seat (with its undo
    history, most of a long game's bytes) and the rest, each compressed on its own. A
    keystroke replaces one seat and keeps the puzzle and every other seat as the very
    same objects, whose stored form is kept: so a write turns into text and compresses
    what the batch changed, not the whole game again."""
    game = room.game
    assert game is not None
    rest = _ADAPTERS["room"].dump_json(room, exclude={"game": {"players", "puzzle"}})
    return {
        "format": ROOM_PARTS,
        "kind": "room",
        "z": _squeeze(rest),
        "puzzle": _part(game.puzzle),
        "seats": {player: _part(seat) for player, seat in game.players.items()},
    }


def _part(value: Any) -> str:
    kept = _parts.get(id(value))
    if kept is not None and kept[0] is value:
        return kept[1]
    adapter = _part_adapters.get(type(value))
    if adapter is None:
        adapter = _part_adapters.setdefault(type(value), TypeAdapter(type(value)))
    packed = _squeeze(adapter.dump_json(value))
    with _parts_lock:
        _parts[id(value)] = (value, packed)  # holding the value keeps its id from reuse
        while len(_parts) > PARTS_KEPT:
            del _parts[next(iter(_parts))]
    return packed


def _unpack(stored: dict[str, Any]) -> Any:
    kind, form = stored.get("kind"), stored.get("format")
    if kind not in _ADAPTERS or not (form == FORMAT or (form == ROOM_PARTS and kind == "room")):
        raise ValueError(f"cannot read stored {kind!r} of format {form!r}")
    data = _unsqueeze(stored["z"])
    if form == ROOM_PARTS:
        data["game"]["puzzle"] = _unsqueeze(stored["puzzle"])
        data["game"]["players"] = {p: _unsqueeze(s) for p, s in stored["seats"].items()}
    return _ADAPTERS[kind].validate_python(data)


def dump_room(room: Room) -> dict[str, Any]:
    return _pack("room", room)


def load_room(stored: dict[str, Any]) -> Room:
    return _unpack(stored)


def dump_match(match: Match) -> dict[str, Any]:
    return _pack("match", match)


def load_match(stored: dict[str, Any]) -> Match:
    match = _unpack(stored)
    if not isinstance(match, Match):
        raise ValueError(f"stored {stored.get('kind')!r} is not a Duel")
    return match


def dump_game(game: Race | Together) -> dict[str, Any]:
    return _pack("race" if isinstance(game, Race) else "together", game)


def load_game(stored: dict[str, Any]) -> Race | Together:
    return _unpack(stored)
