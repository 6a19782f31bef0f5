"""In-memory stand-ins for the rooms' ports, and a phone that talks to the service."""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

from crossing.rooms.ports import Conflict
from crossing.rooms.service import RoomService


class MemoryStore:
    def __init__(self):
        self.rooms: dict[str, tuple[dict, int]] = {}
        self.connections: dict[str, tuple[str, str]] = {}
        self.profiles: dict[str, dict] = {}
        self.saves: dict[tuple[str, str], dict] = {}
        self.counters: Counter = Counter()
        self.requests: Counter = Counter()

    def load_room(self, code):
        self.requests["load_room"] += 1
        found = self.rooms.get(code)
        return (copy.deepcopy(found[0]), found[1]) if found else None

    def save_room(self, code, state, seen, expires_at):
        self.requests["save_room"] += 1
        current = self.rooms.get(code)
        if (current[1] if current else None) != seen:
            raise Conflict(code)
        version = (seen or 0) + 1
        self.rooms[code] = (copy.deepcopy(state), version)
        return version

    def put_connection(self, connection, room, player, expires_at):
        self.requests["put_connection"] += 1
        self.connections[connection] = (room, player)

    def get_connection(self, connection):
        self.requests["get_connection"] += 1
        return self.connections.get(connection)

    def delete_connection(self, connection):
        self.connections.pop(connection, None)

    def get_profile(self, player):
        return copy.deepcopy(self.profiles.get(player))

    def put_profile(self, player, profile):
        self.profiles[player] = copy.deepcopy(profile)

    def get_save(self, player, kind):
        return copy.deepcopy(self.saves.get((player, kind)))

    def put_save(self, player, kind, save, expires_at):
        self.saves[(player, kind)] = copy.deepcopy(save)

    def delete_save(self, player, kind):
        self.saves.pop((player, kind), None)

    def take(self, key, limit, window_ms, now):
        slot = (key, now // window_ms)
        if self.counters[slot] >= limit:
            return False
        self.counters[slot] += 1
        return True


class RecordingConnections:
    def __init__(self):
        self.sent: dict[str, list[dict]] = {}
        self.gone: set[str] = set()

    def send(self, connection, message):
        if connection in self.gone:
            return False
        self.sent.setdefault(connection, []).append(json.loads(json.dumps(message)))
        return True


class ManualTimers:
    def __init__(self):
        self.armed: dict[str, tuple[int, int]] = {}

    def arm(self, room, at, version):
        self.armed[room] = (at, version)

    def disarm(self, room):
        self.armed.pop(room, None)


class ListPacks:
    def __init__(self, puzzles):
        self.by_size = puzzles

    def puzzles(self, size):
        return self.by_size.get(size, [])


class Clock:
    def __init__(self, now=1_700_000_000_000):
        self.now = now

    def __call__(self):
        return self.now


def apply_patch(target: Any, patch: Any) -> Any:
    """RFC 7386, as a client applies it."""
    if not isinstance(patch, dict):
        return patch
    out = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = apply_patch(out.get(key), value)
    return out


class Phone:
    """One browser: a connection, its player and token, and the room as it has been told."""

    def __init__(self, service: RoomService, connection: str):
        self.service = service
        self.connection = connection
        self.seq = 0
        self.player: str | None = None
        self.token: str | None = None
        self.room: dict[str, Any] = {}
        self.version = 0
        self.read = 0

    @property
    def inbox(self) -> list[dict]:
        return self.service.connections.sent.get(self.connection, [])

    def send(self, action: str, **fields) -> list[dict]:
        self.seq += 1
        body = json.dumps({"action": action, "seq": self.seq, **fields})
        self.service.receive(self.connection, body)
        return self.take()

    def resend_last(self, action: str, **fields) -> list[dict]:
        body = json.dumps({"action": action, "seq": self.seq, **fields})
        self.service.receive(self.connection, body)
        return self.take()

    def take(self) -> list[dict]:
        """New messages since last read, applied to this phone's copy of the room."""
        new = self.inbox[self.read :]
        self.read = len(self.inbox)
        for message in new:
            if message["type"] == "welcome":
                self.player, self.token = message["player"], message["token"]
            elif message["type"] == "room":
                self.room = (
                    message["room"] if message["full"] else apply_patch(self.room, message["room"])
                )
                self.version = message["version"]
        return new

    def errors(self, messages):
        return [m for m in messages if m["type"] == "error"]


def make_service(clock: Clock) -> RoomService:
    """The room service on in-memory fakes, dealing the test Mini, with a seeded rng."""
    import random

    from crossing.crossword.sizes import Size

    from tests.crossword.puzzles import MINI

    return RoomService(
        MemoryStore(),
        RecordingConnections(),
        ManualTimers(),
        ListPacks({Size.MINI: [MINI]}),
        clock=clock,
        rng=random.Random(7),
        sleep=lambda seconds: None,
    )


def phone_maker(service: RoomService):
    """A function that opens a new phone (its own connection) that has said hello."""
    count = iter(range(10_000))

    def make() -> Phone:
        p = Phone(service, f"conn-{next(count)}")
        p.send("hello")
        return p

    return make
