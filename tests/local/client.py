"""A WebSocket player for tests against a running local stack."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

from websockets.sync.client import connect

from tests.rooms.fakes import apply_patch


class SocketPlayer:
    def __init__(self, url: str):
        self._open = contextlib.ExitStack()  # closed by close(), as a browser tab would be
        self.ws = self._open.enter_context(connect(url))
        self.seq = 0
        self.version = 0
        self.room: dict[str, Any] = {}
        self.player: str | None = None
        self.token: str | None = None
        self.errors: list[dict] = []
        self.welcome: dict[str, Any] = {}
        self.signed_in: dict[str, Any] = {}
        self.duel: dict[str, Any] = {}
        self.duel_version = 0
        self.lobby: dict[str, Any] = {}

    def close(self) -> None:
        self._open.close()

    def send(self, action: str, **fields: Any) -> int:
        self.seq += 1
        self.ws.send(json.dumps({"action": action, "seq": self.seq, **fields}))
        return self.seq

    def read(self, timeout: float = 5.0) -> dict:
        message = json.loads(self.ws.recv(timeout=timeout))
        if message["type"] == "welcome":
            self.player, self.token = message["player"], message["token"]
            self.welcome = message
        elif message["type"] == "signed_in":
            self.player, self.signed_in = message["player"], message
        elif message["type"] == "duel":
            self.duel, self.duel_version = message["game"], message["version"]
        elif message["type"] == "lobby":
            self.lobby = message
        elif message["type"] == "room":
            full = message["full"]
            self.room = message["room"] if full else apply_patch(self.room, message["room"])
            self.version = message["version"]
        elif message["type"] == "error":
            self.errors.append(message)
        return message

    def until(self, check, timeout: float = 5.0) -> dict:
        """Read messages until ``check(self)`` holds."""
        end = time.monotonic() + timeout
        while not check(self):
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"still waiting; room is {json.dumps(self.room)[:300]}")
            self.read(left)
        return self.room

    def act(self, action: str, **fields: Any) -> dict:
        """Send; wait for its ack (or error) and for the room version the ack names."""
        return self._acted(self.send(action, **fields), lambda p: p.version)

    def duel_act(self, action: str, **fields: Any) -> dict:
        """``act`` for a Duel message: waits for the game version the ack names."""
        return self._acted(self.send(action, **fields), lambda p: p.duel_version)

    def _acted(self, seq: int, version) -> dict:
        while True:
            message = self.read()
            if message["type"] in ("ack", "error") and message.get("seq") == seq:
                break
        wanted = message.get("version") if message["type"] == "ack" else None
        if wanted and not message.get("duplicate"):
            self.until(lambda p: version(p) >= wanted)
        return message


def two_in_a_game(url: str, mode: str, size: str = "mini") -> tuple[SocketPlayer, SocketPlayer]:
    """Hana hosts, Ann joins, and Hana starts a game of ``mode``: both are playing."""
    hana, ann = SocketPlayer(url), SocketPlayer(url)
    for p in (hana, ann):
        p.act("hello")
    hana.act("host", name="Hana")
    ann.act("join", code=hana.room["code"], name="Ann")
    hana.act("to_game")
    hana.act("choose", mode=mode, size=size)
    hana.act("start")
    ann.until(lambda p: p.room.get("phase") == "playing")
    return hana, ann


def white_squares(room: dict[str, Any]) -> list[int]:
    puzzle = room["game"]["puzzle"]
    return [s for s in range(puzzle["width"] * puzzle["height"]) if s not in puzzle["blocks"]]
