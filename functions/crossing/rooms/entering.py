"""Into a crossword room and out of the last one: host, join by code, watch, pick up a race.

Each enters through the room's writer (``RoomWriter.mutate``) where the room exists
already; a new room is written once under a fresh code. The connection record and the
player's profile then name the room, so a reload finds the seat again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crossing.crossword.commands import Refused
from crossing.rooms import protocol as P
from crossing.rooms import room as R
from crossing.rooms.identity import CONNECTION_TTL_MS
from crossing.rooms.ports import Conflict
from crossing.rooms.sent import Sent, limit, send
from crossing.rooms.storage import dump_room, load_game
from crossing.rooms.views import view
from crossing.rooms.writer import RoomWriter

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud and typed
CODE_LENGTH = 6  # 31**6, about 890 million codes
ROOM_TTL_MS = 2 * 24 * 3600_000
MAX_TRIES = 6
JOIN_LIMIT = (10, 60_000)  # join attempts by code per player per minute
HOST_LIMIT = (10, 60_000)


class Entering:
    def __init__(self, rooms: RoomWriter) -> None:
        self.rooms = rooms

    def _limit(self, key: str, rule: tuple[int, int], why: str) -> None:
        limit(self.rooms.store, self.rooms.clock, key, rule, why)

    def _enter(
        self, connection: str, player: str, old_code: str, code: str, name: str | None = None
    ) -> None:
        """Move a connection into a room: out of the one it was in, and remembered."""
        rooms = self.rooms
        if old_code and old_code != code:
            rooms.drop(old_code, connection)
        rooms.store.put_connection(connection, code, player, rooms.clock() + CONNECTION_TTL_MS)
        if player:
            rooms.store.update_profile(player, {"room": code, **({"name": name} if name else {})})

    def host(self, connection: str, player: str, old: str, m: P.Host) -> Sent:
        self._limit(f"host:{player}", HOST_LIMIT, "Too many rooms at once; wait a minute.")

        def ready(room: R.Room, now: int) -> R.Room:
            if m.solo:  # on your own there is nobody to gather: straight to the game screen
                room, _ = R.step(room, R.ToGame(player), now)
            return room

        return self._open_room(connection, player, old, m.seq, m.name, solo=m.solo, ready=ready)

    def _open_room(
        self,
        connection: str,
        player: str,
        old: str,
        seq: int,
        name: str,
        *,
        solo: bool,
        ready: Callable[[R.Room, int], R.Room],
    ) -> Sent:
        """A new room under a fresh code, its host connected and ``ready`` applied.

        The room is saved only if nobody holds the code yet; a taken code draws another.
        """
        rooms = self.rooms
        now = rooms.clock()
        for _ in range(MAX_TRIES):
            code = "".join(rooms.rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            room = R.new_room(code, player, name, solo=solo, seed=rooms.rng.getrandbits(32))
            room, _ = R.step(room, R.Connect(player, connection), now)
            room = ready(room, now)
            try:
                version = rooms.store.save_room(code, dump_room(room), None, now + ROOM_TTL_MS)
            except Conflict:
                continue  # that code is taken: draw another
            self._enter(connection, player, old, code, name)
            send(rooms.connections, connection, P.Ack(seq=seq, version=version))
            whole = P.RoomMessage(version=version, full=True, room=view(room, player, now))
            send(rooms.connections, connection, whole)
            return Sent(version, True)
        raise Refused("busy", "Could not find a free room code; please try again.")

    def join(self, connection: str, player: str, old: str, m: P.JoinByCode) -> Sent:
        self._limit(f"join:{player}", JOIN_LIMIT, "Too many tries; wait a minute and try again.")
        code = m.code.strip().upper()

        def join(room: R.Room, now: int) -> Any:
            room, _ = R.step(room, R.JoinRoom(player, m.name), now)
            return R.step(room, R.Connect(player, connection), now)

        # The room refuses (full, solo, closed, no such code) before anything else moves.
        sent = self.rooms.mutate(
            code,
            join,
            connection=connection,
            seq=m.seq,
            player=player,
            missing="There is no room with that code.",
        )
        self._enter(connection, player, old, code, m.name)
        return sent

    def watch(self, connection: str, player: str, old: str, m: P.Watch) -> Sent:
        rooms = self.rooms
        self._limit(f"join:{player or connection}", JOIN_LIMIT, "Too many tries; wait a minute.")
        code = m.code.strip().upper()
        sent = rooms.mutate(
            code,
            lambda room, now: R.step(room, R.WatchRoom(connection), now),
            connection=connection,
            seq=m.seq,
            missing="There is no room with that code.",
        )
        # A watch screen is not a player: its connection belongs to the room, not to anyone.
        self._enter(connection, "", old, code)
        if not sent.wrote:  # already watching: no write, so no fan-out sent the view
            rooms.snapshot(connection, code, None)
        return sent

    def pick_up(self, connection: str, player: str, old: str, m: P.PickUp) -> Sent:
        store = self.rooms.store
        saved = store.get_save(player, "race")
        if saved is None:
            raise Refused("no-save", "There is no race of yours to pick up.")
        game = load_game(saved)
        name = (store.get_profile(player) or {}).get("name") or "You"

        def ready(room: R.Room, now: int) -> R.Room:
            room, _ = R.step(room, R.ToGame(player), now)
            room, _ = R.step(room, R.Start(player, saved=game), now)
            return room

        return self._open_room(connection, player, old, m.seq, name, solo=True, ready=ready)
