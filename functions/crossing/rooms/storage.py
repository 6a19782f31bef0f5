"""Room state, saved games and Duel matches to and from what the store keeps.

pydantic walks the dataclasses both ways. The JSON is zlib-compressed because
undo history repeats itself: measured on an 11x11 Together room with 8 players
and 2,338 undo entries, 216 KB of JSON stores as 34 KB at level 6 (DynamoDB's
item limit is 400 KB); level 1, used now, was 1.2x that size on a Midi room of six
after 400 letters, in a third of the time.

Every stored document carries its format: ``{"format", "kind", ...}`` here, and the plain
JSON documents (a Duel seek, the lobby's watchers, a rating) are format 1 whether or not
they say so (``plain``). A reader refuses a format it does not know, by name, rather than
misreading it. **A new format ships in two releases**: the first reads it (and still
writes the old one), the second writes it. So the release before any release reads all
it writes, and rolling back one release is safe (docs/operations.md, Rolling back). Each
format written comes with a fixture that release wrote (``tests/rooms/stored``).
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import threading
import zlib
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from pydantic import TypeAdapter

from crossing.crossword.race import Race
from crossing.crossword.together import Together
from crossing.duel.match import Match
from crossing.rooms.room_state import Room

FORMAT = 1
ROOM_PARTS = 2  # a room in play: its puzzle and each seat compressed apart
ROOM_CHUNKS = 3  # the same, a long undo history stored in chunks (see _seat_part)
ROOM_APART = 4  # the same, the puzzle and each finished chunk a part of its own (_keyed)
ROOM_BOARD = 5  # the same, a Together board written square by square (_board)
CHUNK_EVERY = 32
"""An undo history entry starts a new stored chunk one time in this many, on average."""
_TYPES: dict[str, type] = {"room": Room, "race": Race, "together": Together, "match": Match}
"""What each kind of stored document is read into."""


@cache
def adapter(kind: str) -> TypeAdapter[Any]:
    """pydantic's reader and writer of ``kind``, built at its first use: building all four
    at import was 20 ms of each room function's cold start, and a crossword room never
    needs a Duel's."""
    return TypeAdapter(_TYPES[kind])


PARTS_KEPT = 4096  # players' seats and puzzles whose stored form is kept, the latest made
CHUNKS_KEPT = 16384  # undo history chunks whose stored form is kept
WRITES_KEPT = 65536  # a Together board's squares whose JSON is kept: fifty Large rooms' and more
_parts: dict[int, tuple[Any, Any]] = {}
# By the id of the chunk's first entry: the entries, and the chunk's key and text.
_chunks: dict[int, tuple[tuple[Any, ...], tuple[str, str]]] = {}
_writes: dict[int, tuple[Any, bytes]] = {}
# By the id of a long history's last entry: that history, and where its chunks start.
_starts: dict[int, tuple[tuple[Any, ...], tuple[int, ...]]] = {}
_parts_lock = threading.Lock()
_part_adapters: dict[type, TypeAdapter[Any]] = {}


def _pack(kind: str, value: Any) -> dict[str, Any]:
    if kind == "room" and value.game is not None:
        return _room_parts(value)
    # pydantic writes the JSON itself (compact, as json.dumps with these separators
    # would), in two thirds of the time of dumping to Python and then to text.
    return {"format": FORMAT, "kind": kind, "z": _squeeze(adapter(kind).dump_json(value))}


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
    board = game.board if isinstance(game, Together) else None
    apart = {"players", "puzzle"} if board is None else {"players", "puzzle", "board"}
    rest = adapter("room").dump_json(room, exclude={"game": apart})
    puzzle, text = _part(game.puzzle, lambda puzzle: _keyed(_whole(puzzle)))
    parts = {puzzle: text}
    seats = {}
    for player, seat in game.players.items():
        seats[player], seat_parts = _part(seat, _seat_part)
        parts.update(seat_parts)
    stored = {
        "format": ROOM_APART if board is None else ROOM_BOARD,
        "kind": "room",
        "z": _squeeze(rest),
        "puzzle": "@" + puzzle,
        "seats": seats,
        "parts": parts,
    }
    if board is not None:
        stored["board"] = _squeeze(_board(board))
    return stored


def _board(board: tuple[Any, ...]) -> bytes:
    """A Together board's JSON, as pydantic writes it, from each square's kept JSON: a
    letter changes one square, and writing the board was two thirds of writing the rest
    of a Large room (the squares of a board are the same objects as the board before's,
    but for the one a letter changed). A board of new squares (just loaded) is written
    whole, in one call, and its squares' JSON kept from that: one call per square was
    eight times as long."""
    kept = [_writes.get(id(write)) for write in board]
    new = [
        at
        for at, (k, write) in enumerate(zip(kept, board, strict=True))
        if k is None or k[0] is not write
    ]
    if len(new) > 1:
        whole: bytes = _adapter(tuple[type(board[0]), ...]).dump_json(board)  # type: ignore[misc]
        # Squares hold no braces (a letter, a player id, a number), so every "},{" is
        # where one ends; a count that is off says otherwise, and nothing is kept.
        texts = whole[2:-2].split(b"},{")
        if len(texts) == len(board):
            squares = zip(board, texts, strict=True)
            _keep_all(_writes, WRITES_KEPT, ((id(w), (w, b"{%b}" % t)) for w, t in squares))
        return whole
    texts = [k[1] if k is not None else b"" for k in kept]
    for at in new:  # one new square (or none): what the kept texts lack
        square = board[at]
        texts[at] = _adapter(type(square)).dump_json(square)
        _keep(_writes, WRITES_KEPT, id(square), (square, texts[at]))
    return b"[" + b",".join(texts) + b"]"


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
    _keep(_parts, PARTS_KEPT, id(value), (value, packed))  # holding the value keeps its id
    return packed


def _keep(kept_in: dict[int, Any], most: int, key: int, value: Any) -> None:
    """Keep ``value`` by ``key``, forgetting the oldest past ``most``."""
    _keep_all(kept_in, most, ((key, value),))


def _keep_all(kept_in: dict[int, Any], most: int, items: Iterable[tuple[int, Any]]) -> None:
    with _parts_lock:
        kept_in.update(items)
        while len(kept_in) > most:
            del kept_in[next(iter(kept_in))]


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
    starts = (0, *_chunk_starts(history))
    chunks = [_chunk(history[start:end]) for start, end in itertools.pairwise(starts)]
    # Every chunk but the last is finished (only the oldest may yet be cut shorter): a
    # part; the last grows with the next letter, so it stays in the room itself.
    last = _chunk(history[starts[-1] :])[1]
    rest = _adapter(type(seat)).dump_json(seat, exclude={"history"})
    stored = {"seat": _squeeze(rest), "history": ["@" + key for key, _ in chunks] + [last]}
    return stored, dict(chunks)


def _starts_chunk(entry: Any) -> bool:
    # Mixed (Knuth's multiplier), as addresses step by their allocator's sizes.
    return (id(entry) * 2654435761 >> 24) % CHUNK_EVERY == 0


def _chunk_starts(history: tuple[Any, ...]) -> tuple[int, ...]:
    """Where the chunks of ``history`` start, but for the first: at each entry whose id
    says so. Found from the same history as it was before this step, when that is kept: a
    letter adds an entry and may drop the oldest, an undo drops the newest, and looking at
    all 500 entries of a full history at every letter was half of storing its seat.

    A history that ends at an entry is a tail of the entries it ended with when that entry
    was added (the oldest are dropped, never the ones in between): so its last entry and
    its length say which entries it holds."""
    for known, grown in ((history[-1], 0), (history[-2], 1)):
        kept = _starts.get(id(known))
        if kept is None or kept[0][-1] is not known:
            continue
        before, starts = kept
        dropped = len(before) + grown - len(history)
        if dropped < 0 or before[dropped] is not history[0]:
            continue
        starts = tuple(at - dropped for at in starts if at > dropped)
        if grown and _starts_chunk(history[-1]):
            starts += (len(history) - 1,)
        break
    else:
        starts = tuple(at for at in range(1, len(history)) if _starts_chunk(history[at]))
    _keep(_starts, CHUNKS_KEPT, id(history[-1]), (history, starts))
    return starts


def _chunk(entries: tuple[Any, ...]) -> tuple[str, str]:
    """The chunk's key and stored text."""
    # The same first entry (the cache holds it, so its id is its own), the same last and
    # length: the same chunk, as a history only ever changes at its two ends.
    kept = _chunks.get(id(entries[0]))
    if kept is not None and len(kept[0]) == len(entries) and kept[0][-1] is entries[-1]:
        return kept[1]
    keyed = _keyed(_squeeze(_adapter(tuple[type(entries[0]), ...]).dump_json(entries)))  # type: ignore[misc]
    _keep(_chunks, CHUNKS_KEPT, id(entries[0]), (entries, keyed))
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
    apart = form in (ROOM_PARTS, ROOM_CHUNKS, ROOM_APART, ROOM_BOARD) and kind == "room"
    if kind not in _TYPES or not (form == FORMAT or apart):
        raise ValueError(f"cannot read stored {kind!r} of format {form!r}")
    data = _unsqueeze(stored["z"])
    if apart:
        parts = stored.get("parts", {})
        data["game"]["puzzle"] = _unsqueeze(_joined(stored["puzzle"], parts))
        data["game"]["players"] = {p: _unsqueeze_seat(s, parts) for p, s in stored["seats"].items()}
        if "board" in stored:
            data["game"]["board"] = _unsqueeze(stored["board"])
    return adapter(kind).validate_python(data)


def plain(kind: str, stored: Mapping[str, Any]) -> dict[str, Any]:
    """A plain JSON document (a seek, the lobby's watchers, a rating) without its
    ``format``: format 1, said or not (they were written before they carried one); a
    later format is refused, as a room's is, rather than misread."""
    form = stored.get("format", FORMAT)
    if form != FORMAT:
        raise ValueError(f"cannot read stored {kind!r} of format {form!r}")
    return {key: value for key, value in stored.items() if key != "format"}


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
