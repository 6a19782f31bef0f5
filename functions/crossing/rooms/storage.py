"""Room state, saved games and Duel matches to and from what the store keeps.

pydantic walks the dataclasses both ways. The JSON is zlib-compressed because
undo history repeats itself: measured on an 11x11 Together room with 8 players
and 2,338 undo entries, 216 KB of JSON stores as 34 KB at level 6 (DynamoDB's
item limit is 400 KB); level 1, used now, was 1.2x that size on a Midi room of six
after 400 letters, in a third of the time.
"""

from __future__ import annotations

import base64
import hashlib
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
ROOM_CHUNKS = 3  # the same, a long undo history stored in chunks (see _seat_part)
ROOM_APART = 4  # the same, the puzzle and each finished chunk a part of its own (_keyed)
CHUNK_EVERY = 32
"""An undo history entry starts a new stored chunk one time in this many, on average."""
_ADAPTERS: dict[str, TypeAdapter[Any]] = {
    "room": TypeAdapter(Room),
    "race": TypeAdapter(Race),
    "together": TypeAdapter(Together),
    "match": TypeAdapter(Match),
}


PARTS_KEPT = 4096  # players' seats and puzzles whose stored form is kept, the latest made
CHUNKS_KEPT = 16384  # undo history chunks whose stored form is kept
_parts: dict[int, tuple[Any, Any]] = {}
# By the id of the chunk's first entry: the entries, and the chunk's key and text.
_chunks: dict[int, tuple[tuple[Any, ...], tuple[str, str]]] = {}
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
    what the batch changed, not the whole game again.

    What never changes once written (the puzzle, an undo history's finished chunks) goes
    in ``parts`` by the hash of its text and is named where it belongs by ``@`` and that
    key: a store may keep each part once, apart from the room (``Store.save_room``)."""
    game = room.game
    assert game is not None
    rest = _ADAPTERS["room"].dump_json(room, exclude={"game": {"players", "puzzle"}})
    puzzle, text = _part(game.puzzle, lambda puzzle: _keyed(_whole(puzzle)))
    parts = {puzzle: text}
    seats = {}
    for player, seat in game.players.items():
        seats[player], seat_parts = _part(seat, _seat_part)
        parts.update(seat_parts)
    return {
        "format": ROOM_APART,
        "kind": "room",
        "z": _squeeze(rest),
        "puzzle": "@" + puzzle,
        "seats": seats,
        "parts": parts,
    }


def _keyed(text: str) -> tuple[str, str]:
    """A part's key and its text. The key is the text's hash: the same text is the same
    part, whoever wrote it and however often."""
    digest = hashlib.blake2b(text.encode(), digest_size=12).digest()
    return base64.urlsafe_b64encode(digest).decode(), text


def _joined(text: str, parts: dict[str, str]) -> str:
    if not text.startswith("@"):  # base64 never holds an @
        return text
    try:
        return parts[text[1:]]
    except KeyError:
        raise ValueError(f"a stored room names part {text[1:]!r}, which is not stored") from None


def _part(value: Any, pack: Any) -> Any:
    """``pack(value)``, kept for the very same object: a keystroke's room shares every
    part but the typist's seat with the room before it."""
    kept = _parts.get(id(value))
    if kept is not None and kept[0] is value:
        return kept[1]
    packed = pack(value)
    with _parts_lock:
        _parts[id(value)] = (value, packed)  # holding the value keeps its id from reuse
        while len(_parts) > PARTS_KEPT:
            del _parts[next(iter(_parts))]
    return packed


def _whole(value: Any) -> str:
    return _squeeze(_adapter(type(value)).dump_json(value))


def _seat_part(seat: Any) -> Any:
    """A seat, its undo history in chunks once it is long: a keystroke adds one entry
    (and may drop the oldest), so only the last chunk (and perhaps the first) is new,
    and the others' stored form is kept from the write before. Turning a seat of 220
    entries into JSON took longer than the rest of a keystroke's write.

    A chunk ends where an entry's id says so, one time in ``CHUNK_EVERY`` on average:
    the cuts go with the entries, not with positions that shift as the oldest is
    dropped. (Ids are this process's; the stored chunks are only ever joined again.)"""
    history = getattr(seat, "history", ())
    if len(history) <= 2 * CHUNK_EVERY:
        return _whole(seat), {}
    chunks, start = [], 0
    for at in range(1, len(history)):
        # Mixed (Knuth's multiplier), as addresses step by their allocator's sizes.
        if (id(history[at]) * 2654435761 >> 24) % CHUNK_EVERY == 0:
            chunks.append(_chunk(history[start:at]))
            start = at
    # Every chunk but the last is finished (only the oldest may yet be cut shorter): a
    # part; the last grows with the next letter, so it stays in the room itself.
    last = _chunk(history[start:])[1]
    rest = _adapter(type(seat)).dump_json(seat, exclude={"history"})
    stored = {"seat": _squeeze(rest), "history": ["@" + key for key, _ in chunks] + [last]}
    return stored, dict(chunks)


def _chunk(entries: tuple[Any, ...]) -> tuple[str, str]:
    """The chunk's key and stored text."""
    # The same first entry (the cache holds it, so its id is its own), the same last and
    # length: the same chunk, as a history only ever changes at its two ends.
    kept = _chunks.get(id(entries[0]))
    if kept is not None and len(kept[0]) == len(entries) and kept[0][-1] is entries[-1]:
        return kept[1]
    keyed = _keyed(_squeeze(_adapter(tuple[type(entries[0]), ...]).dump_json(entries)))  # type: ignore[misc]
    with _parts_lock:
        _chunks[id(entries[0])] = (entries, keyed)
        while len(_chunks) > CHUNKS_KEPT:
            del _chunks[next(iter(_chunks))]
    return keyed


def _adapter(kind: Any) -> TypeAdapter[Any]:
    adapter = _part_adapters.get(kind)
    if adapter is None:
        adapter = _part_adapters.setdefault(kind, TypeAdapter(kind))
    return adapter


def _unsqueeze_seat(stored: Any, parts: dict[str, str]) -> Any:
    if isinstance(stored, str):
        return _unsqueeze(stored)
    seat = _unsqueeze(stored["seat"])
    seat["history"] = [
        entry for chunk in stored["history"] for entry in _unsqueeze(_joined(chunk, parts))
    ]
    return seat


def _unpack(stored: dict[str, Any]) -> Any:
    kind, form = stored.get("kind"), stored.get("format")
    apart = form in (ROOM_PARTS, ROOM_CHUNKS, ROOM_APART) and kind == "room"
    if kind not in _ADAPTERS or not (form == FORMAT or apart):
        raise ValueError(f"cannot read stored {kind!r} of format {form!r}")
    data = _unsqueeze(stored["z"])
    if apart:
        parts = stored.get("parts", {})
        data["game"]["puzzle"] = _unsqueeze(_joined(stored["puzzle"], parts))
        data["game"]["players"] = {p: _unsqueeze_seat(s, parts) for p, s in stored["seats"].items()}
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
