"""The room service on the in-memory fakes (``crossing.aws.memory``), and a phone that
talks to it as a browser would."""

from __future__ import annotations

import json
from typing import Any

from crossing.aws.memory import (
    ManualTimers,
    MemoryAccounts,
    MemoryPacks,
    MemoryStore,
    RecordingConnections,
)
from crossing.rooms.ports import Push, Queue, Store
from crossing.rooms.service import RoomService


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
        self.source: str | None = None  # the network address its frames come from, if known

    @property
    def inbox(self) -> list[dict]:
        return self.service.connections.sent.get(self.connection, [])

    def send(self, action: str, **fields) -> list[dict]:
        self.seq += 1
        body = json.dumps({"action": action, "seq": self.seq, **fields})
        self.service.receive(self.connection, body, source=self.source)
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


def make_service(
    clock: Clock,
    *,
    store: Store | None = None,
    push: Push | None = None,
    hold: bool = True,
    queue: Queue | None = None,
) -> RoomService:
    """The room service on the in-memory fakes (or ``store``), dealing the test Mini;
    ``hold=False`` and a ``queue`` make it a cloud container's."""
    import random

    from tests.crossword.puzzles import MINI

    return RoomService(
        store if store is not None else MemoryStore(),
        RecordingConnections(),
        ManualTimers(),
        MemoryPacks([MINI]),
        clock=clock,
        rng=random.Random(7),
        sleep=lambda seconds: None,
        push=push,
        accounts=MemoryAccounts(),
        hold=hold,
        queue=queue,
    )


def phone_maker(service: RoomService):
    """A function that opens a new phone (its own connection) that has said hello."""
    count = iter(range(10_000))

    def make() -> Phone:
        p = Phone(service, f"conn-{next(count)}")
        p.send("hello")
        return p

    return make


def start_game(phone, mode="race", guests=("Ann",), bots=()):
    """Hana hosts, the guests join by code, bots are added, and a Mini of ``mode`` starts."""
    host = phone()
    host.send("host", name="Hana")
    code = host.room["code"]
    others = []
    for name in guests:
        p = phone()
        assert not p.errors(p.send("join", code=code.lower(), name=name))
        others.append(p)
    for level in bots:
        host.send("add_bot", level=level)
    host.send("to_game")
    host.send("choose", mode=mode, size="mini")
    assert not host.errors(host.send("start"))
    for p in others:
        p.take()
    return host, others, code
